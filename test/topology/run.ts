/**
 * `npm run test:topology`: the production shape on one machine, from Debian packages, and what
 * operators need it to survive (issue 18 §1, §2). HAProxy (deploy/haproxy.cfg, as shipped) on
 * loopback in front of two API processes, worker processes, a MariaDB primary with a GTID read
 * replica of its own (test/support/private-mariadb.ts: the shared server has no binary log; the
 * APIs run with DATABASE_READ_URL) and a Redis of its own with AOF persistence (deploy/redis.conf)
 * on another port and directory under /tmp. Steps:
 *
 * 1. rolling restart under steady load (a fixed rate of mixed reads and creates, all with an
 *    Idempotency-Key): SIGTERM one API, start it again, wait until HAProxy has it UP, then the
 *    other: zero failed requests;
 * 2. SIGKILL one API under load: only requests in flight on it may fail; the load generator
 *    retries them with the same key; every debt exists exactly once;
 * 3. scale workers 1 -> 3 -> 1 while 100 subscriptions of 520 cycles generate: every cycle once;
 * 4. restart Redis (SIGKILL, then start on the same AOF) with jobs waiting: none lost, all run;
 * 5. the read replica: a client's reads right after its write go to the primary through either
 *    API (read-your-writes, shared through Redis), another client's to the replica; with the
 *    replica's SQL thread stopped both APIs skip it and every read finds the latest write.
 *
 * Prints a summary per step and exits 1 on any failure. Under CI=true a missing haproxy,
 * redis-server or mariadbd is a failure; elsewhere the script says what is missing and exits 0.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import knex, { type Knex } from 'knex';
import { openInfrastructure } from '../../cmd/shared/infrastructure';
import { buildApplication } from '../../internal/application';
import { killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { REQUIRE_SERVICES } from '../support/databases';
import { mariadbdAvailable, type MariadbPair, startMariadbPair } from '../support/private-mariadb';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { samples } from '../support/prometheus';
import { JWT_TEST_SECRET } from '../support/harness';
import { freePort, ping } from '../support/private-redis';
import { TEST_SECRETS_KEY, TEST_SECRETS_KEYS } from '../support/secrets';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

const ROOT = path.resolve(__dirname, '../..');
const HAPROXY_CFG = path.join(ROOT, 'deploy/haproxy.cfg');
const REDIS_CONF = path.join(ROOT, 'deploy/redis.conf');
/** Above HAProxy's inter x fall (500 ms x 2) plus a check in flight. */
const SHUTDOWN_DELAY_MS = 2000;
const LOAD_RATE_PER_SECOND = Number(process.env.TOPOLOGY_RATE ?? 40);
const SUBSCRIPTIONS = 100;
const CYCLES = 520;
const WAITING_SUBSCRIPTIONS = 20;
const WAITING_CYCLES = 52;
const READ_YOUR_WRITES_MS = 2000;

type Step = { name: string; ok: boolean; lines: string[] };
const steps: Step[] = [];
const cleanups: (() => Promise<void> | void)[] = [];

function log(text: string): void {
  process.stdout.write(`[topology ${new Date().toISOString().slice(11, 23)}] ${text}\n`);
}

// --------------------------------------------------------------------------------------------
// Processes

interface Api {
  name: 'api1' | 'api2';
  port: number;
  proc: Proc | null;
}

interface World {
  dir: string;
  /** The MariaDB primary and its GTID replica (the APIs' DATABASE_URL and DATABASE_READ_URL). */
  pair: MariadbPair;
  database: { url: string; readUrl: string };
  db: Knex;
  redisPort: number;
  redisUrl: string;
  redis: ChildProcess | null;
  prefix: string;
  haproxyPort: number;
  haproxySocket: string;
  haproxy: ChildProcess;
  apis: Api[];
  workers: WorkerProcess[];
  base: string;
  headers: Record<string, string>;
  /** A second client of the organization that only reads (its GETs may go to the replica). */
  readerHeaders: Record<string, string>;
  organizationId: number;
}

function commonEnv(world: Pick<World, 'database' | 'redisUrl' | 'prefix'>): Record<string, string> {
  return {
    HOST: '127.0.0.1',
    DATABASE_URL: world.database.url,
    REDIS_URL: world.redisUrl,
    QUEUE_PREFIX: world.prefix,
    JWT_SECRET: JWT_TEST_SECRET,
    SECRETS_KEY: TEST_SECRETS_KEY,
    LOG_LEVEL: 'info',
    APP_ENV: 'development',
  };
}

async function startApi(world: World, api: Api): Promise<void> {
  api.proc = startProcess('cmd/api/main.ts', {
    ...commonEnv(world),
    PORT: String(api.port),
    MIGRATE_ON_START: 'false',
    TRUST_PROXY_HOPS: '1',
    SHUTDOWN_DELAY_MS: String(SHUTDOWN_DELAY_MS),
    DATABASE_READ_URL: world.database.readUrl,
    READ_YOUR_WRITES_MS: String(READ_YOUR_WRITES_MS),
    REPLICA_MAX_LAG_SECONDS: '5',
    // The load is one API key at a fixed rate well under it; the bucket stays the production one.
    RATE_LIMIT_CAPACITY: '1000',
    RATE_LIMIT_REFILL_PER_SECOND: '500',
  });
  const proc = api.proc;
  cleanups.push(() => killIfAlive(proc));
  await waitFor(() => proc.logs().find((l) => String(l.msg).startsWith('listening on')), `${api.name} listening`, { proc, timeoutMs: 60_000 });
}

/** SIGTERM and wait for the exit; returns its code and how long the stop took. */
async function stopApi(api: Api): Promise<{ code: number | null; ms: number }> {
  const proc = api.proc!;
  const started = Date.now();
  proc.child.kill('SIGTERM');
  const code = await proc.exited;
  return { code, ms: Date.now() - started };
}

async function startWorker(world: World, env: Record<string, string> = {}): Promise<WorkerProcess> {
  const worker = await startWorkerProcess({ ...commonEnv(world), WORKER_CONCURRENCY: '1', ...env });
  world.workers.push(worker);
  cleanups.push(() => worker.crash());
  return worker;
}

function startRedis(world: World): Promise<void> {
  const child = spawn('redis-server', [REDIS_CONF, '--port', String(world.redisPort), '--bind', '127.0.0.1', '--dir', path.join(world.dir, 'redis'), '--daemonize', 'no', '--save', ''], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  world.redis = child;
  cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
  return waitFor(() => ping(world.redisUrl), `redis-server on ${world.redisPort}`, { timeoutMs: 15_000 }).then(
    () => undefined,
    (error: Error) => Promise.reject(new Error(`${error.message}\n${output}`)),
  );
}

function startHaproxy(world: Omit<World, 'haproxy'>, statsPort: number): ChildProcess {
  const child = spawn('haproxy', ['-db', '-f', HAPROXY_CFG], {
    env: {
      ...process.env,
      HAPROXY_BIND: `127.0.0.1:${world.haproxyPort}`,
      HAPROXY_STATS_BIND: `127.0.0.1:${statsPort}`,
      HAPROXY_STATS_SOCKET: world.haproxySocket,
      API1_ADDR: `127.0.0.1:${world.apis[0]!.port}`,
      API2_ADDR: `127.0.0.1:${world.apis[1]!.port}`,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
  (child as ChildProcess & { output?: () => string }).output = () => output;
  cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
  return child;
}

interface ServerStat {
  status: string;
  /** Connections open to the server now (one per request: option http-server-close). */
  current: number;
  retries: number;
  redispatches: number;
}

/** `show stat` over HAProxy's admin socket: status of each server of backend api (UP, DOWN, ...). */
function haproxyServers(socket: string): Promise<Record<string, ServerStat>> {
  return new Promise((resolve, reject) => {
    const conn = net.connect(socket);
    let text = '';
    conn.on('data', (c: Buffer) => (text += c.toString()));
    conn.on('error', reject);
    conn.on('end', () => {
      const [header, ...rows] = text.trim().split('\n');
      const columns = header!.replace(/^# /, '').split(',');
      const at = (name: string) => columns.indexOf(name);
      const servers: Record<string, ServerStat> = {};
      for (const row of rows) {
        const f = row.split(',');
        if (f[at('pxname')] === 'api' && f[at('svname')] !== 'BACKEND' && f[at('svname')] !== 'FRONTEND') {
          servers[f[at('svname')]!] = { status: f[at('status')]!, current: Number(f[at('scur')] || 0), retries: Number(f[at('wretr')] || 0), redispatches: Number(f[at('wredis')] || 0) };
        }
      }
      resolve(servers);
    });
    conn.write('show stat\n');
  });
}

async function waitForServers(world: World, want: Record<string, string>, timeoutMs = 30_000): Promise<void> {
  await waitFor(
    async () => {
      const servers = await haproxyServers(world.haproxySocket).catch(() => ({}) as Record<string, { status: string }>);
      return Object.entries(want).every(([name, status]) => servers[name]?.status.startsWith(status));
    },
    `HAProxy to see ${JSON.stringify(want)}`,
    { timeoutMs, everyMs: 100 },
  );
}

// --------------------------------------------------------------------------------------------
// Load

interface Outcome {
  kind: 'create' | 'read';
  key: string;
  startedAt: number;
  ms: number;
  /** Status of each attempt (0: no answer); the last is the final one. */
  attempts: number[];
  replayed: boolean;
  error?: string;
}

async function request(world: World, method: string, route: string, key: string, body?: unknown): Promise<{ status: number; replayed: boolean; text: string }> {
  try {
    const res = await fetch(`${world.base}${route}`, {
      method,
      headers: { ...world.headers, 'idempotency-key': key, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    return { status: res.status, replayed: res.headers.get('idempotent-replayed') === 'true', text };
  } catch (error) {
    return { status: 0, replayed: false, text: (error as Error).message };
  }
}

/**
 * A fixed rate of mixed requests, every one with an Idempotency-Key: half creates (POST /v2/debts,
 * the key is the debt's externalRequestId), half reads (the list, and a debt created earlier).
 * With `retry`, a request that fails is sent again with the same key (up to 5 times).
 */
function startLoad(world: World, tag: string, options: { retry: boolean }) {
  const outcomes: Outcome[] = [];
  const pending = new Set<Promise<void>>();
  const created: string[] = [];
  let n = 0;
  let stopped = false;
  const one = async () => {
    const i = n++;
    const create = i % 2 === 0;
    const key = `${tag}-${i}`;
    const outcome: Outcome = { kind: create ? 'create' : 'read', key, startedAt: Date.now(), ms: 0, attempts: [], replayed: false };
    for (let attempt = 0; attempt < (options.retry ? 5 : 1); attempt++) {
      const answer = create
        ? await request(world, 'POST', '/v2/debts', key, { externalClientId: 'topology-client', amount: 10 + (i % 7), dueDate: '2031-01-01' })
        : i % 4 === 1 || created.length === 0
          ? await request(world, 'GET', '/debts?limit=10', key)
          : await request(world, 'GET', `/debts/${created[i % created.length]}`, key);
      outcome.attempts.push(answer.status);
      outcome.replayed ||= answer.replayed;
      const ok = create ? answer.status === 201 : answer.status === 200;
      if (ok) break;
      outcome.error = `${answer.status} ${answer.text.slice(0, 200)}`;
      if (options.retry) await new Promise((r) => setTimeout(r, 200));
    }
    outcome.ms = Date.now() - outcome.startedAt;
    if (create && outcome.attempts.at(-1) === 201) created.push(key);
    outcomes.push(outcome);
  };
  const everyMs = 1000 / LOAD_RATE_PER_SECOND;
  const started = Date.now();
  const loop = (async () => {
    let sent = 0;
    while (!stopped) {
      const due = started + sent * everyMs;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      if (stopped) break;
      const p = one();
      pending.add(p);
      void p.finally(() => pending.delete(p));
      sent++;
    }
  })();
  return {
    outcomes,
    async stop() {
      stopped = true;
      await loop;
      await Promise.all([...pending]);
      return { outcomes, seconds: (Date.now() - started) / 1000 };
    },
  };
}

/** True when nothing listens on the port any more. */
function connectRefused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

function percentile(values: number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Debts of the organization by externalRequestId for the given keys: how many rows each. */
async function debtCounts(world: World, keys: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>(keys.map((k) => [k, 0]));
  for (let i = 0; i < keys.length; i += 500) {
    const rows = (await world
      .db('debts')
      .where({ organization_id: world.organizationId })
      .whereIn('external_request_id', keys.slice(i, i + 500))
      .groupBy('external_request_id')
      .select('external_request_id')
      .count({ n: '*' })) as { external_request_id: string; n: number | string }[];
    for (const row of rows) counts.set(row.external_request_id, Number(row.n));
  }
  return counts;
}

function loadLines(outcomes: Outcome[], seconds: number): string[] {
  const failedFirst = outcomes.filter((o) => o.attempts[0] !== (o.kind === 'create' ? 201 : 200));
  const failedFinal = outcomes.filter((o) => o.attempts.at(-1) !== (o.kind === 'create' ? 201 : 200));
  const statuses = (list: Outcome[]) => JSON.stringify(list.reduce<Record<string, number>>((acc, o) => ((acc[String(o.attempts[0])] = (acc[String(o.attempts[0])] ?? 0) + 1), acc), {}));
  const ms = outcomes.map((o) => o.ms);
  return [
    `requests ${outcomes.length} in ${seconds.toFixed(1)} s (${(outcomes.length / seconds).toFixed(1)}/s; creates ${outcomes.filter((o) => o.kind === 'create').length}, reads ${outcomes.filter((o) => o.kind === 'read').length})`,
    `latency p50 ${percentile(ms, 50)} ms, p99 ${percentile(ms, 99)} ms, max ${Math.max(0, ...ms)} ms`,
    `failed at the first attempt ${failedFirst.length}${failedFirst.length ? ` (statuses ${statuses(failedFirst)})` : ''}; failed after retries ${failedFinal.length}; replayed creates ${outcomes.filter((o) => o.replayed).length}`,
  ];
}

async function checkCreates(world: World, outcomes: Outcome[]): Promise<{ lines: string[]; ok: boolean }> {
  const keys = outcomes.filter((o) => o.kind === 'create').map((o) => o.key);
  const counts = await debtCounts(world, keys);
  const missing = [...counts].filter(([, n]) => n === 0).map(([k]) => k);
  const duplicated = [...counts].filter(([, n]) => n > 1).map(([k]) => k);
  return {
    ok: missing.length === 0 && duplicated.length === 0,
    lines: [`debts: ${keys.length} keys, ${[...counts.values()].reduce((a, b) => a + b, 0)} rows, missing ${missing.length}${missing.length ? ` (${missing.slice(0, 5).join(', ')})` : ''}, duplicates ${duplicated.length}`],
  };
}

// --------------------------------------------------------------------------------------------
// Steps

async function rollingRestart(world: World): Promise<Step> {
  const lines: string[] = [];
  const load = startLoad(world, 'roll', { retry: false });
  await new Promise((r) => setTimeout(r, 3000));
  for (const api of world.apis) {
    const stop = stopApi(api);
    await waitForServers(world, { [api.name]: 'DOWN' }, 10_000);
    const downAt = Date.now();
    const { code, ms } = await stop;
    lines.push(`${api.name}: SIGTERM -> exit ${code} in ${ms} ms (HAProxy had it DOWN ${ms - (Date.now() - downAt)} ms after the signal)`);
    const restartedAt = Date.now();
    await startApi(world, api);
    await waitForServers(world, { api1: 'UP', api2: 'UP' });
    lines.push(`${api.name}: started again, UP in HAProxy ${Date.now() - restartedAt} ms later`);
    await new Promise((r) => setTimeout(r, 1500));
  }
  const { outcomes, seconds } = await load.stop();
  lines.push(...loadLines(outcomes, seconds));
  const created = await checkCreates(world, outcomes);
  lines.push(...created.lines);
  const failed = outcomes.filter((o) => o.attempts.at(-1) !== (o.kind === 'create' ? 201 : 200));
  for (const f of failed.slice(0, 5)) lines.push(`  failed: ${f.kind} ${f.key} ${f.error}`);
  return { name: 'rolling restart under load', ok: failed.length === 0 && created.ok && outcomes.length > 0, lines };
}

async function killApiUnderLoad(world: World): Promise<Step> {
  const lines: string[] = [];
  const load = startLoad(world, 'kill', { retry: true });
  await new Promise((r) => setTimeout(r, 3000));
  const victim = world.apis[0]!;
  // Kill it while it holds requests (HAProxy's current connections to it), when that happens within 5 s.
  await waitFor(async () => (await haproxyServers(world.haproxySocket))[victim.name]!.current > 0, 'a request in flight on the victim', { timeoutMs: 5000, everyMs: 2 }).catch(() => undefined);
  const killAt = Date.now();
  process.kill(-victim.proc!.child.pid!, 'SIGKILL');
  await victim.proc!.exited;
  // The process is gone once its port refuses connections: until then the kernel still queues
  // connections on its listening socket, and a request HAProxy sends on one dies with it.
  await waitFor(async () => (await connectRefused(victim.port)), `${victim.name}'s port to refuse connections`, { timeoutMs: 5000, everyMs: 2 });
  const goneAt = Date.now();
  await waitForServers(world, { [victim.name]: 'DOWN' }, 10_000);
  lines.push(`${victim.name}: SIGKILL; its port refused connections ${goneAt - killAt} ms later, HAProxy had it DOWN ${Date.now() - killAt} ms later`);
  await new Promise((r) => setTimeout(r, 3000));
  await startApi(world, victim);
  await waitForServers(world, { api1: 'UP', api2: 'UP' });
  lines.push(`${victim.name}: started again and UP ${Date.now() - killAt} ms after the kill`);
  await new Promise((r) => setTimeout(r, 1000));
  const { outcomes, seconds } = await load.stop();
  lines.push(...loadLines(outcomes, seconds));
  const created = await checkCreates(world, outcomes);
  lines.push(...created.lines);
  const firstFailed = outcomes.filter((o) => o.attempts[0] !== (o.kind === 'create' ? 201 : 200));
  // Only requests already sent when the process was gone may fail (in flight on it, or queued on its socket).
  const failedAfterKill = firstFailed.filter((o) => o.startedAt > goneAt);
  const finalFailed = outcomes.filter((o) => o.attempts.at(-1) !== (o.kind === 'create' ? 201 : 200));
  const inFlight = outcomes.filter((o) => o.startedAt <= killAt && o.startedAt + o.ms >= killAt);
  lines.push(`in flight (on either API) at the kill: ${inFlight.length}; first attempts that failed: ${firstFailed.length} (${firstFailed.filter((o) => o.kind === 'create').length} creates, retried by the client with their key), all sent before the process was gone: ${failedAfterKill.length === 0 ? 'yes' : `no (${failedAfterKill.length} after)`}`);
  for (const f of [...new Set([...failedAfterKill, ...finalFailed, ...firstFailed])].slice(0, 5)) lines.push(`  failed first: ${f.kind} ${f.key} started ${f.startedAt - killAt} ms from the kill, attempts ${f.attempts.join(' > ')} (${f.error})`);
  const servers = await haproxyServers(world.haproxySocket);
  lines.push(`HAProxy retries ${Object.values(servers).reduce((a, s) => a + s.retries, 0)}, redispatches ${Object.values(servers).reduce((a, s) => a + s.redispatches, 0)} (since start)`);
  return { name: 'SIGKILL one API under load', ok: failedAfterKill.length === 0 && finalFailed.length === 0 && created.ok, lines };
}

async function createSubscriptions(world: World, tag: string, count: number, cycles: number): Promise<string[]> {
  const keys = Array.from({ length: count }, (_, i) => `${tag}-${i}`);
  const queue = [...keys];
  const worker = async () => {
    for (let key = queue.shift(); key; key = queue.shift()) {
      const body = { externalSubscriptionId: key, externalClientId: 'topology-client', amount: 10, intervalUnit: 'week', intervalCount: 1, startDate: '2031-01-06', totalCycles: cycles, productName: 'Weekly' };
      const answer = await request(world, 'POST', '/subscriptions', `sub-${key}`, body);
      if (answer.status !== 201) throw new Error(`POST /subscriptions ${key}: ${answer.status} ${answer.text.slice(0, 300)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  return keys;
}

/** Debts per subscription key (and distinct cycles). */
async function cycleCounts(world: World, keys: string[]): Promise<Map<string, { rows: number; distinct: number }>> {
  const rows = (await world
    .db('debts as d')
    .join('subscriptions as s', 's.id', 'd.subscription_id')
    .where('s.organization_id', world.organizationId)
    .whereIn('s.external_subscription_id', keys)
    .groupBy('s.external_subscription_id')
    .select('s.external_subscription_id as key')
    .count({ rows: '*' })
    .countDistinct({ distinct: 'd.external_request_id' })) as { key: string; rows: number | string; distinct: number | string }[];
  const counts = new Map(keys.map((k) => [k, { rows: 0, distinct: 0 }]));
  for (const r of rows) counts.set(r.key, { rows: Number(r.rows), distinct: Number(r.distinct) });
  return counts;
}

const generatedBy = (worker: WorkerProcess) => worker.logs().filter((l) => l.msg === 'job completed' && l.name === 'subscriptions.generate-cycles').length;

async function scaleWorkers(world: World): Promise<Step> {
  const lines: string[] = [];
  // From the two workers of the setup down to one.
  for (const extra of world.workers.splice(1)) await extra.stop();
  const [first] = world.workers;
  const started = Date.now();
  const creating = createSubscriptions(world, 'scale', SUBSCRIPTIONS, CYCLES);
  const total = SUBSCRIPTIONS * CYCLES;
  const generated = async () => Number(((await world.db('debts').where({ organization_id: world.organizationId }).whereNotNull('subscription_id').count({ n: '*' })) as { n: number | string }[])[0]!.n);
  const base = await generated();
  const progress = async () => (await generated()) - base;
  // 1 -> 3: two more start while the first one generates.
  const [second, third] = await Promise.all([startWorker(world), startWorker(world)]);
  const atThree = await progress();
  lines.push(`1 -> 3 workers after ${Date.now() - started} ms, ${atThree} of ${total} cycles generated`);
  await creating;
  lines.push(`${SUBSCRIPTIONS} subscriptions created in ${Date.now() - started} ms`);
  // 3 -> 1 half-way (SIGTERM: each finishes the job it runs, the rest stays queued for the first).
  await waitFor(async () => (await progress()) >= total / 2, 'half of the cycles', { timeoutMs: 120_000, everyMs: 100 });
  const atOne = await progress();
  await Promise.all([second!.stop(), third!.stop()]);
  world.workers.splice(1);
  lines.push(`3 -> 1 workers after ${Date.now() - started} ms, ${atOne} of ${total} cycles generated`);
  await waitFor(async () => (await progress()) >= total, 'every cycle', { timeoutMs: 180_000, everyMs: 200 });
  const seconds = (Date.now() - started) / 1000;
  // A little longer: a duplicate would come from a job run twice after the count was reached.
  await new Promise((r) => setTimeout(r, 1000));
  const keys = Array.from({ length: SUBSCRIPTIONS }, (_, i) => `scale-${i}`);
  const counts = await cycleCounts(world, keys);
  const wrong = [...counts].filter(([, c]) => c.rows !== CYCLES || c.distinct !== CYCLES);
  lines.push(`${total} cycles in ${seconds.toFixed(1)} s (${Math.round(total / seconds)}/s); generation jobs by worker: first ${generatedBy(first!)}, second ${generatedBy(second!)}, third ${generatedBy(third!)}`);
  lines.push(`subscriptions with exactly ${CYCLES} distinct cycles: ${SUBSCRIPTIONS - wrong.length} of ${SUBSCRIPTIONS}${wrong.length ? `; wrong: ${wrong.slice(0, 5).map(([k, c]) => `${k} ${c.rows}/${c.distinct}`).join(', ')}` : ''}`);
  const overlapped = generatedBy(second!) + generatedBy(third!) > 0 && atOne < total;
  if (!overlapped) lines.push('the extra workers ran no generation job while it lasted: the scaling did not overlap the generation');
  return { name: 'scale workers 1 -> 3 -> 1 during generation', ok: wrong.length === 0 && overlapped, lines };
}

async function restartRedis(world: World): Promise<Step> {
  const lines: string[] = [];
  // No worker: the jobs the next subscriptions need wait in Redis.
  for (const worker of world.workers.splice(0)) await worker.stop();
  const queue = new Queue('collections', { connection: { host: '127.0.0.1', port: world.redisPort, maxRetriesPerRequest: null }, prefix: world.prefix });
  queue.on('error', () => undefined);
  try {
    const keys = await createSubscriptions(world, 'aof', WAITING_SUBSCRIPTIONS, WAITING_CYCLES);
    // The APIs hand them over after commit (the outbox dispatcher catches any that failed).
    const waitingIds = async () => (await queue.getJobs(['wait', 'prioritized'], 0, -1)).filter((j) => j.name === 'subscriptions.generate-cycles').map((j) => j.id!).sort();
    await waitFor(async () => (await waitingIds()).length >= WAITING_SUBSCRIPTIONS, `${WAITING_SUBSCRIPTIONS} generation jobs waiting`, { timeoutMs: 30_000, everyMs: 200 });
    const before = await waitingIds();
    const counts = await queue.getJobCounts('wait', 'delayed', 'prioritized');
    lines.push(`waiting before the restart: ${before.length} generation jobs (queue: ${JSON.stringify(counts)})`);
    // Let the once-a-second fsync pass, then crash Redis: SIGKILL, no shutdown save.
    await new Promise((r) => setTimeout(r, 1200));
    const killedAt = Date.now();
    world.redis!.kill('SIGKILL');
    await new Promise((r) => world.redis!.once('exit', r));
    await startRedis(world);
    lines.push(`redis-server SIGKILLed and started again on its AOF: answering ${Date.now() - killedAt} ms later`);
    const after = await waitFor(async () => (await waitingIds().catch(() => null)) ?? null, 'the queue after the restart', { timeoutMs: 15_000 });
    const lost = before.filter((id) => !after.includes(id));
    lines.push(`waiting after the restart: ${after.length} generation jobs, lost ${lost.length}`);
    // A worker runs them: every cycle of every subscription once.
    await startWorker(world, { WORKER_CONCURRENCY: '4' });
    await waitForServers(world, { api1: 'UP', api2: 'UP' });
    await waitFor(async () => [...(await cycleCounts(world, keys)).values()].every((c) => c.rows >= WAITING_CYCLES), 'the waiting subscriptions generated', { timeoutMs: 60_000, everyMs: 200 });
    const cycles = await cycleCounts(world, keys);
    const wrong = [...cycles].filter(([, c]) => c.rows !== WAITING_CYCLES || c.distinct !== WAITING_CYCLES);
    lines.push(`after a worker started: ${WAITING_SUBSCRIPTIONS - wrong.length} of ${WAITING_SUBSCRIPTIONS} subscriptions with exactly ${WAITING_CYCLES} cycles; APIs UP again in HAProxy`);
    return { name: 'restart Redis (AOF) with jobs waiting', ok: lost.length === 0 && wrong.length === 0 && before.length >= WAITING_SUBSCRIPTIONS, lines };
  } finally {
    await queue.close().catch(() => undefined);
  }
}


/** cf_db_reads_total and cf_db_replica_in_use of both APIs (their own /metrics, not through HAProxy). */
async function replicaReadings(world: World): Promise<{ replicaReads: number; primaryReads: number; inUse: number[] }> {
  let replicaReads = 0;
  let primaryReads = 0;
  const inUse: number[] = [];
  for (const api of world.apis) {
    const text = await (await fetch(`http://127.0.0.1:${api.port}/metrics`)).text();
    replicaReads += samples(text, 'cf_db_reads_total', { target: 'replica' })[0]?.value ?? 0;
    primaryReads += samples(text, 'cf_db_reads_total', { target: 'primary' })[0]?.value ?? 0;
    inUse.push(samples(text, 'cf_db_replica_in_use')[0]?.value ?? -1);
  }
  return { replicaReads, primaryReads, inUse };
}

async function readReplica(world: World): Promise<Step> {
  const lines: string[] = [];
  const problems: string[] = [];
  const as = (headers: Record<string, string>) => ({
    post: (key: string) => fetch(`${world.base}/v2/debts`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json', 'idempotency-key': key }, body: JSON.stringify({ externalClientId: 'topology-client', amount: 12, dueDate: '2031-01-01' }) }),
    get: (key: string) => fetch(`${world.base}/debts/${key}`, { headers }),
  });
  const writer = as(world.headers);
  const reader = as(world.readerHeaders);
  const check = (what: string, ok: boolean) => {
    lines.push(`${ok ? 'ok' : 'FAILED'}: ${what}`);
    if (!ok) problems.push(what);
  };
  await waitFor(async () => (await replicaReadings(world)).inUse.every((v) => v === 1), 'both APIs using the replica', { timeoutMs: 15_000 });
  // The writer's next reads, whichever API HAProxy picks, go to the primary (the window is in Redis).
  const base = await replicaReadings(world);
  check('a create answers 201', (await writer.post('replica-1')).status === 201);
  const afterWrite = await Promise.all([1, 2, 3, 4].map(() => writer.get('replica-1')));
  const mid = await replicaReadings(world);
  check(`the writer reads its debt at once through either API, from the primary (${afterWrite.map((r) => r.status).join(', ')}; replica reads +${mid.replicaReads - base.replicaReads})`, afterWrite.every((r) => r.status === 200) && mid.replicaReads === base.replicaReads);
  await waitFor(async () => (await reader.get('replica-1')).status === 200, 'the reader to see it', { timeoutMs: 5000, everyMs: 50 });
  const readerSaw = await replicaReadings(world);
  check(`the other client's reads go to the replica (replica reads +${readerSaw.replicaReads - mid.replicaReads})`, readerSaw.replicaReads > mid.replicaReads);

  // Replication stopped: both APIs skip the replica, every read is answered by the primary.
  await world.pair.replica('STOP SLAVE SQL_THREAD');
  const stoppedAt = Date.now();
  await waitFor(async () => (await replicaReadings(world)).inUse.every((v) => v === 0), 'both APIs to skip the replica', { timeoutMs: 10_000, everyMs: 100 });
  lines.push(`STOP SLAVE SQL_THREAD: both APIs skipped the replica ${Date.now() - stoppedAt} ms later (log: ${world.apis.map((a) => a.proc!.logs().filter((l) => l.msg === 'read replica skipped: every read goes to the primary').length).join(' and ')} skip lines)`);
  check('a create answers 201 while the replica is stopped', (await writer.post('replica-2')).status === 201);
  const beforeReads = await replicaReadings(world);
  const stale = await Promise.all([1, 2, 3, 4].map(() => reader.get('replica-2')));
  const afterReads = await replicaReadings(world);
  check(`the other client finds it at once, from the primary (${stale.map((r) => r.status).join(', ')}; replica reads +${afterReads.replicaReads - beforeReads.replicaReads})`, stale.every((r) => r.status === 200) && afterReads.replicaReads === beforeReads.replicaReads);
  const [rows] = (await world.pair.replica('SELECT COUNT(*) AS n FROM collections.debts')) as [{ n: number }[]];
  const [primaryRows] = (await world.pair.primary('SELECT COUNT(*) AS n FROM collections.debts')) as [{ n: number }[]];
  await world.pair.replica('START SLAVE SQL_THREAD');
  await waitFor(async () => (await replicaReadings(world)).inUse.every((v) => v === 1), 'both APIs using the replica again', { timeoutMs: 15_000, everyMs: 100 });
  lines.push(`START SLAVE SQL_THREAD: both APIs use the replica again`);
  await waitFor(async () => Number(((await world.pair.replica('SELECT COUNT(*) AS n FROM collections.debts')) as [{ n: number }[]])[0][0]!.n) === Number(primaryRows[0]!.n), 'the replica to catch up', { timeoutMs: 30_000, everyMs: 200 });
  lines.push(`replica caught up: ${primaryRows[0]!.n} debts on both (it had ${rows[0]!.n} while its SQL thread was stopped)`);
  return { name: 'read replica (GTID) behind the APIs', ok: problems.length === 0, lines };
}

// --------------------------------------------------------------------------------------------

function available(command: string, args: string[]): boolean {
  return spawnSync(command, args).status === 0;
}

async function setUp(): Promise<World> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-topology-'));
  fs.mkdirSync(path.join(dir, 'redis'));
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  // A primary and a GTID replica of our own (the shared server has no binary log to replicate).
  const pair = await startMariadbPair({ bufferPoolMb: 256 });
  cleanups.push(() => pair.stop());
  await pair.primary('CREATE DATABASE collections CHARACTER SET utf8mb4 COLLATE utf8mb4_bin');
  await pair.primary("CREATE USER 'app'@'%' IDENTIFIED BY 'app'");
  await pair.primary("GRANT ALL ON collections.* TO 'app'@'%'");
  await pair.primary("GRANT SLAVE MONITOR ON *.* TO 'app'@'%'");
  const database = { url: `mysql://app:app@127.0.0.1:${pair.primaryPort}/collections`, readUrl: `mysql://app:app@127.0.0.1:${pair.replicaPort}/collections` };
  const migrator = openKnex(database.url);
  await migrateLatest(migrator).finally(() => migrator.destroy());
  const [redisPort, haproxyPort, statsPort, port1, port2] = await Promise.all([freePort(), freePort(), freePort(), freePort(), freePort()]);
  const partial = {
    dir,
    pair,
    database,
    db: knex({ client: 'mysql2', connection: { uri: database.url } as never, pool: { min: 0, max: 4 } }),
    redisPort: redisPort!,
    redisUrl: `redis://127.0.0.1:${redisPort}`,
    redis: null,
    prefix: `topo-${crypto.randomBytes(3).toString('hex')}`,
    haproxyPort: haproxyPort!,
    haproxySocket: path.join(dir, 'haproxy.sock'),
    apis: [
      { name: 'api1', port: port1!, proc: null },
      { name: 'api2', port: port2!, proc: null },
    ] as Api[],
    workers: [],
    base: `http://127.0.0.1:${haproxyPort}`,
    headers: {},
    readerHeaders: {},
    organizationId: 0,
  };
  const world = partial as unknown as World;
  cleanups.push(() => world.db.destroy());
  await startRedis(world);
  const probe = new Redis(world.redisUrl);
  const aof = ((await probe.config('GET', 'appendonly').finally(() => probe.disconnect())) as string[])[1];
  if (aof !== 'yes') throw new Error('deploy/redis.conf did not turn appendonly on');

  // The tenant, before any API starts (an empty database would get the demo tenant).
  const infra = await openInfrastructure({ databaseUrl: database.url, redisUrl: null, queuePrefix: world.prefix, jwtSecret: JWT_TEST_SECRET, secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000' });
  const password = `pw-${crypto.randomBytes(6).toString('hex')}`;
  const application = buildApplication(infra.ports);
  const client = await application.commands.createClient.execute({ organization: `Topology ${world.prefix}`, username: `topo_${world.prefix.slice(5)}`, password, companies: [], settings: {} });
  const reader = await application.commands.createClient.execute({ organization: `Topology ${world.prefix}`, username: `topo_reader_${world.prefix.slice(5)}`, password, companies: [], settings: {} });
  await infra.close();
  world.organizationId = client.organizationId;

  await Promise.all(world.apis.map((api) => startApi(world, api)));
  world.haproxy = startHaproxy(world, statsPort!);
  await waitForServers(world, { api1: 'UP', api2: 'UP' });
  await Promise.all([startWorker(world), startWorker(world)]);

  const login = await fetch(`${world.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': client.loginApiKey }, body: JSON.stringify({ clientUsername: client.clientUsername, password }) });
  if (login.status !== 200) throw new Error(`login through HAProxy: ${login.status} ${await login.text()}`);
  const { accessToken } = (await login.json()) as { accessToken: string };
  world.headers = { 'x-api-key': client.apiKey, 'x-authorization-token': accessToken };
  const readerLogin = await fetch(`${world.base}/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': reader.loginApiKey }, body: JSON.stringify({ clientUsername: reader.clientUsername, password }) });
  if (readerLogin.status !== 200) throw new Error(`reader login through HAProxy: ${readerLogin.status} ${await readerLogin.text()}`);
  world.readerHeaders = { 'x-api-key': reader.apiKey, 'x-authorization-token': ((await readerLogin.json()) as { accessToken: string }).accessToken };
  const contact = await fetch(`${world.base}/contacts`, { method: 'POST', headers: { ...world.headers, 'content-type': 'application/json' }, body: JSON.stringify({ externalClientId: 'topology-client', name: 'Topology Client', email: 'topology@example.com' }) });
  if (contact.status !== 201) throw new Error(`POST /contacts: ${contact.status} ${await contact.text()}`);
  log(`set up: HAProxy :${world.haproxyPort} -> api1 :${world.apis[0]!.port}, api2 :${world.apis[1]!.port}; 2 workers; Redis :${world.redisPort} (AOF, ${path.join(dir, 'redis')}); MariaDB primary :${pair.primaryPort} + GTID replica :${pair.replicaPort}`);
  return world;
}

async function main(): Promise<number> {
  const missing = [['haproxy', ['-v']], ['redis-server', ['--version']]].filter(([cmd, args]) => !available(cmd as string, args as string[])).map(([cmd]) => cmd);
  if (!mariadbdAvailable()) missing.push('mariadbd and mariadb-install-db (mariadb-server)');
  if (missing.length > 0) {
    const text = `missing: ${missing.join(', ')} (apt-get install haproxy redis-server mariadb-server; .ci/run installs them)`;
    if (REQUIRE_SERVICES) throw new Error(`CI=true and ${text}`);
    log(`skipped: ${text}`);
    return 0;
  }
  const started = Date.now();
  const world = await setUp();
  for (const run of [rollingRestart, killApiUnderLoad, scaleWorkers, restartRedis, readReplica]) {
    const stepStarted = Date.now();
    let step: Step;
    try {
      step = await run(world);
    } catch (error) {
      step = { name: run.name, ok: false, lines: [`threw: ${(error as Error).stack ?? error}`] };
    }
    step.lines.push(`step took ${((Date.now() - stepStarted) / 1000).toFixed(1)} s`);
    steps.push(step);
    log(`${step.ok ? 'PASS' : 'FAIL'} ${step.name}\n${step.lines.map((l) => `    ${l}`).join('\n')}`);
  }
  const failed = steps.filter((s) => !s.ok);
  log(`${steps.length - failed.length} of ${steps.length} steps passed in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  if (failed.length > 0) {
    const output = (world.haproxy as ChildProcess & { output?: () => string }).output?.() ?? '';
    log(`HAProxy log (last lines):\n${output.split('\n').slice(-20).join('\n')}`);
  }
  return failed.length === 0 ? 0 : 1;
}

main()
  .catch((error) => {
    log(`failed: ${(error as Error).stack ?? error}`);
    return 1;
  })
  .then(async (code) => {
    for (const cleanup of cleanups.reverse()) {
      try {
        await cleanup();
      } catch {
        // best effort
      }
    }
    process.exit(code);
  });
