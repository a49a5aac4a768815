import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { QUEUE_NAME } from '../../adapters/queue/bullmq/queue-names';
import { type BenchConnection, benchDialect } from './environment';
import { round } from './load';
import { cpuSnapshot, databaseCpuMs, type MachineCores, machineCores, processCpuMs } from './cpu';
import { afterFullGc, type ProcessMemory } from './memory';
import { rssMiB, type Service } from './processes';

/**
 * Subscription cycle generation (issue 5): the API answers 201 at once and a worker process
 * writes the debts of every cycle asynchronously. Measured from outside, as a client sees it:
 * the time from the 201 until every cycle's debt is stored, polling the database on a
 * dedicated connection every `pollMs`. A single run counts its subscription's debts; a bulk run
 * counts the subscription.cycles_generated events (written in the transaction of each
 * subscription's last chunk) and checks every debt once at the end: counting the debts of 100
 * subscriptions 50 times a second read up to 52,000 index entries per poll, MariaDB CPU the
 * generation was then charged with.
 */
export interface GenerationRun {
  /** POST /subscriptions: request sent → 201 received. */
  createMs: number;
  /** 201 → the first debt of the subscription seen (queue hand-over and job start). */
  firstDebtMs: number;
  /** 201 → all cycles' debts seen. */
  allDebtsMs: number;
}

export interface BulkRun {
  workers: number;
  subscriptions: number;
  concurrency: number;
  debts: number;
  /** First POST sent → last 201 received. */
  createSeconds: number;
  /** First POST sent → every debt of every subscription stored. */
  totalSeconds: number;
  /** Last 201 → every debt stored. */
  afterLastCreateSeconds: number;
  debtsPerSecond: number;
  /** CPU (user + system) the worker processes spent during the run, per 1,000 debts. */
  workerCpuMsPer1000Debts: number | null;
  /** CPU the API process spent (the POST /subscriptions), per 1,000 debts. */
  apiCpuMsPer1000Debts: number | null;
  /** CPU the database server spent, per 1,000 debts. */
  databaseCpuMsPer1000Debts: number | null;
  /** RSS of each worker process right after the run (worker 1 first). */
  workerMemory: ProcessMemory[];
  /** The whole machine during the run (/proc/stat): how much was left idle. Absent in runs before 2026-11-27 evening. */
  machine?: MachineCores | null;
}

export interface GenerationReport {
  cycles: number;
  pollMs: number;
  single: GenerationRun[];
  singleMinMs: number;
  singleMedianMs: number;
  bulk: BulkRun[];
  /** Startup jobs of the worker (scheduled on start) that ran before the measurement. */
  startupJobsSeconds: number;
  /** The floor generation is held to: the same chunks inserted straight into the debts table. */
  baseline: InsertBaseline | null;
}

/**
 * One process (this one, on one connection: mysql2 or node-postgres) inserting the debts of the bulk run again,
 * straight into the debts table with all its indexes: the same rows, the same chunk size (one
 * multi-row INSERT and one commit per subscription's cycles), with no API, queue or worker.
 */
export interface InsertBaseline {
  debts: number;
  chunkRows: number;
  seconds: number;
  debtsPerSecond: number;
  /** CPU of the inserting process (the driver and the row building) per 1,000 debts. */
  clientCpuMsPer1000Debts: number;
  databaseCpuMsPer1000Debts: number | null;
  /**
   * The same, each subscription's debts and their debt.created events (the rows generation wrote,
   * payloads included) in one transaction: the database's part of what generation must write, with
   * no rendering, reading or queue.
   */
  withEvents: { seconds: number; debtsPerSecond: number; clientCpuMsPer1000Debts: number; databaseCpuMsPer1000Debts: number | null } | null;
}

export interface GenerationDeps {
  apiUrl: string;
  headers: Record<string, string>;
  databaseUrl: string;
  redisUrl: string;
  queuePrefix: string;
  companyCode: string;
  runTag: string;
  log: (message: string) => void;
  /** Starts one more worker process (cmd/worker/main.ts with the API's environment). */
  startWorker: (index: number) => Promise<Service>;
  /** The API process, whose CPU a bulk run counts too. */
  apiPid: number;
}

export interface GenerationPlan {
  cycles: number;
  singleRuns: number;
  bulkSubscriptions: number;
  bulkConcurrency: number;
  /** Worker counts of the bulk runs, in order (a worker is added between runs); repeat the last to watch the workers' memory. */
  bulkWorkers: number[];
}

const SINGLE_POLL_MS = 10;
const TIMEOUT_MS = 180_000;

export async function measureGeneration(deps: GenerationDeps, plan: GenerationPlan): Promise<GenerationReport> {
  const dialect = benchDialect(deps.databaseUrl);
  const conn = await dialect.connect(deps.databaseUrl);
  const redis = new Redis(deps.redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: deps.queuePrefix });
  try {
    for (const statement of dialect.sessionSetup) await conn.query(statement);
    const companies = await conn.query<{ id: number; organization_id: number }>('SELECT id, organization_id FROM companies WHERE code = ?', [deps.companyCode]);
    const organizationId = Number(companies[0]?.organization_id);
    const companyId = Number(companies[0]?.id);
    if (!Number.isFinite(organizationId)) throw new Error(`no company ${deps.companyCode}`);

    const workers: Service[] = [await deps.startWorker(1)];
    const t0 = performance.now();
    await waitForStartupJobs(workers[0]!, queue);
    const startupJobsSeconds = round((performance.now() - t0) / 1000, 1);
    deps.log(`  worker 1 pid ${workers[0]!.serverPid} ready; its startup jobs (scheduled on start) done in ${startupJobsSeconds} s`);

    const poller = new DebtPoller(conn, organizationId, companyId);
    const single: GenerationRun[] = [];
    for (let i = 1; i <= plan.singleRuns; i++) {
      const externalSubscriptionId = `${deps.runTag}-gen-${i}`;
      const sent = performance.now();
      const created = await createSubscription(deps, externalSubscriptionId, plan.cycles);
      const answered = performance.now();
      const seen = await poller.waitFor([externalSubscriptionId], plan.cycles, SINGLE_POLL_MS, () => null);
      await checkThroughApi(deps, created.subscriptionId, plan.cycles);
      const run: GenerationRun = {
        createMs: round(answered - sent, 1),
        firstDebtMs: round((seen.firstAt ?? seen.doneAt) - answered, 1),
        allDebtsMs: round(seen.doneAt - answered, 1),
      };
      single.push(run);
      deps.log(`  ${plan.cycles} cycles #${i}: 201 in ${run.createMs} ms; first debt ${run.firstDebtMs} ms, all ${plan.cycles} ${run.allDebtsMs} ms after the 201`);
    }
    const sorted = single.map((r) => r.allDebtsMs).sort((a, b) => a - b);

    const bulk: BulkRun[] = [];
    for (const count of plan.bulkWorkers) {
      while (workers.length < count) {
        const worker = await deps.startWorker(workers.length + 1);
        workers.push(worker);
        await waitForIdleQueue(queue);
        deps.log(`  worker ${workers.length} pid ${worker.serverPid} ready`);
      }
      const run = await bulkRun(deps, poller, plan, workers, bulk.length + 1);
      bulk.push(run);
      deps.log(
        `  ${run.subscriptions} × ${plan.cycles} cycles, ${run.workers} worker(s): ${run.debts} debts in ${run.totalSeconds} s from the first POST ` +
          `(creates took ${run.createSeconds} s; ${run.afterLastCreateSeconds} s after the last 201), ${run.debtsPerSecond} debts/s`,
      );
    }
    const baseline = bulk.length > 0 ? await insertBaseline(conn, organizationId, `${deps.runTag}-bulk1-`, plan) : null;
    if (baseline) {
      deps.log(
        `  straight INSERT baseline: ${baseline.debts} debts in chunks of ${baseline.chunkRows}, ${baseline.debtsPerSecond} debts/s ` +
          `(client ${baseline.clientCpuMsPer1000Debts} ms, database server ${baseline.databaseCpuMsPer1000Debts ?? '?'} ms CPU per 1,000 debts)`,
      );
      const e = baseline.withEvents;
      if (e) deps.log(`  with their debt.created events: ${e.debtsPerSecond} debts/s (client ${e.clientCpuMsPer1000Debts} ms, database server ${e.databaseCpuMsPer1000Debts ?? '?'} ms CPU per 1,000 debts)`);
    }
    return {
      baseline,
      cycles: plan.cycles,
      pollMs: SINGLE_POLL_MS,
      single,
      singleMinMs: sorted[0] ?? NaN,
      singleMedianMs: sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN,
      bulk,
      startupJobsSeconds,
    };
  } finally {
    await queue.close().catch(() => undefined);
    redis.disconnect();
    await conn.end().catch(() => undefined);
  }
}

async function bulkRun(deps: GenerationDeps, poller: DebtPoller, plan: GenerationPlan, workers: Service[], run: number): Promise<BulkRun> {
  const ids = Array.from({ length: plan.bulkSubscriptions }, (_, i) => `${deps.runTag}-bulk${run}-${i + 1}`);
  const cpuBefore = workers.reduce((sum, w) => sum + processCpuMs(w.serverPid), 0);
  const apiCpuBefore = processCpuMs(deps.apiPid);
  const afterEventId = await poller.lastEventId();
  const databaseCpuBefore = databaseCpuMs();
  const machineBefore = cpuSnapshot();
  let failure: Error | null = null;
  let next = 0;
  const started = performance.now();
  const creating = Promise.all(
    Array.from({ length: plan.bulkConcurrency }, async () => {
      while (next < ids.length && !failure) {
        const id = ids[next++]!;
        await createSubscription(deps, id, plan.cycles).catch((error: Error) => {
          failure ??= error;
        });
      }
    }),
  ).then(() => performance.now());
  const seen = poller.waitForGenerated(afterEventId, ids.length, 20, () => failure);
  const createdAt = await creating;
  if (failure) throw failure;
  const { doneAt } = await seen;
  const workerCpuMs = workers.reduce((sum, w) => sum + processCpuMs(w.serverPid), 0) - cpuBefore;
  const apiCpuMs = processCpuMs(deps.apiPid) - apiCpuBefore;
  const databaseMs = databaseCpuMs() - databaseCpuBefore;
  const machine = machineCores(machineBefore, cpuSnapshot(), os.cpus().length);
  const debts = plan.bulkSubscriptions * plan.cycles;
  const stored = await poller.total(ids);
  if (stored !== debts) throw new Error(`bulk generation stored ${stored} debts, expected ${debts}`);
  const totalSeconds = (doneAt - started) / 1000;
  return {
    workers: workers.length,
    subscriptions: plan.bulkSubscriptions,
    concurrency: plan.bulkConcurrency,
    debts,
    createSeconds: round((createdAt - started) / 1000, 2),
    totalSeconds: round(totalSeconds, 2),
    afterLastCreateSeconds: round((doneAt - createdAt) / 1000, 2),
    debtsPerSecond: Math.round(debts / totalSeconds),
    workerCpuMsPer1000Debts: workerCpuMs > 0 ? round((workerCpuMs / debts) * 1000, 1) : null,
    apiCpuMsPer1000Debts: apiCpuMs > 0 ? round((apiCpuMs / debts) * 1000, 1) : null,
    databaseCpuMsPer1000Debts: databaseMs > 0 ? round((databaseMs / debts) * 1000, 1) : null,
    workerMemory: await Promise.all(workers.map((w) => afterFullGc(w.serverPid, rssMiB))),
    machine,
  };
}

/**
 * The straight-INSERT baseline (InsertBaseline): the debts the first bulk run generated are read
 * back per subscription and written again under new keys (`external_request_id` with a suffix,
 * no subscription), one multi-row INSERT per subscription's cycles, each its own transaction,
 * then deleted again.
 */
async function insertBaseline(conn: BenchConnection, organizationId: number, subscriptionPrefix: string, plan: GenerationPlan): Promise<InsertBaseline> {
  const subscriptions = await conn.query<{ id: number }>(
    'SELECT id FROM subscriptions WHERE organization_id = ? AND external_subscription_id LIKE ? ORDER BY id LIMIT ?',
    [organizationId, `${subscriptionPrefix}%`, plan.bulkSubscriptions],
  );
  const chunks: { debts: unknown[][]; events: unknown[][] }[] = [];
  let columns: string[] = [];
  let eventColumns: string[] = [];
  for (const { id } of subscriptions) {
    const rows = await conn.query<Record<string, unknown>>('SELECT * FROM debts WHERE subscription_id = ? ORDER BY id', [id]);
    columns = Object.keys(rows[0] ?? {}).filter((c) => c !== 'id');
    const companyId = rows[0]?.company_id;
    // Their debt.created events, resource_id debt_<externalRequestId> (read in slices, within every server's parameter limit).
    const events: Record<string, unknown>[] = [];
    for (let i = 0; i < rows.length; i += 500) {
      const ids = rows.slice(i, i + 500).map((row) => `debt_${String(row.external_request_id)}`);
      events.push(
        ...(await conn.query<Record<string, unknown>>(
          `SELECT * FROM events WHERE company_id = ? AND type = 'debt.created' AND resource_id IN (${ids.map(() => '?').join(', ')}) ORDER BY id`,
          [companyId, ...ids],
        )),
      );
    }
    eventColumns = Object.keys(events[0] ?? {}).filter((c) => c !== 'id');
    const renamed = (c: string, value: unknown) => (c === 'event_id' || c === 'resource_id' ? `${String(value)}-base` : value);
    chunks.push({
      debts: rows.map((row) => columns.map((c) => (c === 'external_request_id' ? `${row[c]}-base` : c === 'subscription_id' ? null : row[c]))),
      events: events.map((event) => eventColumns.map((c) => renamed(c, event[c]))),
    });
  }
  const debts = chunks.reduce((n, chunk) => n + chunk.debts.length, 0);
  const pass = async (withEvents: boolean) => {
    const cpuBefore = process.cpuUsage();
    const databaseCpuBefore = databaseCpuMs();
    const started = performance.now();
    for (const chunk of chunks) {
      await conn.query('BEGIN');
      await conn.insertRows('debts', columns, chunk.debts);
      if (withEvents) await conn.insertRows('events', eventColumns, chunk.events);
      await conn.query('COMMIT');
    }
    const seconds = (performance.now() - started) / 1000;
    const cpu = process.cpuUsage(cpuBefore);
    const databaseMs = databaseCpuMs() - databaseCpuBefore;
    await conn.query("DELETE FROM debts WHERE organization_id = ? AND subscription_id IS NULL AND external_request_id LIKE '%-base'", [organizationId]);
    if (withEvents) await conn.query("DELETE FROM events WHERE organization_id = ? AND type = 'debt.created' AND event_id LIKE '%-base'", [organizationId]);
    return {
      seconds: round(seconds, 2),
      debtsPerSecond: Math.round(debts / seconds),
      clientCpuMsPer1000Debts: round(((cpu.user + cpu.system) / 1000 / debts) * 1000, 1),
      databaseCpuMsPer1000Debts: databaseMs > 0 ? round((databaseMs / debts) * 1000, 1) : null,
    };
  };
  const debtsOnly = await pass(false);
  const eventsFound = chunks.reduce((n, chunk) => n + chunk.events.length, 0);
  return {
    debts,
    chunkRows: chunks[0]?.debts.length ?? 0,
    ...debtsOnly,
    withEvents: eventsFound === debts ? await pass(true) : null,
  };
}

/** Counts the stored debts of subscriptions (by externalSubscriptionId) until each has `expected`. */
class DebtPoller {
  constructor(
    private readonly conn: BenchConnection,
    private readonly organizationId: number,
    private readonly companyId: number,
  ) {}

  async lastEventId(): Promise<number> {
    const rows = await this.conn.query<{ id: number | string | null }>('SELECT MAX(id) AS id FROM events WHERE company_id = ?', [this.companyId]);
    return Number(rows[0]?.id ?? 0);
  }

  /** Polls every `pollMs` until `subscriptions` subscription.cycles_generated events follow `afterEventId`. */
  async waitForGenerated(afterEventId: number, subscriptions: number, pollMs: number, failed: () => Error | null): Promise<{ doneAt: number }> {
    const deadline = performance.now() + TIMEOUT_MS;
    for (;;) {
      const error = failed();
      if (error) throw error;
      const rows = await this.conn.query<{ n: number | string }>(
        "SELECT COUNT(*) AS n FROM events WHERE company_id = ? AND type = 'subscription.cycles_generated' AND id > ?",
        [this.companyId, afterEventId],
      );
      const now = performance.now();
      const n = Number(rows[0]?.n ?? 0);
      if (n >= subscriptions) return { doneAt: now };
      if (now > deadline) throw new Error(`${subscriptions - n} subscription(s) still not generated after ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }

  async counts(ids: string[]): Promise<Map<string, number>> {
    if (ids.length === 0) return new Map();
    const rows = await this.conn.query<{ id: string; n: number | string }>(
      `SELECT s.external_subscription_id AS id, COUNT(d.id) AS n FROM subscriptions s JOIN debts d ON d.subscription_id = s.id
        WHERE s.organization_id = ? AND s.external_subscription_id IN (${ids.map(() => '?').join(', ')}) GROUP BY s.external_subscription_id`,
      [this.organizationId, ...ids],
    );
    return new Map(rows.map((r) => [String(r.id), Number(r.n)]));
  }

  async total(ids: string[]): Promise<number> {
    return [...(await this.counts(ids)).values()].reduce((a, b) => a + b, 0);
  }

  /** Polls every `pollMs` (done subscriptions leave the query); `failed` aborts the wait. */
  async waitFor(ids: string[], expected: number, pollMs: number, failed: () => Error | null): Promise<{ firstAt: number | null; doneAt: number }> {
    const pending = new Set(ids);
    let firstAt: number | null = null;
    const deadline = performance.now() + TIMEOUT_MS;
    for (;;) {
      const error = failed();
      if (error) throw error;
      const counts = await this.counts([...pending]);
      const now = performance.now();
      for (const [id, n] of counts) {
        if (n > 0 && firstAt === null) firstAt = now;
        if (n > expected) throw new Error(`${id} has ${n} debts, more than its ${expected} cycles`);
        if (n === expected) pending.delete(id);
      }
      if (pending.size === 0) return { firstAt, doneAt: now };
      if (now > deadline) throw new Error(`${pending.size} subscription(s) still without all ${expected} debts after ${TIMEOUT_MS / 1000} s`);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }
  }
}

async function createSubscription(deps: GenerationDeps, externalSubscriptionId: string, cycles: number): Promise<{ subscriptionId: string }> {
  const response = await fetch(`${deps.apiUrl}/subscriptions`, {
    method: 'POST',
    headers: { ...deps.headers, 'content-type': 'application/json' },
    body: JSON.stringify({
      externalSubscriptionId,
      contactData: {
        externalClientId: `${externalSubscriptionId}-client`,
        name: 'Bench Subscriber',
        email: `${externalSubscriptionId}@example.com`,
      },
      productName: `Bench plan ${deps.runTag}`,
      amount: 499.9,
      intervalUnit: 'month',
      intervalCount: 1,
      startDate: new Date().toISOString().slice(0, 10),
      totalCycles: cycles,
      description: 'Bench subscription',
    }),
  });
  const json = (await response.json()) as { data?: { subscriptionId?: string } };
  if (response.status !== 201 || !json.data?.subscriptionId) {
    throw new Error(`POST /subscriptions ${externalSubscriptionId} → ${response.status} ${JSON.stringify(json)}`);
  }
  return { subscriptionId: json.data.subscriptionId };
}

/** What a client sees: GET /subscriptions/{id}/debts lists every cycle. */
async function checkThroughApi(deps: GenerationDeps, subscriptionId: string, cycles: number): Promise<void> {
  const response = await fetch(`${deps.apiUrl}/subscriptions/${subscriptionId}/debts?limit=1`, { headers: deps.headers });
  const json = (await response.json()) as { meta?: { total?: number } };
  if (response.status !== 200 || json.meta?.total !== cycles) {
    throw new Error(`GET /subscriptions/${subscriptionId}/debts → ${response.status}, meta.total ${json.meta?.total} (expected ${cycles})`);
  }
}

/**
 * Removes the jobs the API scenarios left waiting (no worker ran during them): the cycle
 * generation of each subscription POST /subscriptions created. Generation is measured on its own
 * subscriptions afterwards; these would otherwise run first on its workers. Returns how many.
 */
export async function drainWaitingJobs(redisUrl: string, queuePrefix: string): Promise<number> {
  const redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
  const queue = new Queue(QUEUE_NAME, { connection: redis, prefix: queuePrefix });
  try {
    const { waiting = 0, prioritized = 0 } = await queue.getJobCounts('waiting', 'prioritized');
    await queue.drain();
    return waiting + prioritized;
  } finally {
    await queue.close();
    redis.disconnect();
  }
}

/**
 * A worker schedules the repeating jobs on start and BullMQ runs each at once (overdue marking
 * over the whole debts table among them): wait until it logged each of them as done, then
 * until the queue is idle, so the measurement does not share the worker with them.
 */
async function waitForStartupJobs(worker: Service, queue: Queue): Promise<void> {
  const names = ['tenancy.purge-expired-refresh-tokens', 'debts.mark-overdue', 'payment-links.mark-expired'];
  const deadline = performance.now() + TIMEOUT_MS;
  for (;;) {
    const lines = worker.stdout().split('\n').filter((line) => /"msg":"job (completed|failed)"/.test(line));
    if (names.every((name) => lines.some((line) => line.includes(`"name":"${name}"`)))) break;
    if (performance.now() > deadline) throw new Error(`the worker's startup jobs did not finish in ${TIMEOUT_MS / 1000} s:\n${worker.stdout()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  await waitForIdleQueue(queue);
}

/** No job waiting or active for 5 polls in a row, 100 ms apart. */
async function waitForIdleQueue(queue: Queue): Promise<void> {
  const deadline = performance.now() + TIMEOUT_MS;
  let quiet = 0;
  while (quiet < 5) {
    const counts = await queue.getJobCounts('waiting', 'active', 'prioritized');
    quiet = Object.values(counts).every((n) => n === 0) ? quiet + 1 : 0;
    if (performance.now() > deadline) throw new Error(`the queue is still busy after ${TIMEOUT_MS / 1000} s: ${JSON.stringify(counts)}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
