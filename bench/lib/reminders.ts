import { performance } from 'node:perf_hooks';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { round } from './load';
import { databaseCpuMs, processCpuMs } from './cpu';
import type { Service } from './processes';
import { DEFAULT_DUTY_CYCLE } from '../../adapters/clock/duty-cycle-pace';

/**
 * Payment reminders (issue 17): debts of one company all due the same day, a policy of one email
 * step the day before, worker processes sending over SMTP to a server this process runs. Measured
 * from the send window opening (the sandbox clock moved to it) until the SMTP server has accepted
 * every message; duplicates are counted there, by Message-ID (one per debt, step and channel).
 */
export interface ReminderRun {
  workers: number;
  debts: number;
  /** Clock moved to the window's opening → every message accepted by the SMTP server. */
  seconds: number;
  messagesPerSecond: number;
  /** Messages the SMTP server accepted more than once (same Message-ID). */
  duplicates: number;
  /** CPU (user + system) the worker processes spent during the run, per 1,000 messages. */
  workerCpuMsPer1000: number | null;
  /**
   * CPU the database server spent during the run, per 1,000 messages: with the workers', where
   * the two cores went (absent from runs before 2026-11-29).
   */
  databaseCpuMsPer1000?: number | null;
  /**
   * Debts the overdue job (debts.mark-overdue, every 5 minutes on the workers) marked OVERDUE
   * during the run, by the debt.overdue events it wrote: the sandbox clock's jump to the window
   * makes every PENDING debt of the organization due before it overdue, and the job's first run
   * after the jump marks them all (absent from runs before 2026-11-29 15:00).
   */
  overdueMarked?: number | null;
}

/**
 * The overdue job's sweep of the backlog the clock's jump made (before the first run's window):
 * from the last poll before its first debt.overdue event to the first poll that found no PENDING
 * debt of the organization due before the day (polls every 500 ms), paced as the workers are
 * (BACKGROUND_JOB_DUTY_CYCLE, docs/operations.md#background-sweeps). Absent from runs before
 * 2026-12-06 and from the quick run, which does not wait for the job.
 */
export interface OverdueSweep {
  /** The debt.overdue events written: the debts marked. */
  debts: number;
  dutyCycle: number;
  /** From the first mark (within a poll) until none was left. */
  seconds: number;
  debtsPerSecond: number;
  /** The worker process's CPU (user + system) during the sweep, per 1,000 debts marked. */
  workerCpuMsPer1000: number | null;
  /** The database server's CPU during the sweep, per 1,000 debts marked. */
  databaseCpuMsPer1000: number | null;
  /**
   * From the wait's start to the first mark: up to the job's 5-minute period, or next to nothing
   * when the workers have just made its schedule (BullMQ runs a new schedule's first job at once).
   */
  waitedSeconds: number;
}

export interface RemindersReport {
  debtsPerRun: number;
  runs: ReminderRun[];
  overdueSweep?: OverdueSweep | null;
}

export interface RemindersDeps {
  apiUrl: string;
  headers: Record<string, string>;
  companyCode: string;
  runTag: string;
  log: (message: string) => void;
  /** Starts a worker process with the extra environment (SMTP_URL, REMINDERS_FROM_EMAIL). */
  startWorker: (index: number, env: Record<string, string>) => Promise<Service>;
  /** The bench database (the events the workers write during a run). */
  db: { query<T>(sql: string, values?: unknown[]): Promise<T[]> };
}

const TIME_ZONE = 'America/Mexico_City'; // UTC-6 all year
const BATCH = 50; // the batch limit of POST /v2/debts
/** Room for about 40 messages a second (the 2-core machine sends about 100), at least 10 minutes. */
const timeoutMs = (debts: number) => Math.max(600_000, debts * 25);

/**
 * `duplicateWatchMs`: how long after the last message a duplicate is waited for (a few scheduler
 * ticks; 1 s in the quick smoke run). `waitForOverdueJob`: open each window only once the overdue
 * job has marked what the clock's jump made overdue (up to its 5-minute period and the marks; the
 * quick smoke run does not wait).
 */
export async function measureReminders(
  deps: RemindersDeps,
  plan: { debts: number; workers: number[]; duplicateWatchMs: number; waitForOverdueJob: boolean },
): Promise<RemindersReport> {
  const accepted = new Map<string, number>();
  const smtp = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    size: 1024 * 1024,
    onData(stream, _session, callback) {
      // Only the headers are needed: the Message-ID.
      let head = '';
      stream.on('data', (chunk: Buffer) => {
        if (head.length < 8192) head += chunk.toString('latin1');
      });
      stream.on('end', () => {
        const id = /^message-id:\s*(\S+)/im.exec(head)?.[1] ?? `missing-${accepted.size}`;
        accepted.set(id, (accepted.get(id) ?? 0) + 1);
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const smtpUrl = `smtp://127.0.0.1:${(smtp.server.address() as AddressInfo).port}`;
  const workers: Service[] = [];
  /** CPU (user + system) the worker processes have spent so far. */
  const workersCpuMs = () => workers.reduce((sum, w) => sum + processCpuMs(w.serverPid), 0);
  try {
    await api(deps, 'PUT', `/reminder-policies/${deps.companyCode}`, {
      enabled: true, timeZone: TIME_ZONE, sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: -1, channels: ['email'] }],
    });
    const runs: ReminderRun[] = [];
    let overdueSweep: OverdueSweep | null = null;
    // Every run's debts are due the same day, in the sandbox's future, and each run moves the clock
    // back to the morning before: a run's debts never become overdue in the next one. (Until
    // 2026-11-29 each run had its own date a week after the last, so the overdue job marked the
    // first run's debts during the second, on the second's measured CPU.)
    const dueDate = '2032-01-12';
    const dayBefore = '2032-01-11';
    for (const [index, count] of plan.workers.entries()) {
      await api(deps, 'PUT', '/test-helpers/clock', { now: `${dayBefore}T12:00:00Z` }); // 06:00 there: before the window
      deps.log(`  reminders run ${index + 1}: creating ${plan.debts} debts due ${dueDate} through POST /v2/debts (batches of ${BATCH}) …`);
      await createDebts(deps, plan.debts, dueDate, index);
      // The job may run as the workers start (a schedule they make runs at once): its marks count from here.
      const eventsBeforeWorkers = await lastEventId(deps.db);
      while (workers.length < count) {
        const env = { SMTP_URL: smtpUrl, REMINDERS_FROM_EMAIL: 'cobranza@bench.example.com', BACKGROUND_JOB_DUTY_CYCLE: String(DEFAULT_DUTY_CYCLE) };
        workers.push(await deps.startWorker(workers.length + 1, env));
      }
      if (plan.waitForOverdueJob) {
        const swept = await overdueJobCaughtUp(deps, dayBefore, eventsBeforeWorkers, workersCpuMs);
        overdueSweep ??= swept;
      }
      const before = accepted.size;
      const cpuBefore = workersCpuMs();
      const databaseBefore = databaseCpuMs();
      const eventsBefore = await lastEventId(deps.db);
      const started = performance.now();
      await api(deps, 'PUT', '/test-helpers/clock', { now: `${dayBefore}T15:00:00Z` }); // 09:00 there: the window opens
      const deadline = Date.now() + timeoutMs(plan.debts);
      while (accepted.size - before < plan.debts) {
        if (Date.now() > deadline) throw new Error(`reminders: ${accepted.size - before} of ${plan.debts} messages after ${timeoutMs(plan.debts) / 1000} s`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const seconds = (performance.now() - started) / 1000;
      // A few more scheduler ticks: a duplicate would arrive now.
      await new Promise((resolve) => setTimeout(resolve, plan.duplicateWatchMs));
      const cpuMs = workersCpuMs() - cpuBefore;
      const databaseMs = databaseCpuMs() - databaseBefore;
      const overdueMarked = await overdueEventsAfter(deps.db, eventsBefore);
      const run: ReminderRun = {
        workers: workers.length,
        debts: plan.debts,
        seconds: round(seconds, 2),
        messagesPerSecond: Math.round(plan.debts / seconds),
        duplicates: [...accepted.values()].reduce((sum, n) => sum + (n - 1), 0) + Math.max(0, accepted.size - before - plan.debts),
        workerCpuMsPer1000: Number.isFinite(cpuMs) ? round((cpuMs / plan.debts) * 1000, 0) : null,
        databaseCpuMsPer1000: databaseMs > 0 ? round((databaseMs / plan.debts) * 1000, 0) : null,
        overdueMarked,
      };
      deps.log(`  ${run.debts} reminders, ${run.workers} worker(s): every email accepted ${run.seconds} s after the window opened (${run.messagesPerSecond} messages/s), ${run.duplicates} duplicates, ${run.workerCpuMsPer1000 ?? '?'} worker and ${run.databaseCpuMsPer1000 ?? '?'} database CPU ms / 1,000; ${overdueMarked.toLocaleString('en-US')} debts marked overdue meanwhile`);
      if (run.duplicates > 0) throw new Error(`reminders: ${run.duplicates} messages accepted twice`);
      runs.push(run);
    }
    return { debtsPerRun: plan.debts, runs, overdueSweep };
  } finally {
    await api(deps, 'DELETE', '/test-helpers/clock').catch(() => undefined);
    await api(deps, 'PUT', `/reminder-policies/${deps.companyCode}`, { enabled: false, timeZone: TIME_ZONE, sendWindow: { from: '09:00', to: '20:00' }, steps: [] }).catch(() => undefined);
    await Promise.all(workers.map((w) => w.stop()));
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  }
}

/** `count` debts due `dueDate`, each with its own contact (an email address each), in batches. */
async function createDebts(deps: RemindersDeps, count: number, dueDate: string, run: number): Promise<void> {
  const batches: object[][] = [];
  for (let i = 0; i < count; i += BATCH) {
    batches.push(Array.from({ length: Math.min(BATCH, count - i) }, (_, j) => {
      const n = i + j;
      const key = `${deps.runTag}-rem${run}-${n}`;
      return { externalRequestId: key, contactData: { externalClientId: key, name: `Deudor ${n}`, email: `deudor.${n}.${run}@bench.example.com` }, amount: 100 + (n % 50), dueDate };
    }));
  }
  // Eight batches in flight.
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next < batches.length) await api(deps, 'POST', '/v2/debts', { debts: batches[next++] }, 201);
  }));
}

async function api(deps: RemindersDeps, method: string, path: string, body?: unknown, status = 200): Promise<unknown> {
  const response = await fetch(`${deps.apiUrl}${path}`, {
    method,
    headers: { ...deps.headers, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as unknown;
  if (response.status !== status) throw new Error(`${method} ${path} → ${response.status} ${JSON.stringify(json).slice(0, 300)}`);
  return json;
}

/** The one number a statement answers as `n` (0 for none or NULL). */
async function numberOf(db: RemindersDeps['db'], sql: string, values: unknown[] = []): Promise<number> {
  const [row] = await db.query<{ n: number | string | null }>(sql, values);
  return Number(row?.n ?? 0);
}

/** The newest event's id (0 when there is none). */
const lastEventId = (db: RemindersDeps['db']) => numberOf(db, 'SELECT MAX(id) AS n FROM events');

/**
 * debt.overdue events written after the event `afterId`: the debts the overdue job marked meanwhile.
 * Company by company, along the events' (company_id, type, id) index: no event row is read.
 */
const overdueEventsAfter = (db: RemindersDeps['db'], afterId: number) =>
  numberOf(db, "SELECT COUNT(*) AS n FROM companies c JOIN events e ON e.company_id = c.id AND e.type = 'debt.overdue' AND e.id > ?", [afterId]);

/**
 * The clock's jump to 2032 makes every PENDING debt of the organization due before it overdue: in
 * a full run, the debts every earlier scenario created (hundreds of thousands). The overdue job
 * (every 5 minutes on the workers) marks them all at its next run, with an event each: measured on
 * 2026-11-29, a backlog of 400,000 marked during a run of one worker took its database CPU from
 * 0.77 to 1.61 s per 1,000 messages. So before the window opens, wait until the job has marked
 * them, and measure the reminders alone. After 10 minutes the run goes on with a warning rather
 * than failing the whole bench: the table's "Debts marked overdue meanwhile" then shows what the
 * job did during each run (2026-12-06: a slower host's backlog of 280,691, before the job's chunks
 * read along their index).
 *
 * The wait is also the measurement of the sweep (OverdueSweep), null when there was no backlog or
 * the job did not finish it in time. Its polls are an EXISTS each, along the events'
 * (company_id, type, id) and the debts' (company_id, status, due_date) indexes, so that they cost
 * the database next to nothing beside the sweep they measure; the count comes once, at the end.
 */
async function overdueJobCaughtUp(deps: RemindersDeps, today: string, eventsBefore: number, workersCpuMs: () => number): Promise<OverdueSweep | null> {
  const organization = 'SELECT organization_id FROM companies WHERE code = ?';
  const pendingPastDue = `FROM companies c JOIN debts d ON d.company_id = c.id AND d.status = 'PENDING' AND d.due_date < ? WHERE c.organization_id = (${organization})`;
  const left = await numberOf(deps.db, `SELECT COUNT(*) AS n ${pendingPastDue}`, [today, deps.companyCode]);
  if (left === 0) return null;
  deps.log(`    waiting for the overdue job (every 5 minutes) to mark the ${left.toLocaleString('en-US')} debts the clock's jump made overdue …`);
  const anyLeft = () => numberOf(deps.db, `SELECT EXISTS (SELECT 1 ${pendingPastDue}) AS n`, [today, deps.companyCode]);
  const anyMarked = () =>
    numberOf(deps.db, "SELECT EXISTS (SELECT 1 FROM companies c JOIN events e ON e.company_id = c.id AND e.type = 'debt.overdue' AND e.id > ?) AS n", [eventsBefore]);
  const snapshot = () => ({ at: performance.now(), worker: workersCpuMs(), database: databaseCpuMs() });
  const poll = () => new Promise((resolve) => setTimeout(resolve, 500));
  const started = performance.now();
  const deadline = Date.now() + 600_000;
  const timedOut = async () => {
    if (Date.now() <= deadline) return false;
    const unmarked = await numberOf(deps.db, `SELECT COUNT(*) AS n ${pendingPastDue}`, [today, deps.companyCode]);
    deps.log(`    the overdue job left ${unmarked.toLocaleString('en-US')} debts unmarked after 10 minutes: measuring anyway (the table's "Debts marked overdue meanwhile" shows what it did during each run)`);
    return true;
  };
  // The job may have begun while that count ran: the sweep is then measured from here, on the debts marked from here.
  let before = snapshot();
  const markedBefore = await overdueEventsAfter(deps.db, eventsBefore);
  while (markedBefore === 0 && !(await anyMarked())) {
    if (await timedOut()) return null;
    before = snapshot();
    await poll();
  }
  while (await anyLeft()) {
    if (await timedOut()) return null;
    await poll();
  }
  const after = snapshot();
  const debts = (await overdueEventsAfter(deps.db, eventsBefore)) - markedBefore;
  const seconds = (after.at - before.at) / 1000;
  const perThousand = (ms: number) => (Number.isFinite(ms) && ms > 0 ? round((ms / debts) * 1000, 0) : null);
  const sweep: OverdueSweep = {
    debts,
    dutyCycle: DEFAULT_DUTY_CYCLE,
    seconds: round(seconds, 1),
    debtsPerSecond: Math.round(debts / seconds),
    workerCpuMsPer1000: perThousand(after.worker - before.worker),
    databaseCpuMsPer1000: perThousand(after.database - before.database),
    waitedSeconds: round((before.at - started) / 1000, 1),
  };
  const already = markedBefore > 0 ? ` (measured from its ${markedBefore.toLocaleString('en-US')}th mark)` : '';
  deps.log(`    marked after ${((after.at - started) / 1000).toFixed(1)} s: the sweep of ${debts.toLocaleString('en-US')} debts${already} took ${sweep.seconds} s (${sweep.debtsPerSecond.toLocaleString('en-US')} a second, duty cycle ${sweep.dutyCycle}), ${sweep.workerCpuMsPer1000 ?? '?'} worker and ${sweep.databaseCpuMsPer1000 ?? '?'} database CPU ms / 1,000`);
  return sweep;
}
