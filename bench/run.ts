import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuShare, cpuSnapshot, processCpuMs } from './lib/cpu';
import { type BenchDatabase, createBenchDatabase, deleteRedisPrefix, describeMachine } from './lib/environment';
import { type LoadSpec, measure, warmUp } from './lib/load';
import { rssMiB, type Service, startService, stopAll } from './lib/processes';
import { markdown, type Report, type Row, textTable } from './lib/report';

/**
 * `npm run bench [-- --quick] [--duration <s>] [--connections <n>] [--no-write]`
 *
 * The API (and, later, workers) as separate processes on a fresh MySQL database, the lean
 * baselines beside it in the same run, autocannon against each scenario. Prints a table and a
 * JSON object on stdout (progress goes to stderr) and writes docs/performance.md.
 */

const ROOT = path.resolve(__dirname, '..');
const MYSQL_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
const TSX = path.join(ROOT, 'node_modules/.bin/tsx');
const DOC = path.join(ROOT, 'docs/performance.md');

interface Options {
  quick: boolean;
  durationSec: number;
  warmupSec: number;
  connections: number;
  write: boolean;
}

function parseArgs(argv: string[]): Options {
  const quick = argv.includes('--quick');
  const value = (flag: string) => {
    const i = argv.indexOf(flag);
    if (i < 0) return undefined;
    const n = Number(argv[i + 1]);
    if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} needs a positive number`);
    return n;
  };
  const known = new Set(['--quick', '--duration', '--connections', '--no-write', '--write']);
  for (const [i, arg] of argv.entries()) {
    if (arg.startsWith('--') && !known.has(arg)) throw new Error(`unknown option ${arg}`);
    if (!arg.startsWith('--') && !['--duration', '--connections'].includes(argv[i - 1] ?? '')) throw new Error(`unexpected argument ${arg}`);
  }
  return {
    quick,
    durationSec: value('--duration') ?? (quick ? 3 : 10),
    warmupSec: quick ? 1 : 2,
    connections: value('--connections') ?? 32,
    // A quick (CI smoke) run checks that the bench works; it leaves the published figures alone.
    write: argv.includes('--write') || (!quick && !argv.includes('--no-write')),
  };
}

/** What a scenario can use: the running services, the API's credentials, what earlier scenarios left. */
interface Context {
  services: Map<string, Service>;
  headers: Record<string, string>;
  runTag: string;
  dataset: Record<string, number>;
}

/**
 * A scenario is data: which process answers, which baseline it is compared with, and how to
 * build its load (it may read what earlier scenarios created). New endpoints, a worker process
 * or seeded datasets add entries here.
 */
interface Scenario {
  id: string;
  label: string;
  service: string;
  kind: 'baseline' | 'api';
  baseline?: string;
  load(ctx: Context): Promise<Omit<LoadSpec, 'baseUrl' | 'connections' | 'durationSec' | 'warmupSec'>>;
}

const SCENARIOS: Scenario[] = [
  {
    id: 'baseline.koa-json',
    label: 'GET / (bare Koa JSON)',
    service: 'koa-json',
    kind: 'baseline',
    load: async () => ({ method: 'GET', path: '/' }),
  },
  {
    id: 'baseline.koa-insert',
    label: 'POST / (Koa + 1 INSERT)',
    service: 'koa-insert',
    kind: 'baseline',
    load: async (ctx) => ({
      method: 'POST',
      path: '/',
      headers: { 'content-type': 'application/json' },
      vary: uniqueContactBodies(`${ctx.runTag}-baseline`),
    }),
  },
  {
    id: 'contacts.create',
    label: 'POST /contacts',
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-insert',
    load: async (ctx) => ({
      method: 'POST',
      path: '/contacts',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: uniqueContactBodies(`${ctx.runTag}-api`),
    }),
  },
  {
    id: 'contacts.list',
    label: 'GET /contacts',
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    load: async (ctx) => {
      const first = await apiCall(ctx, 'GET', '/contacts');
      ctx.dataset.contactsBeforeList = (first.meta as { total: number }).total;
      return { method: 'GET', path: '/contacts', headers: ctx.headers };
    },
  },
  {
    id: 'contacts.get',
    label: 'GET /contacts/{id}',
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    load: async (ctx) => {
      const page = await apiCall(ctx, 'GET', '/contacts?limit=500');
      const paths = (page.data as { contactId: string }[]).map((c) => `/contacts/${c.contactId}`);
      if (paths.length === 0) throw new Error('GET /contacts returned no contact to read back');
      ctx.dataset.idsRotated = paths.length;
      let i = 0;
      return { method: 'GET', path: paths[0]!, headers: ctx.headers, vary: () => ({ path: paths[i++ % paths.length] }) };
    },
  },
];

/** A contact body per request with a unique externalClientId (and email), one MOBILE phone. */
function uniqueContactBodies(prefix: string): () => { body: string } {
  let n = 0;
  return () => {
    n += 1;
    return {
      body: JSON.stringify({
        externalClientId: `${prefix}-${n}`,
        name: `Bench Contact ${n}`,
        email: `bench.${prefix}.${n}@example.com`,
        phones: [{ number: `+52 55 ${String(10_000_000 + n).slice(-8)}`, type: 'MOBILE', primary: true }],
      }),
    };
  };
}

async function apiCall(ctx: Context, method: string, urlPath: string, body?: unknown): Promise<Record<string, unknown>> {
  const api = ctx.services.get('api')!;
  const response = await fetch(`http://127.0.0.1:${api.port}${urlPath}`, {
    method,
    headers: { ...ctx.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as Record<string, unknown>;
  if (!response.ok) throw new Error(`${method} ${urlPath} → ${response.status} ${JSON.stringify(json)}`);
  return json;
}

interface DemoCredentials {
  apiKey: string;
  loginApiKey: string;
  clientUsername: string;
  password: string;
}

/** The demo banner the API prints on an empty database (cmd/shared/demo-banner.ts). */
function demoCredentials(stdout: string): DemoCredentials | null {
  const field = (name: string) => new RegExp(`^\\s+${name}\\s+(\\S+)\\s*$`, 'm').exec(stdout)?.[1];
  const apiKey = field('apiKey');
  const loginApiKey = field('loginApiKey');
  const clientUsername = field('clientUsername');
  const password = field('password');
  return apiKey && loginApiKey && clientUsername && password ? { apiKey, loginApiKey, clientUsername, password } : null;
}

async function login(port: number, demo: DemoCredentials): Promise<string> {
  const response = await fetch(`http://127.0.0.1:${port}/auth/login`, {
    method: 'POST',
    headers: { 'x-api-key': demo.loginApiKey, 'content-type': 'application/json' },
    body: JSON.stringify({ clientUsername: demo.clientUsername, password: demo.password }),
  });
  const json = (await response.json()) as { accessToken?: string };
  if (response.status !== 200 || !json.accessToken) throw new Error(`POST /auth/login → ${response.status} ${JSON.stringify(json)}`);
  return json.accessToken;
}

/** The caller's environment without the variables cmd/shared/config.ts reads: only ours reach the children. */
function withoutAppConfig(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const copy = { ...env };
  for (const key of Object.keys(copy)) {
    if (/^(PORT|HOST|DATABASE_URL|REDIS_URL|RUN_WORKERS|PUBLIC_BASE_URL|JWT_SECRET(_FILE)?|MIGRATE_ON_START|QUEUE_PREFIX|WORKER_CONCURRENCY|LOG_LEVEL|APP_ENV|DATA_DIR)$/.test(key)) {
      delete copy[key];
    }
  }
  return copy;
}

function log(message: string): void {
  process.stderr.write(`[bench] ${message}\n`);
}

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  const runTag = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const queuePrefix = `bench_${runTag}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-bench-'));
  let db: BenchDatabase | null = null;

  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await stopAll();
      await db?.drop().catch((error) => log(`could not drop ${db?.name}: ${(error as Error).message}`));
      await deleteRedisPrefix(REDIS_URL, queuePrefix).catch(() => undefined);
      fs.rmSync(dataDir, { recursive: true, force: true });
    })());
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      log(`${signal}: stopping children and dropping the bench database`);
      void cleanup().finally(() => process.exit(130));
    });
  }

  try {
    const started = Date.now();
    db = await createBenchDatabase(MYSQL_URL);
    log(`database ${db.name}; ${options.connections} connections, ${options.durationSec} s per scenario after ${options.warmupSec} s warm-up`);
    const machine = await describeMachine(db);

    const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
      ...withoutAppConfig(process.env),
      HOST: '127.0.0.1',
      PORT: '0',
      ...extra,
    });
    const [api, koaJson, koaInsert] = await Promise.all([
      startService({
        name: 'api',
        command: TSX,
        args: ['cmd/api/main.ts'],
        cwd: ROOT,
        env: childEnv({
          DATABASE_URL: db.url,
          REDIS_URL,
          QUEUE_PREFIX: queuePrefix,
          JWT_SECRET: crypto.randomBytes(48).toString('base64url'),
          LOG_LEVEL: 'warn',
          APP_ENV: 'development',
          DATA_DIR: dataDir,
        }),
        ready: (stdout) => demoCredentials(stdout) !== null || /already has tenants/.test(stdout),
      }),
      startService({ name: 'koa-json', command: TSX, args: ['bench/baselines/koa-json.ts'], cwd: ROOT, env: childEnv({}) }),
      startService({ name: 'koa-insert', command: TSX, args: ['bench/baselines/koa-insert.ts'], cwd: ROOT, env: childEnv({ DATABASE_URL: db.url }) }),
    ]);
    const demo = demoCredentials(api.stdout());
    if (!demo) throw new Error(`the API printed no demo credentials on the empty database:\n${api.stdout()}`);
    const accessToken = await login(api.port, demo);
    log(`api pid ${api.pid} (server ${api.serverPid}) on :${api.port}; koa-json :${koaJson.port}; koa-insert :${koaInsert.port}`);

    const ctx: Context = {
      services: new Map([api, koaJson, koaInsert].map((s) => [s.name, s])),
      headers: { 'x-api-key': demo.apiKey, 'x-authorization-token': accessToken },
      runTag,
      dataset: {},
    };

    const rows: Row[] = [];
    for (const scenario of SCENARIOS) {
      const service = ctx.services.get(scenario.service)!;
      const spec = await scenario.load(ctx);
      log(`${scenario.label} → ${service.name} …`);
      const load: LoadSpec = {
        ...spec,
        baseUrl: `http://127.0.0.1:${service.port}`,
        connections: options.connections,
        durationSec: options.durationSec,
        warmupSec: options.warmupSec,
      };
      await warmUp(load);
      const cpuBefore = cpuSnapshot();
      const serverCpuBefore = processCpuMs(service.serverPid);
      const result = await measure(load);
      const serverCpuMs = processCpuMs(service.serverPid) - serverCpuBefore;
      const share = cpuShare(cpuBefore, cpuSnapshot(), machine.cores);
      const baseline = scenario.baseline ? rows.find((r) => r.id === scenario.baseline) : undefined;
      const row: Row = {
        id: scenario.id,
        label: scenario.label,
        service: service.name,
        kind: scenario.kind,
        ...result,
        baseline: baseline ? baseline.service : null,
        ratio: baseline ? Math.round((result.requestsPerSec / baseline.requestsPerSec) * 1000) / 1000 : null,
        rssMiB: rssMiB(service.serverPid),
        serverCpuMsPerRequest: result.requests > 0 ? Math.round((serverCpuMs / result.requests) * 1000) / 1000 : null,
        otherCpuCores: share?.otherCores ?? null,
        stealCores: share?.stealCores ?? null,
      };
      rows.push(row);
      log(
        `  ${row.requestsPerSec} req/s, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, RSS ${row.rssMiB} MiB` +
          `${row.ratio === null ? '' : `, ${row.ratio} × ${row.baseline}`}; ${row.serverCpuMsPerRequest} CPU ms/req; ` +
          `other processes used ${row.otherCpuCores ?? '?'} cores`,
      );
      if (result.errors > 0 || result.non2xx > 0 || result.requests === 0) {
        throw new Error(
          `${scenario.label}: ${result.errors} connection errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx answers ` +
            `of ${result.requests}; status codes ${JSON.stringify(result.statusCodes)}. Every request must succeed.`,
        );
      }
    }

    const report: Report = {
      mode: options.quick ? 'quick' : 'default',
      date: new Date().toISOString(),
      machine,
      settings: { connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec, database: 'mysql', queue: 'bullmq (redis)' },
      dataset: ctx.dataset,
      rows,
    };
    process.stdout.write(`\n${textTable(rows)}\n\n${JSON.stringify(report)}\n`);
    if (options.write) {
      fs.writeFileSync(DOC, markdown(report, reading(report)));
      log(`wrote ${path.relative(process.cwd(), DOC)}`);
    } else {
      log('docs/performance.md left unchanged (--quick or --no-write; --write forces it)');
    }
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await cleanup();
  }
}

/** A few sentences derived from the figures, so the page stays true when it is regenerated. */
function reading(report: Report): string[] {
  const row = (id: string) => report.rows.find((r) => r.id === id)!;
  const create = row('contacts.create');
  const list = row('contacts.list');
  const get = row('contacts.get');
  const koaJson = row('baseline.koa-json');
  const koaInsert = row('baseline.koa-insert');
  const pct = (ratio: number | null) => `${((ratio ?? 0) * 100).toFixed(ratio !== null && ratio < 0.1 ? 1 : 0)} %`;
  const cpu = (r: Row) => (r.serverCpuMsPerRequest === null ? '?' : `${r.serverCpuMsPerRequest.toFixed(2)} ms`);
  const perCore = (r: Row) => (r.serverCpuMsPerRequest ? `about ${Math.round(1000 / r.serverCpuMsPerRequest)} req/s` : 'unknown');
  // CPU-bound when the request costs the process several times what bare Koa's does.
  const cpuBound = (r: Row, base: Row) => (r.serverCpuMsPerRequest ?? 0) > 4 * (base.serverCpuMsPerRequest ?? Infinity);
  const rss = report.rows.filter((r) => r.service === 'api').map((r) => r.rssMiB ?? 0);
  const busiest = Math.max(...report.rows.map((r) => r.otherCpuCores ?? 0));
  return [
    ...(busiest >= 0.25
      ? [
          `Other processes used up to ${busiest.toFixed(2)} of the ${report.machine.cores} cores during this run (column Other CPU): ` +
            `req/s and latencies of those rows understate a quiet machine; CPU ms/req is the steadier figure.`,
        ]
      : []),
    `POST /contacts: ${create.requestsPerSec.toFixed(0)} req/s (p50 ${create.p50Ms} ms, p99 ${create.p99Ms} ms), ` +
      `${pct(create.ratio)} of the one-INSERT baseline (${koaInsert.requestsPerSec.toFixed(0)} req/s). The API process spends ${cpu(create)} ` +
      `of CPU per create against ${cpu(koaInsert)} for the baseline, and makes five database round trips where the baseline makes one: ` +
      `the authentication query (API key digest joined to organization, user and companies), then BEGIN, INSERT contact, ` +
      `INSERT phone index, COMMIT.`,
    `GET /contacts/{id}: ${get.requestsPerSec.toFixed(0)} req/s, p99 ${get.p99Ms} ms, ${pct(get.ratio)} of bare Koa ` +
      `(${koaJson.requestsPerSec.toFixed(0)} req/s). It costs the API ${cpu(get)} of CPU per request against ${cpu(koaJson)} for bare Koa, ` +
      `so one core of API serves ${perCore(get)}. It makes two queries (authentication, contact by organization and code)` +
      (cpuBound(get, koaJson)
        ? `, yet the API's own CPU per request is the larger part of the gap: profile the process to see where it goes.`
        : `; the API's CPU per request is close to bare Koa's, so the gap is mostly the wait on MariaDB.`),
    `GET /contacts (default page of 50 over ${report.dataset.contactsBeforeList ?? '?'} contacts): ${list.requestsPerSec.toFixed(0)} req/s, ` +
      `p99 ${list.p99Ms} ms, ${pct(list.ratio)} of bare Koa, ${cpu(list)} of API CPU per request: authentication, the page and the bounded ` +
      `count (at most 10,001 ids) run per request, and 50 contacts are mapped and serialized.`,
    `API RSS after each scenario: ${rss.map((v) => `${v} MiB`).join(', ')} (create, list, get); the baselines stay at ` +
      `${koaJson.rssMiB ?? '?'} and ${koaInsert.rssMiB ?? '?'} MiB.`,
    `The load generator, the API, the baselines and MariaDB share ${report.machine.cores} cores: absolute req/s are a floor, ` +
      `and the ratios and CPU ms/req are what compares across runs and machines.`,
  ];
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[bench] FAILED: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
