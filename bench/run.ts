import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { cpuShare, cpuSnapshot, databaseCpuMs, processCpuMs, useDatabaseServer } from './lib/cpu';
import { demoCredentials, login, withoutAppConfig } from './lib/demo';
import { type BenchDatabase, benchDialect, createBenchDatabase, type DatabaseKind, deleteRedisPrefix, describeMachine, setBufferPool } from './lib/environment';
import { drainWaitingJobs, type GenerationPlan, measureGeneration } from './lib/generation';
import { type LoadSpec, measure, warmUp } from './lib/load';
import { afterFullGc, gcProbeEnv, live, type MemoryPass, memoryReport } from './lib/memory';
import { cpuProbeEnv, profiled, type ScenarioProfile } from './lib/profile';
import { parseArgs } from './lib/options';
import { rssMiB, type Service, startService, stopAll } from './lib/processes';
import { measureReminders, type RemindersReport } from './lib/reminders';
import { reading } from './lib/reading';
import { FIRST_WARMUP_SEC, PAIRED_BASELINE_SEC, type PairedBaseline, performancePage, rawReports, type Report, type Row, textTable } from './lib/report';
import { isNamed, selectScenarios } from './lib/selection';
import { CREATE_FLOORS, LIST_FLOOR_SERVICE, targets } from './lib/targets';
import { SCENARIOS } from './scenarios';
import { log } from './scenarios/support';
import type { Context, Scenario } from './scenarios/types';

/**
 * `npm run bench [-- --quick] [--database mysql|postgres] [--duration <s>] [--connections <n>] [--only <id,...>] [--innodb-buffer-pool <MiB>] [--reminder-debts <n>] [--no-write]`
 *
 * `--database postgres` runs everything on PostgreSQL (BENCH_POSTGRES_URL, default
 * postgres://root@127.0.0.1:5432/postgres: a user that may create databases, and a superuser for
 * the seeding's session_replication_role) instead of MySQL (BENCH_MYSQL_URL). What the bench
 * does differently per server is in bench/lib/environment.ts (BenchDialect). A PostgreSQL run
 * leaves the MySQL figures of docs/performance.md in place and writes its own beside them
 * (performancePage in bench/lib/report.ts); a MySQL run keeps the last PostgreSQL figures.
 *
 * `--render` runs nothing: it writes docs/performance.md again from the raw figures it holds, with the
 * report code as it is now (after a change to the prose of report.ts or reading.ts).
 *
 * `--innodb-buffer-pool 2048` sizes the MariaDB/MySQL server's buffer pool for the run (a
 * server-wide setting, put back at the end): the packaged default, 128 MiB, holds little of the
 * million-debt table the list scenarios seed.
 *
 * `--only debts.create,generation` runs the scenarios whose id starts with one of the given
 * prefixes (the baselines always run, for the ratios), and before a read the create whose rows it
 * reads (`--only links.list` runs links.create first: Scenario.needs, bench/lib/selection.ts); it
 * never writes docs/performance.md.
 *
 * The API (and, later, workers) as separate processes on a fresh MySQL (or PostgreSQL) database, the lean
 * baselines beside it in the same run, autocannon against each scenario. Prints a table and a
 * JSON object on stdout (progress goes to stderr) and writes docs/performance.md (not when --quick).
 *
 * The scenarios are data, a file per resource in bench/scenarios/ (listed in index.ts); this file
 * starts the processes, runs them, and writes the report (bench/lib/targets.ts, reading.ts).
 */

const ROOT = path.resolve(__dirname, '..');
const SERVER_URLS: Record<DatabaseKind, string> = {
  mysql: process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306',
  postgres: process.env.BENCH_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres',
};
const REDIS_URL = process.env.BENCH_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Node with tsx as its loader: how `npm start` and `npm run worker` run the entrypoints. */
const NODE = process.execPath;
const tsx = (entry: string) => ['--import', 'tsx', entry];
/**
 * An app or floor process's arguments; with BENCH_CPU_PROFILE_DIR=<dir> it runs under `node --cpu-prof`, its whole
 * life's profile written there on exit (bench/lib/compare-profiles.cjs sets the API's beside its floor's).
 */
const appArgs = (entry: string) => {
  const dir = process.env.BENCH_CPU_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`, ...tsx(entry)] : tsx(entry);
};
const DOC = path.join(ROOT, 'docs/performance.md');

async function main(): Promise<number> {
  const options = parseArgs(process.argv.slice(2));
  if (options.render) {
    const runs = rawReports(fs.readFileSync(DOC, 'utf8'));
    // The targets are checked again against the raw rows, so a target added since a run counts in it too.
    for (const run of [runs.mysql, runs.postgres]) if (run) run.targets = targets(run.rows, run.generation, run.memory, run.seed);
    fs.writeFileSync(DOC, performancePage(runs.mysql, runs.postgres, reading));
    log(`wrote ${path.relative(process.cwd(), DOC)} again from its raw figures`);
    return 0;
  }
  const serverUrl = SERVER_URLS[options.database];
  useDatabaseServer(benchDialect(serverUrl).serverCommands);
  const runTag = `${Date.now().toString(36)}${crypto.randomBytes(3).toString('hex')}`;
  const queuePrefix = `bench_${runTag}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-bench-'));
  let db: BenchDatabase | null = null;
  let restoreBufferPool: (() => Promise<void>) | null = null;

  let cleaning: Promise<void> | null = null;
  const cleanup = () =>
    (cleaning ??= (async () => {
      await stopAll();
      await db?.drop().catch((error) => log(`could not drop ${db?.name}: ${(error as Error).message}`));
      await restoreBufferPool?.().catch((error) => log(`could not restore the buffer pool: ${(error as Error).message}`));
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
    db = await createBenchDatabase(serverUrl);
    log(`${options.database} database ${db.name}; ${options.connections} connections, ${options.durationSec} s per scenario after ${options.warmupSec} s warm-up`);
    if (options.bufferPoolMiB !== null) {
      log(`InnoDB buffer pool set to ${options.bufferPoolMiB} MiB for this run`);
      restoreBufferPool = await setBufferPool(serverUrl, options.bufferPoolMiB);
    }
    const machine = await describeMachine(db);

    const childEnv = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
      ...withoutAppConfig(process.env),
      HOST: '127.0.0.1',
      PORT: '0',
      ...extra,
    });
    // The API and the workers share these; no RUN_WORKERS: the API only enqueues.
    const appEnv: Record<string, string> = {
      DATABASE_URL: db.url,
      REDIS_URL,
      QUEUE_PREFIX: queuePrefix,
      JWT_SECRET: crypto.randomBytes(48).toString('base64url'),
      LOG_LEVEL: 'warn',
      APP_ENV: 'development',
      DATA_DIR: dataDir,
      // One key sends far more than the default 100 req/s here: a limit no scenario reaches,
      // so every request still pays the limiter (one EVALSHA) without being refused.
      // BENCH_RATE_LIMIT_CAPACITY=0 turns the limiter off, to measure what it costs.
      RATE_LIMIT_CAPACITY: process.env.BENCH_RATE_LIMIT_CAPACITY ?? '1000000',
      RATE_LIMIT_REFILL_PER_SECOND: '1000000',
      // The live heap after a full GC on request (bench/lib/gc-probe.cjs), for the memory figures.
      ...gcProbeEnv(),
    };
    const cpuProbe = cpuProbeEnv();
    const databaseUrl = db.url;
    const [api, koaJson, koaInsert, ...floors] = await Promise.all([
      startService({
        name: 'api',
        command: NODE,
        args: appArgs('cmd/api/main.ts'),
        cwd: ROOT,
        // The API alone also gets the CPU probe (bench/lib/cpu-probe.cjs) for the profile pass.
        env: childEnv({ ...appEnv, NODE_OPTIONS: `${appEnv.NODE_OPTIONS ?? ''} ${cpuProbe.require}`.trim(), ...cpuProbe.env }),
        ready: (stdout) => demoCredentials(stdout) !== null || /already has tenants/.test(stdout),
      }),
      startService({ name: 'koa-json', command: NODE, args: tsx('bench/baselines/koa-json.ts'), cwd: ROOT, env: childEnv({}) }),
      startService({ name: 'koa-insert', command: NODE, args: tsx('bench/baselines/koa-insert.ts'), cwd: ROOT, env: childEnv({ DATABASE_URL: db.url }) }),
      // The creates' floors (not in a quick run); the subscriptions' hands its jobs to a queue of its own, which no worker reads.
      // The lists' floor replays a list's statements (not in a quick run either).
      ...(options.quick
        ? []
        : [...CREATE_FLOORS.map(({ service }) => service), LIST_FLOOR_SERVICE].map((service) =>
            startService({ name: service, command: NODE, args: appArgs(`bench/baselines/${service}.ts`), cwd: ROOT, env: childEnv({ DATABASE_URL: databaseUrl, REDIS_URL, QUEUE_PREFIX: `${queuePrefix}:floor` }) }),
          )),
    ]);
    const demo = demoCredentials(api.stdout());
    if (!demo) throw new Error(`the API printed no demo credentials on the empty database:\n${api.stdout()}`);
    const accessToken = await login(api.port, demo);
    log(`api pid ${api.pid} (server ${api.serverPid}) on :${api.port}; koa-json :${koaJson.port}; koa-insert :${koaInsert.port}`);

    const ctx: Context = {
      services: new Map([api, koaJson, koaInsert, ...floors].map((s) => [s.name, s])),
      headers: { 'x-api-key': demo.apiKey, 'x-authorization-token': accessToken },
      runTag,
      dataset: {},
      db,
      options,
      companyCode: demo.companyCode,
      seed: null,
      lists: [],
      debtor: null,
    };

    const rows: Row[] = [];
    const scenarios = selectScenarios(SCENARIOS, options.only, options.quick);
    const selected = (id: string) => isNamed(options.only, id);
    for (const scenario of scenarios) {
      // This machine's speed drifts from minute to minute: a ratio target divides by its baseline
      // measured right before the scenario, not by the start-of-run figure (not in a quick run).
      const paired: Record<string, PairedBaseline> = {};
      for (const id of options.quick ? [] : pairedBaselineIds(scenario)) {
        const measured = await runScenario(SCENARIOS.find((s) => s.id === id)!, ctx, rows, machine.cores, PAIRED_BASELINE_SEC, 1);
        paired[id] = { requestsPerSec: measured.requestsPerSec, p99Ms: measured.p99Ms, serverCpuMsPerRequest: measured.serverCpuMsPerRequest };
      }
      rows.push(await runScenario(scenario, ctx, rows, machine.cores, options.durationSec, options.warmupSec, paired));
    }

    // Memory: the API scenarios again, twice, on the same API process (new keys each pass), with
    // its live heap and RSS after each pass: a leak shows as growth from pass to pass.
    const apiMemory = async (pass: number): Promise<MemoryPass> => ({ pass, ...(await afterFullGc(api.serverPid, rssMiB)) });
    const apiRss: MemoryPass[] = [await apiMemory(1)];
    // A quick (smoke) run repeats once: enough to see the memory measured, inside CI's minute.
    const memoryPasses = options.only !== null ? 1 : options.quick ? 2 : MEMORY_PASSES;
    for (let pass = 2; pass <= memoryPasses; pass++) {
      log(`memory pass ${pass} of ${memoryPasses}: the API scenarios again, ${options.memoryPassSec} s each …`);
      const passCtx: Context = { ...ctx, runTag: `${runTag}.${pass}`, dataset: {} };
      // A quick (smoke) run repeats only the creations and one read of each kind.
      const repeated = scenarios.filter((s) => s.kind === 'api' && (!options.quick || QUICK_MEMORY_SCENARIOS.includes(s.id)));
      for (const scenario of repeated) {
        await runScenario(scenario, passCtx, rows, machine.cores, options.memoryPassSec, 0);
      }
      apiRss.push(await apiMemory(pass));
      const [first, now] = [apiRss[0]!, apiRss.at(-1)!];
      log(`  API after pass ${pass}: live ${live(now)} MiB (heap ${now.liveHeapMiB} + external ${now.externalMiB}), RSS ${now.rssMiB} MiB (after pass 1: live ${live(first)}, RSS ${first.rssMiB} MiB)`);
    }

    // Profile pass: each API scenario once more under V8's sampling profiler, for where a
    // request's CPU goes (a quick run profiles one read, to keep the probe working).
    const profiles: ScenarioProfile[] = [];
    const profiledScenarios = scenarios.filter((s) => s.kind === 'api' && (!options.quick || s.id === 'debts.get'));
    if (profiledScenarios.length > 0) log(`profile pass: ${profiledScenarios.length} API scenario(s) under the sampling profiler, ${options.memoryPassSec} s each …`);
    for (const scenario of profiledScenarios) {
      const passCtx: Context = { ...ctx, runTag: `${runTag}.prof`, dataset: {} };
      const profile = await profiled(api.serverPid, scenario, () => runScenario(scenario, passCtx, rows, machine.cores, options.memoryPassSec, 0));
      profiles.push(profile);
      log(`  ${scenario.label}: ${Object.entries(profile.parts).slice(0, 5).map(([part, pct]) => `${part} ${pct} %`).join(', ')}`);
    }

    // Every create answered 201 with a unique key: the rows must be there, once each.
    const [stored] = await db.query<{ single: number | string; batch: number | string }>(
      `SELECT SUM(CASE WHEN external_request_id LIKE ? THEN 1 ELSE 0 END) AS single, SUM(CASE WHEN external_request_id LIKE ? THEN 1 ELSE 0 END) AS batch FROM debts`,
      [`${runTag}-single-%`, `${runTag}-batch-%`],
    );
    ctx.dataset.singleDebtsStored = Number(stored?.single ?? 0);
    ctx.dataset.batchDebtsStored = Number(stored?.batch ?? 0);
    const [links] = await db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM payment_links WHERE external_payment_link_id LIKE ?', [
      `${runTag}-link-%`,
    ]);
    ctx.dataset.linksStored = Number(links?.n ?? 0);

    const drained = await drainWaitingJobs(REDIS_URL, queuePrefix);
    if (drained > 0) log(`${drained} job(s) the scenarios left waiting (the cycles of the subscriptions POST /subscriptions created) removed before the workers start`);
    ctx.dataset.jobsDrained = drained;

    // Subscription cycle generation: worker processes of their own, started now (the scenarios
    // above ran without one), with the API's environment.
    const workers: Service[] = [];
    // LOG_LEVEL info: the worker logs "worker ready" and each job it completes.
    const startWorker = async (name: string, env: Record<string, string> = {}): Promise<Service> => {
      const worker = await startService({
        name,
        command: NODE,
        args: appArgs('cmd/worker/main.ts'),
        cwd: ROOT,
        env: childEnv({ ...appEnv, LOG_LEVEL: 'info', ...env }),
        listens: false,
        ready: (stdout) => /"msg":"worker ready"/.test(stdout),
      });
      workers.push(worker);
      return worker;
    };
    // The quick (CI smoke) run generates half as many as it did (62 s in a slow hour of 2026-11-27
    // with 2 single runs and 20 subscriptions at once, against CI's 60 s).
    const plan: GenerationPlan = options.quick
      ? { cycles: 520, singleRuns: 1, bulkSubscriptions: 10, bulkConcurrency: 16, bulkWorkers: [1] }
      : { cycles: 520, singleRuns: 3, bulkSubscriptions: 100, bulkConcurrency: 16, bulkWorkers: [1, 2, 2, 2] };
    if (selected('generation')) log(
      `subscription generation: ${plan.singleRuns} × 1 subscription of ${plan.cycles} cycles, then ${plan.bulkSubscriptions} at once ` +
        `(concurrency ${plan.bulkConcurrency}) with ${plan.bulkWorkers.join(', then ')} worker(s) …`,
    );
    const generation = !selected('generation') ? null : await measureGeneration(
      {
        apiUrl: `http://127.0.0.1:${api.port}`,
        headers: ctx.headers,
        databaseUrl: db.url,
        redisUrl: REDIS_URL,
        queuePrefix,
        companyCode: ctx.companyCode,
        runTag,
        log,
        startWorker: (index) => startWorker(`worker-${index}`),
        apiPid: api.serverPid,
      },
      plan,
    );
    // The generation's workers stop here: the reminders' workers have SMTP settings of their own.
    await Promise.all(workers.splice(0).map((w) => w.stop()));

    // Payment reminders: debts due the same day, one email step, sent over SMTP by worker processes.
    const remindersPlan = { debts: options.reminderDebts, workers: options.quick ? [1] : [1, 2], duplicateWatchMs: options.quick ? 1000 : 4000, waitForOverdueJob: !options.quick };
    if (selected('reminders')) log(`payment reminders: ${remindersPlan.debts} debts due the same day, one email step, with ${remindersPlan.workers.join(', then ')} worker(s) …`);
    const reminders: RemindersReport | null = !selected('reminders') ? null : await measureReminders(
      {
        apiUrl: `http://127.0.0.1:${api.port}`,
        headers: ctx.headers,
        companyCode: ctx.companyCode,
        runTag,
        log,
        startWorker: (index, env) => startWorker(`reminders-worker-${index}`, env),
        db,
      },
      remindersPlan,
    );

    const report: Report = {
      mode: options.quick ? 'quick' : 'default',
      date: new Date().toISOString(),
      machine,
      settings: { connections: options.connections, durationSec: options.durationSec, warmupSec: options.warmupSec, database: options.database, queue: 'bullmq (redis)' },
      dataset: ctx.dataset,
      rows,
      seed: ctx.seed,
      lists: ctx.lists,
      generation,
      reminders,
      memory: memoryReport(apiRss, generation),
      profiles,
      targets: targets(rows, generation, memoryReport(apiRss, generation), ctx.seed),
    };
    const targetLines = report.targets.map((t) => `${t.met ? 'met    ' : 'NOT MET'}  ${t.scenario}: ${t.target} (this run: ${t.value})`);
    process.stdout.write(`\n${textTable(rows)}\n\n${targetLines.join('\n')}\n\n${JSON.stringify(report)}\n`);
    if (options.write) {
      // The page holds the last run of each database: this one, and the other's from the page's raw figures.
      const previous = fs.existsSync(DOC) ? rawReports(fs.readFileSync(DOC, 'utf8')) : { mysql: null, postgres: null };
      const runs = { ...previous, [report.settings.database]: report };
      fs.writeFileSync(DOC, performancePage(runs.mysql, runs.postgres, reading));
      log(`wrote ${path.relative(process.cwd(), DOC)} (${report.settings.database} figures${runs.mysql && runs.postgres ? `, the last ${report.settings.database === 'mysql' ? 'PostgreSQL' : 'MySQL'} run's kept` : ''})`);
    } else {
      log('docs/performance.md left unchanged (--quick or --no-write; --write forces it)');
    }
    log(`done in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    return 0;
  } finally {
    await cleanup();
  }
}

/**
 * The baselines an API scenario's ratio targets divide by (issue 19): koa-insert for a create of
 * one resource per request, koa-json and Koa + 1 SELECT for a read by id.
 */
function pairedBaselineIds(scenario: Scenario): string[] {
  // A create's floor is held to koa-insert just before it, as the creates are.
  if (CREATE_FLOORS.some((floor) => floor.id === scenario.id)) return ['baseline.koa-insert'];
  if (scenario.kind !== 'api') return [];
  if (/\.get$/.test(scenario.id)) return ['baseline.koa-json', 'baseline.koa-select'];
  if (scenario.baseline === 'baseline.koa-insert' && (scenario.itemsPerRequest ?? 1) === 1) return ['baseline.koa-insert'];
  return [];
}

/** Passes over the API scenarios (the measured one and the memory passes) on one API process. */
const MEMORY_PASSES = 3;
const QUICK_MEMORY_SCENARIOS = ['debts.create', 'debts.get'];
/** The services that have served a warm-up (runScenario): a service's first gets FIRST_WARMUP_SEC. */
const warmedServices = new Set<string>();

/**
 * Runs one scenario (warm-up, then the measured load) and checks every answer; `rows` holds the
 * baselines measured before it, for its ratio.
 */
async function runScenario(
  scenario: Scenario,
  ctx: Context,
  rows: Row[],
  cores: number,
  durationSec: number,
  warmupSec: number,
  paired: Record<string, PairedBaseline> = {},
): Promise<Row> {
  const { options } = ctx;
  const service = ctx.services.get(scenario.service)!;
  const spec = await scenario.load(ctx);
  const connections = options.connectionsForced ? options.connections : (scenario.connections ?? options.connections);
  log(`${scenario.label} → ${service.name}, ${connections} connections …`);
  const itemsPerRequest = scenario.itemsPerRequest ?? 1;
  // A scenario of refused requests (expectStatus 4xx) times those answers.
  const refused = scenario.expectStatus !== undefined && scenario.expectStatus >= 300;
  // A process's first scenario warms longer: its code and heap start cold (FIRST_WARMUP_SEC).
  const warming = warmupSec > 0 && !warmedServices.has(service.name) ? Math.max(warmupSec, FIRST_WARMUP_SEC) : warmupSec;
  warmedServices.add(service.name);
  const load: LoadSpec = { ...spec, baseUrl: `http://127.0.0.1:${service.port}`, connections, durationSec, warmupSec: warming, ...(refused ? { timedStatus: scenario.expectStatus } : {}) };
  await warmUp(load);
  const cpuBefore = cpuSnapshot();
  const serverCpuBefore = processCpuMs(service.serverPid);
  const databaseCpuBefore = databaseCpuMs();
  const statementsBefore = await ctx.db.dialect.statementsSoFar(ctx.db);
  const result = await measure(load);
  const serverCpuMs = processCpuMs(service.serverPid) - serverCpuBefore;
  const databaseMs = databaseCpuMs() - databaseCpuBefore;
  // Every client's statements, the bench's own two reads of the count and the workers' polling
  // included: a few hundred over a run of thousands of requests.
  const statementsAfter = statementsBefore === null ? null : await ctx.db.dialect.statementsSoFar(ctx.db);
  const share = cpuShare(cpuBefore, cpuSnapshot(), cores);
  const baseline = scenario.baseline ? rows.find((r) => r.id === scenario.baseline) : undefined;
  const divisor = scenario.baseline ? (paired[scenario.baseline] ?? baseline) : undefined;
  const row: Row = {
    id: scenario.id,
    label: scenario.label,
    service: service.name,
    kind: scenario.kind,
    connections,
    itemsPerRequest,
    ...result,
    baseline: baseline ? baseline.service : null,
    ratio: baseline && divisor ? Math.round(((result.requestsPerSec * itemsPerRequest) / divisor.requestsPerSec) * 1000) / 1000 : null,
    rssMiB: rssMiB(service.serverPid),
    serverCpuMsPerRequest: result.requests > 0 ? Math.round((serverCpuMs / result.requests) * 1000) / 1000 : null,
    databaseCpuMsPerRequest: result.requests > 0 && databaseMs > 0 ? Math.round((databaseMs / result.requests) * 1000) / 1000 : null,
    statementsPerRequest:
      statementsBefore !== null && statementsAfter !== null && statementsAfter !== undefined && result.requests > 0
        ? Math.round(((statementsAfter - statementsBefore) / result.requests) * 100) / 100
        : null,
    otherCpuCores: share?.otherCores ?? null,
    stealCores: share?.stealCores ?? null,
    ...(Object.keys(paired).length > 0 ? { paired } : {}),
  };
  log(
    `  ${row.requestsPerSec} req/s${itemsPerRequest > 1 ? ` (${Math.round(row.requestsPerSec * itemsPerRequest)} items/s)` : ''}, p50 ${row.p50Ms} ms, p99 ${row.p99Ms} ms, RSS ${row.rssMiB} MiB` +
      `${row.ratio === null ? '' : `, ${row.ratio} × ${row.baseline}${scenario.baseline && paired[scenario.baseline] ? ` (its ${paired[scenario.baseline]!.requestsPerSec} req/s just before)` : ''}`}; ${row.serverCpuMsPerRequest} CPU ms/req; ` +
      `other processes used ${row.otherCpuCores ?? '?'} cores`,
  );
  const unexpected = scenario.expectStatus === undefined ? [] : Object.keys(result.statusCodes).filter((code) => code !== String(scenario.expectStatus));
  if (result.errors > 0 || (result.non2xx > 0 && !refused) || result.requests === 0 || unexpected.length > 0) {
    throw new Error(
      `${scenario.label}: ${result.errors} connection errors (${result.timeouts} timeouts), ${result.non2xx} non-2xx answers ` +
        `of ${result.requests}; status codes ${JSON.stringify(result.statusCodes)}. Every request must succeed` +
        `${scenario.expectStatus === undefined ? '' : ` with ${scenario.expectStatus}`}.`,
    );
  }
  return row;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`[bench] FAILED: ${(error as Error).stack ?? error}\n`);
    process.exit(1);
  },
);
