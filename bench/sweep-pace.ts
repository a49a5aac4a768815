/**
 * What pacing a status sweep does (BACKGROUND_JOB_DUTY_CYCLE, ports/job-pace.ts), measured on
 * MySQL/MariaDB: the overdue job marks a backlog of debts once flat out (duty cycle 1) and once
 * paced (0.5 by default), while reads by id of another organization's debts run beside it at a
 * fixed concurrency, as the requests of the moment would. Per pass: how long the sweep took, the
 * database's CPU during it, and the reads' rate and latency, against the same reads alone first.
 *
 *   npx tsx bench/sweep-pace.ts [--debts 100000] [--duty 0.5] [--readers 4] [--paced-first]
 *
 * (BENCH_MYSQL_URL, default mysql://root@127.0.0.1:3306: a fresh bench_<random> database, dropped
 * at the end.) Figures go into docs/reminders.md by hand: this is not part of `npm run bench`,
 * whose reminders step measures the paced sweep alone (bench/lib/reminders.ts, OverdueSweep).
 */
import { fork } from 'node:child_process';
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { DutyCyclePace } from '../adapters/clock/duty-cycle-pace';
import { openInfrastructure } from '../cmd/shared/infrastructure';
import { buildApplication } from '../internal/application';
import type { DebtDraft } from '../internal/debts/debt-draft';
import type { TenantScope } from '../internal/shared/tenant-scope';
import { benchDialect, createBenchDatabase } from './lib/environment';
import { databaseCpuMs, useDatabaseServer } from './lib/cpu';
import { percentile } from './lib/load';

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const DEBTS = option('debts', 100_000);
const DUTY = option('duty', 0.5);
const READERS = option('readers', 4);
const IDLE_MS = 5000;
const PROBE_DEBTS = 500;
const SERVER_URL = process.env.BENCH_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
const log = (message: string) => console.error(`[sweep-pace] ${message}`);

async function main(): Promise<void> {
  useDatabaseServer(benchDialect(SERVER_URL).serverCommands);
  const db = await createBenchDatabase(SERVER_URL);
  const infra = await openInfrastructure({
    databaseUrl: db.url, redisUrl: null, queuePrefix: `sweep-${crypto.randomBytes(3).toString('hex')}`, jwtSecret: crypto.randomBytes(32).toString('hex'),
    secretsKeys: [crypto.randomBytes(32)], appEnv: 'development', migrate: true, publicBaseUrl: 'http://localhost:3000',
  });
  try {
    const app = buildApplication(infra.ports);
    const tenant = async (name: string): Promise<TenantScope> => {
      const created = await app.commands.createClient.execute({ organization: name, username: `${name}-${crypto.randomBytes(3).toString('hex')}`, password: 'sweep-pace-password', companies: [], settings: {} });
      const company = (await infra.ports.repos.tenancy.findCompanyByCode(created.companies[0]!.companyCode))!;
      return { organizationId: created.organizationId, organizationName: name, clientUserId: 0, company, clock: infra.ports.clock, requestId: null };
    };
    // flat and paced: a backlog each (paced's clock held before its due date until its pass);
    // reads: the debts the readers read by id, due next year.
    const [flat, paced, reads] = [await tenant('flat'), await tenant('paced'), await tenant('reads')];
    await app.commands.setOrganizationClock.execute(new Date('2026-01-01T12:00:00Z'), paced);
    const seed = async (scope: TenantScope, prefix: string, count: number, dueDate: string) => {
      await app.commands.createContact.execute({ externalClientId: 'debtor', name: 'Debtor', email: 'debtor@example.com' }, scope);
      const draft: DebtDraft = { debtor: { externalClientId: 'debtor' }, product: null, amountCents: 10_000, dueDate, evaluateAutopay: false };
      for (let from = 0; from < count; from += 50) {
        await app.commands.createDebtBatch.execute(Array.from({ length: Math.min(50, count - from) }, (_, i) => ({ externalRequestId: `${prefix}-${from + i}`, draft })), scope);
      }
    };
    const seeding = performance.now();
    await seed(flat, 'flat', DEBTS, '2026-06-01');
    await seed(paced, 'paced', DEBTS, '2026-06-01');
    await seed(reads, 'reads', PROBE_DEBTS, '2027-06-01');
    log(`seeded ${DEBTS} debts due 2026-06-01 in each of two organizations and ${PROBE_DEBTS} for the reads (${((performance.now() - seeding) / 1000).toFixed(1)} s)`);
    // Let the server settle before the first pass: both backlogs read once along the sweep's
    // index, then three quiet seconds in a row, so that neither pass pays for what the seed may
    // have left to the server. In two runs without this, the first pass took about 1.4 times as
    // long as the same pass did after it, whichever pass it was (docs/reminders.md).
    for (const scope of [flat, paced]) await db.query('SELECT COUNT(*) AS n FROM debts WHERE organization_id = ? AND status = ?', [scope.organizationId, 'PENDING']);
    const settling = performance.now();
    for (let quiet = 0; quiet < 3 && performance.now() - settling < 180_000; ) {
      const before = databaseCpuMs();
      await new Promise((resolve) => setTimeout(resolve, 1000));
      quiet = databaseCpuMs() - before < 50 ? quiet + 1 : 0;
    }
    log(`the database settled in ${((performance.now() - settling) / 1000).toFixed(1)} s`);

    // The reads run in a process of their own, as the API does beside the worker running the
    // sweep: started and warmed first ('ready'), stopped once the pass ends ('stop' → its report).
    const pass = async (label: string, work: () => Promise<number>) => {
      const reader = fork(__filename, ['--reader', db.url, reads.company.code, String(READERS)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
      const messages: unknown[] = [];
      const next = () =>
        new Promise<unknown>((resolve, reject) => {
          if (messages.length > 0) return resolve(messages.shift());
          reader.once('message', () => resolve(messages.shift()));
          reader.once('exit', (code) => reject(new Error(`the reader exited ${code}`)));
        });
      reader.on('message', (message) => messages.push(message));
      await next();
      const cpuBefore = databaseCpuMs();
      const started = performance.now();
      const marked = await work();
      const seconds = (performance.now() - started) / 1000;
      const dbCpuMs = databaseCpuMs() - cpuBefore;
      reader.send('stop');
      const reading = (await next()) as { perSecond: number; p50: number; p99: number };
      // The database's CPU during the pass, the reads' included, in cores.
      const row = {
        label, marked, seconds: +seconds.toFixed(2), databaseCores: +(dbCpuMs / 1000 / seconds).toFixed(2),
        readsPerSecond: Math.round(reading.perSecond), readP50Ms: +reading.p50.toFixed(2), readP99Ms: +reading.p99.toFixed(2),
      };
      log(JSON.stringify(row));
      return row;
    };
    const sweepWith = (dutyCycle: number) => async () => (await buildApplication({ ...infra.ports, jobPace: new DutyCyclePace(dutyCycle) }).jobs.markOverdueDebts.execute()).marked;

    // The first pass marks the `flat` organization's backlog (the other's clock is held before its
    // due date), the second the other's; --paced-first swaps which pass goes first.
    const passes = [
      { label: 'sweep flat out (duty cycle 1)', dutyCycle: 1 },
      { label: `sweep paced (duty cycle ${DUTY})`, dutyCycle: DUTY },
    ];
    if (args.includes('--paced-first')) passes.reverse();
    const rows = [];
    rows.push(await pass('reads alone', () => new Promise((resolve) => setTimeout(() => resolve(0), IDLE_MS))));
    rows.push(await pass(passes[0]!.label, sweepWith(passes[0]!.dutyCycle)));
    await app.commands.setOrganizationClock.execute(null, paced);
    rows.push(await pass(passes[1]!.label, sweepWith(passes[1]!.dutyCycle)));
    console.log(JSON.stringify({ debts: DEBTS, readers: READERS, rows }));
  } finally {
    await infra.close();
    await db.drop();
  }
}

/** The reads: `readers` at a time, by id, over the reads organization's debts, until 'stop'. */
async function reader(databaseUrl: string, companyCode: string, readers: number): Promise<void> {
  const infra = await openInfrastructure({
    databaseUrl, redisUrl: null, queuePrefix: 'sweep-reader', jwtSecret: crypto.randomBytes(32).toString('hex'),
    secretsKeys: [crypto.randomBytes(32)], appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000',
  });
  const app = buildApplication(infra.ports);
  const company = (await infra.ports.repos.tenancy.findCompanyByCode(companyCode))!;
  const scope: TenantScope = { organizationId: company.organizationId, organizationName: 'reads', clientUserId: 0, company, clock: infra.ports.clock, requestId: null };
  const read = (i: number) => app.queries.getDebt.execute(`debt_reads-${i % PROBE_DEBTS}`, scope);
  for (let i = 0; i < 2000; i++) await read(i);
  let stopped = false;
  process.once('message', () => (stopped = true));
  const latencies: number[] = [];
  const started = performance.now();
  process.send!('ready');
  await Promise.all(
    Array.from({ length: readers }, async (_, r) => {
      for (let i = r; !stopped; i += readers) {
        const at = performance.now();
        await read(i);
        latencies.push(performance.now() - at);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  process.send!({ perSecond: latencies.length / seconds, p50: percentile(latencies, 0.5), p99: percentile(latencies, 0.99) });
  await infra.close();
  process.disconnect();
}

(args[0] === '--reader' ? reader(args[1]!, args[2]!, Number(args[3])) : main()).catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
