/**
 * The operators' monitoring files in deploy/ hold against the service itself:
 * - deploy/prometheus/alerts.yml passes `promtool check rules`, and its unit tests
 *   (deploy/prometheus/alerts.test.yml, one per alert group) pass `promtool test rules`;
 *   promtool is Debian's `prometheus` package (.ci/run installs it); under CI=true its absence
 *   is a failure, elsewhere these tests skip and say why;
 * - every metric an alert or a panel of deploy/grafana/collections-facade.json names is one the
 *   processes export: the names are read from GET /metrics of a running API and of a running
 *   worker process (the worker's METRICS_PORT), not from a list kept by hand.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { redisAvailable, REQUIRE_SERVICES, TEST_REDIS_URL, createMigratedTestDatabase, type TestDatabase } from '../support/databases';
import { type ApiHarness, JWT_TEST_SECRET, startApi } from '../support/harness';
import { TEST_SECRETS_KEY } from '../support/secrets';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

const ROOT = path.resolve(__dirname, '../..');
const ALERTS = path.join(ROOT, 'deploy/prometheus/alerts.yml');
const ALERT_TESTS = path.join(ROOT, 'deploy/prometheus/alerts.test.yml');
const DASHBOARD = path.join(ROOT, 'deploy/grafana/collections-facade.json');

/**
 * Metrics of other exporters the alerts and the dashboard use on purpose: replication lag comes
 * from mysqld_exporter on the replica (the service holds no connection to it).
 */
const OTHER_EXPORTERS = [/^mysql_slave_status_/];

/** PromQL words that are not metric names. */
const PROMQL_WORDS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'and', 'or', 'unless', 'bool', 'offset', 'inf', 'nan']);

/** The metric names a PromQL expression reads (Grafana's $variables and [$__rate_interval] allowed). */
export function metricNamesOf(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // ranges
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ') // label lists
    .replace(/\$\w+/g, ' ');
  const names = new Set<string>();
  for (const match of bare.matchAll(/(?<![\w.])([a-zA-Z_:][a-zA-Z0-9_:]*)(\s*\()?/g)) {
    const [, word, call] = match;
    if (call || PROMQL_WORDS.has(word!.toLowerCase())) continue; // a function, or a keyword
    names.add(word!);
  }
  return [...names];
}

/** Every sample name an exposition text can carry: histograms' _bucket/_sum/_count included. */
function exportedNames(exposition: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of exposition.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name!);
    if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) names.add(name! + suffix);
  }
  return names;
}

function alertExpressions(): { name: string; expr: string }[] {
  const text = fs.readFileSync(ALERTS, 'utf8');
  // The rules file's exprs: a single line after `expr:`, or the indented block of `expr: |`.
  const found: { name: string; expr: string }[] = [];
  const lines = text.split('\n');
  let alert = '';
  for (let i = 0; i < lines.length; i++) {
    const named = /^\s*- alert: (\S+)/.exec(lines[i]!);
    if (named) alert = named[1]!;
    const m = /^(\s*)expr: (.*)$/.exec(lines[i]!);
    if (!m) continue;
    if (m[2]!.trim() !== '|') {
      found.push({ name: alert, expr: m[2]! });
      continue;
    }
    const block: string[] = [];
    while (i + 1 < lines.length && (lines[i + 1]!.startsWith(m[1]! + '  ') || lines[i + 1]!.trim() === '')) block.push(lines[++i]!);
    found.push({ name: alert, expr: block.join('\n') });
  }
  return found;
}

function dashboardExpressions(): { name: string; expr: string }[] {
  const dashboard = JSON.parse(fs.readFileSync(DASHBOARD, 'utf8')) as { panels: { title: string; targets?: { expr: string }[] }[]; templating: { list: { name: string; query?: unknown }[] } };
  const panels = dashboard.panels.flatMap((p) => (p.targets ?? []).map((t) => ({ name: `panel "${p.title}"`, expr: t.expr })));
  const variables = dashboard.templating.list.flatMap((v) => {
    const query = typeof v.query === 'object' && v.query ? (v.query as { query?: string }).query : undefined;
    const inner = query && /label_values\(([^,]+),/.exec(query);
    return inner ? [{ name: `variable $${v.name}`, expr: inner[1]! }] : [];
  });
  return [...panels, ...variables];
}

function promtool(): boolean {
  const found = spawnSync('promtool', ['--version']).status === 0;
  if (!found && REQUIRE_SERVICES) throw new Error('CI=true and promtool is not installed (Debian package prometheus; .ci/run installs it)');
  return found;
}

describe('monitoring files (deploy/prometheus, deploy/grafana)', function () {
  this.timeout(60_000);

  describe('promtool', () => {
    before(function () {
      if (!promtool()) {
        process.stdout.write('      (skipped: promtool not installed; apt-get install prometheus, or run under .ci/run)\n');
        this.skip();
      }
    });

    it('checks the alert rules', () => {
      const run = spawnSync('promtool', ['check', 'rules', ALERTS], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).to.equal(0);
      expect(run.stdout + run.stderr).to.match(/SUCCESS: \d+ rules found/);
    });

    it('passes the unit tests of every alert (alerts.test.yml)', () => {
      const run = spawnSync('promtool', ['test', 'rules', ALERT_TESTS], { encoding: 'utf8' });
      expect(run.status, run.stdout + run.stderr).to.equal(0);
      // Every alert of the rules file has at least one test that expects it to fire.
      const tests = fs.readFileSync(ALERT_TESTS, 'utf8');
      for (const { name } of alertExpressions()) {
        expect(new RegExp(`alertname: ${name}\\n\\s+exp_alerts:\\n\\s+- exp_labels`).test(tests), `a firing test of ${name}`).to.equal(true);
      }
    });
  });

  describe('metric names', () => {
    let api: ApiHarness | null = null;
    let worker: WorkerProcess | null = null;
    let workerDatabase: TestDatabase | null = null;
    let exported = new Set<string>();

    before(async function () {
      if (!(await redisAvailable())) this.skip();
      // The API with BullMQ (queue depth and age, outbox, HTTP, money received), and a worker
      // process, which runs the jobs and delivers webhooks (job, webhook, unapplied payment metrics).
      api = await startApi('sqlite', { redisUrl: TEST_REDIS_URL });
      workerDatabase = await createMigratedTestDatabase('sqlite');
      worker = await startWorkerProcess({ DATABASE_URL: workerDatabase.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: api.queuePrefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, METRICS_PORT: '0', HOST: '127.0.0.1' });
      const ready = worker.logs().find((l) => l.msg === 'worker ready')!;
      const apiText = (await api.http.get('/metrics').expect(200)).text;
      const workerText = await (await fetch(`http://127.0.0.1:${ready.metricsPort as number}/metrics`)).text();
      exported = new Set([...exportedNames(apiText), ...exportedNames(workerText)]);
    });
    after(async () => {
      await worker?.stop();
      await api?.close();
      await workerDatabase?.drop();
    });

    it('reads the names out of PromQL', () => {
      expect(metricNamesOf('sum by (route, le) (rate(cf_a_bucket{route!="x",s=~"5.."}[5m])) / on (route) max(cf_b) > 0.1 and cf_c offset 5m')).to.deep.equal(['cf_a_bucket', 'cf_b', 'cf_c']);
      expect(metricNamesOf('histogram_quantile(0.99, sum by (le) (rate(cf_d_bucket{instance=~"$instance"}[$__rate_interval])))')).to.deep.equal(['cf_d_bucket']);
    });

    it('every alert names metrics the processes export', () => {
      const expressions = alertExpressions();
      expect(expressions.length).to.be.at.least(8);
      const unknown = expressions.flatMap(({ name, expr }) => metricNamesOf(expr).filter((m) => !exported.has(m) && !OTHER_EXPORTERS.some((re) => re.test(m))).map((m) => `${name}: ${m}`));
      expect(unknown).to.deep.equal([]);
    });

    it('every dashboard panel and variable names metrics the processes export', () => {
      const expressions = dashboardExpressions();
      expect(expressions.length).to.be.at.least(20);
      const unknown = expressions.flatMap(({ name, expr }) => metricNamesOf(expr).filter((m) => !exported.has(m) && !OTHER_EXPORTERS.some((re) => re.test(m))).map((m) => `${name}: ${m}`));
      expect(unknown).to.deep.equal([]);
    });

    it('the new backlog gauges are there: outbox age and the oldest waiting job', () => {
      for (const name of ['cf_outbox_pending', 'cf_outbox_oldest_age_seconds', 'cf_queue_oldest_waiting_seconds', 'cf_webhook_delivery_attempts', 'cf_db_pool_connections']) {
        expect(exported.has(name), name).to.equal(true);
      }
    });
  });
});
