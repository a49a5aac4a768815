/**
 * Subscription cycle generation on the real worker entrypoint (cmd/worker/main.ts) as a
 * separate process, on a fresh MySQL database and Redis. Subscriptions are created through the
 * use cases in this process with BullMQ as the queue (what the API does); the worker writes the
 * 520 debts. Covers: a job waiting in Redis before any worker runs, the time from the 201 to the
 * last debt with a running worker, and a worker SIGKILLed mid-job whose job is retried by a new
 * worker process, every cycle existing exactly once.
 */
import crypto from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { buildApplication } from '../../internal/application';
import type { TenantScope } from '../../internal/shared/tenant-scope';
import type { CreateSubscriptionInput } from '../../internal/subscriptions/commands/create-subscription';
import { generationJob } from '../../internal/subscriptions/generation-job';
import { cycleRequestId } from '../../internal/subscriptions/subscription';
import type { SubscriptionView } from '../../ports/subscription-repository';
import { type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { isAlive, killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { createTestDatabase, mysqlAvailable, redisAvailable, type TestDatabase, TEST_REDIS_URL } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { holdUniqueKey } from '../support/row-blockers';
import { crash, expireStalledJob } from '../support/worker-crash';
import { TEST_SECRETS_KEY, TEST_SECRETS_KEYS } from '../support/secrets';

const CYCLES = 520;
/** The target for 520 cycles after the 201 on MySQL. */
const TARGET_MS = 1000;

// ---------------------------------------------------------------------------------------------

describe('subscription cycle generation on the worker process [mysql + redis]', function () {
  this.timeout(45_000);
  const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
  let database: TestDatabase | null = null;
  let infra: Infrastructure | null = null;
  let app: ReturnType<typeof buildApplication> | null = null;
  let scope: TenantScope | null = null;
  const workers: Proc[] = [];
  const db = (): Knex => infra!.db!;

  const startWorker = async (): Promise<Proc> => {
    const worker = startProcess('cmd/worker/main.ts', { DATABASE_URL: database!.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'info' });
    workers.push(worker);
    await waitFor(() => worker.logs().find((l) => l.msg === 'worker ready'), '"worker ready"', { proc: worker, timeoutMs: 20_000 });
    return worker;
  };
  const runningWorker = (): Proc => {
    const worker = workers.find(isAlive);
    if (!worker) throw new Error('no worker process is running');
    return worker;
  };
  const completedLog = (worker: Proc, jobId: string) => worker.logs().find((l) => l.msg === 'job completed' && l.jobId === jobId);

  /** 10.00 weekly from 2031-01-06, 520 cycles: the most a subscription can have. */
  const input = (externalSubscriptionId: string): CreateSubscriptionInput => ({
    externalSubscriptionId,
    debtor: { externalClientId: 'debtor-1' },
    amountCents: 1000,
    schedule: { intervalUnit: 'week', intervalCount: 1, startDate: '2031-01-06', totalCycles: CYCLES },
    productName: 'Weekly plan',
  });
  /** What the POST /subscriptions handler runs; returning is the 201. */
  const subscribe = (externalSubscriptionId: string): Promise<SubscriptionView> => app!.commands.createSubscription.execute(input(externalSubscriptionId), scope!);

  const count = async (subscriptionId: number): Promise<number> => {
    const [row] = await db()('debts').where({ subscription_id: subscriptionId }).count<{ n: number }[]>({ n: '*' });
    return Number(row!.n);
  };
  const distinctKeys = async (subscriptionId: number): Promise<number> => {
    const [row] = await db()('debts').where({ subscription_id: subscriptionId }).countDistinct<{ n: number }[]>({ n: 'external_request_id' });
    return Number(row!.n);
  };
  /** Every cycle exactly once: 520 rows, 520 distinct keys, and they are -cycle-0 … -cycle-519. */
  const expectEveryCycleOnce = async (subscription: SubscriptionView): Promise<void> => {
    expect(await count(subscription.id)).to.equal(CYCLES);
    expect(await distinctKeys(subscription.id)).to.equal(CYCLES);
    const keys = (await db()('debts').where({ subscription_id: subscription.id }).pluck('external_request_id')) as string[];
    const expected = Array.from({ length: CYCLES }, (_, n) => cycleRequestId(subscription.externalSubscriptionId, n));
    expect(keys.sort()).to.deep.equal(expected.sort());
  };

  before(async function () {
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    database = await createTestDatabase('mysql');
    const migrator = openKnex(database.url);
    try {
      await migrateLatest(migrator);
    } finally {
      await migrator.destroy();
    }
    // With a REDIS_URL the ports' queue is BullMQ: the enqueue after commit goes to Redis.
    infra = await openInfrastructure({ databaseUrl: database.url, redisUrl: TEST_REDIS_URL, queuePrefix: prefix, jwtSecret: JWT_TEST_SECRET, secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000' });
    expect(infra.jobs.bullmq).to.not.equal(null);
    app = buildApplication(infra.ports);
    const suffix = crypto.randomBytes(4).toString('hex');
    const created = await app.commands.createClient.execute({ organization: `Org ${suffix}`, username: `user_${suffix}`, password: 'password-123', companies: [], settings: {} });
    const { tenancy, credentials } = infra.ports.repos;
    scope = {
      organizationId: created.organizationId,
      organizationName: `Org ${suffix}`,
      clientUserId: (await credentials.findClientUserByUsername(created.clientUsername))!.id,
      company: (await tenancy.findCompanyByCode(created.companies[0]!.companyCode))!,
      clock: infra.ports.clock,
      requestId: null,
    };
    await app.commands.createContact.execute({ externalClientId: 'debtor-1', name: 'Debtor', email: 'debtor@example.com' }, scope);
  });

  after(async () => {
    for (const worker of workers) killIfAlive(worker);
    await Promise.all(workers.map((w) => w.exited));
    if (infra?.jobs.bullmq) await infra.jobs.bullmq.queue.obliterate({ force: true });
    await infra?.close();
    await database?.drop();
  });

  it('generates all 520 cycles of a subscription created before any worker ran, once the worker starts', async () => {
    const subscription = await subscribe('early-bird');
    const jobId = generationJob(subscription, 0, null).jobId;
    expect(await infra!.jobs.bullmq!.queue.getJobState(jobId)).to.equal('waiting');
    expect(await count(subscription.id)).to.equal(0);

    const worker = await startWorker();
    await waitFor(async () => (await count(subscription.id)) === CYCLES, `${CYCLES} debts`, { proc: worker });
    const completed = await waitFor(() => completedLog(worker, jobId), `the "job completed" log of ${jobId}`, { proc: worker });
    expect(completed.result).to.deep.equal({ generated: CYCLES });
    await expectEveryCycleOnce(subscription);
  });

  it(`has the 520 debts within ${TARGET_MS} ms of the 201 with a running worker`, async () => {
    const worker = runningWorker();
    const started = performance.now();
    const subscription = await subscribe('benchmark');
    const answered = performance.now();
    await waitFor(async () => (await count(subscription.id)) === CYCLES, `${CYCLES} debts`, { proc: worker, everyMs: 5 });
    const elapsed = performance.now() - answered;
    // eslint-disable-next-line no-console
    console.log(`      [benchmark] create (the 201): ${(answered - started).toFixed(0)} ms; 201 → ${CYCLES} debts: ${elapsed.toFixed(0)} ms (target < ${TARGET_MS} ms)`);
    await expectEveryCycleOnce(subscription);
    expect(elapsed, `${CYCLES} debts took ${elapsed.toFixed(0)} ms after the 201`).to.be.below(TARGET_MS);
  });

  it('writes every cycle exactly once when the worker is SIGKILLed mid-job and a new worker process retries it', async () => {
    const first = runningWorker();
    const ext = 'crash-test';
    // Hold the job half-way, so the kill lands mid-job whatever the machine's speed: an
    // uncommitted row with the key of cycle 300 makes the worker's second chunk (cycles 200-399)
    // wait on its unique-key lock, after the first chunk has committed. Rolled back after the kill.
    const template = await db()('debts').where({ company_id: scope!.company.id }).whereNotNull('subscription_id').first();
    const blocker = await holdUniqueKey(db(), 'debts', template, { external_request_id: cycleRequestId(ext, 300), subscription_id: null });
    try {

      const subscription = await subscribe(ext);
      const jobId = generationJob(subscription, 0, null).jobId;
      await waitFor(async () => (await count(subscription.id)) > 0, `the first debts of ${ext}`, { proc: first, everyMs: 5 });
      await crash(first);

      const atCrash = await count(subscription.id);
      expect(atCrash, 'debts when the worker died').to.be.above(0).and.below(CYCLES);
      const queue = infra!.jobs.bullmq!.queue;
      expect(await queue.getJobState(jobId), 'the job when the worker died').to.equal('active');
      await blocker.rollback();

      // BullMQ would hand the job over after its lock expires and two stalled-job checks (~60 s).
      await expireStalledJob(queue, TEST_REDIS_URL, jobId);

      const second = await startWorker();
      await waitFor(async () => (await count(subscription.id)) === CYCLES, `${CYCLES} debts after the retry`, { proc: second });
      const completed = await waitFor(() => completedLog(second, jobId), `the "job completed" log of ${jobId}`, { proc: second });
      expect(completed.result).to.deep.equal({ generated: CYCLES });
      expect(await queue.getJobState(jobId)).to.equal('completed');
      await expectEveryCycleOnce(subscription);
      // eslint-disable-next-line no-console
      console.log(`      [crash] ${atCrash} of ${CYCLES} debts existed when the worker was killed`);
    } finally {
      if (!blocker.isCompleted()) await blocker.rollback();
    }
  });
});
