/**
 * A worker process SIGKILLed in the middle of a job, then restarted, on MySQL + Redis with the
 * API and the real worker entrypoint (cmd/worker/main.ts) as separate processes. Each scenario
 * holds its job at a known statement with a lock of its own (test/support/row-blockers.ts), so the
 * kill lands mid-job whatever the machine's speed, then crashes the worker, releases the lock,
 * lets a new worker take the job over, and checks that the job's effect happened exactly once.
 *
 * - subscription generation: three subscriptions generating at once, one held half-way;
 *   every cycle of each exists exactly once.
 * - debit execution (direct debit): a run that has collected some debts and is recording the
 *   payment of the next one, its gateway call done; every debt is debited and paid exactly once.
 *
 * - webhook delivery: three events for a real receiver, which leaves one POST unanswered, so the
 *   worker dies after sending it and before recording it; every event is delivered (the held one
 *   again, with the same eventId for the receiver to deduplicate) and each attempt recorded once.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { CYCLES_PER_TRANSACTION } from '../../internal/subscriptions/jobs/generate-subscription-cycles';
import { MAX_CYCLES } from '../../internal/subscriptions/schedule';
import { cycleRequestId } from '../../internal/subscriptions/subscription';
import { waitFor } from '../support/child-process';
import { mysqlAvailable, redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { type ApiHarness, JWT_TEST_SECRET, startApi, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { holdIndexGap, holdUniqueKey } from '../support/row-blockers';
import { expireStalledJob } from '../support/worker-crash';
import { startWebhookReceiver, type WebhookReceiver } from '../support/webhook-receiver';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { openMysqlAdmin, type MysqlAdmin } from './support/mysql-admin';
import { Tally } from './support/summary';
import { TEST_SECRETS_KEY } from '../support/secrets';

interface World {
  api: ApiHarness;
  admin: MysqlAdmin;
  db: Knex;
  startWorker(): Promise<WorkerProcess>;
}

/** One crash: set up and hold a job mid-way, crash the worker holding it, recover, check exactly once. */
interface CrashScenario {
  name: string;
  /** Creates the data, holds the job at a statement, starts the worker that runs into the hold; resolves once it waits there. */
  holdMidJob(world: World, tally: Tally): Promise<{ worker: WorkerProcess; release(): Promise<void> }>;
  /** Right after the crash, the job still held: checks that it died half-way. */
  checkHalfDone(world: World, tally: Tally): Promise<void>;
  /** After the release, with a new worker: until the job's effect is complete, then checks it happened once. */
  recoverAndCheck(world: World, tally: Tally): Promise<void>;
}

/** The longest subscription, two transactions' worth of cycles: the job dies in its second. */
const CYCLES = MAX_CYCLES;
const HELD_CYCLE = CYCLES_PER_TRANSACTION + 40;

/** Three subscriptions generating at once; the second is held at a cycle of its second transaction. */
function subscriptionGeneration(): CrashScenario {
  const keys = ['crash-a', 'crash-b', 'crash-c'];
  let tenant: Tenant;
  const ids = new Map<string, number>();
  let held = 0;
  const cyclesOf = async (db: Knex, key: string) =>
    (await db('debts').where({ subscription_id: ids.get(key) }).pluck('external_request_id')) as string[];
  return {
    name: 'subscription generation',
    async holdMidJob({ api, admin, db, startWorker }, tally) {
      tenant = await api.newTenant();
      const post = (path: string, body: object) => api.http.post(path).set(tenant.headers).send(body);
      expectOk(await post('/v2/debts', { contactData: { externalClientId: 'crash-client', name: 'Crash', email: 'crash@example.com' }, amount: 1, dueDate: '2031-01-01' }), 201);
      const template = await db('debts').where({ organization_id: tenant.organizationId }).first();
      const blocker = await holdUniqueKey(admin.db, 'debts', template, { external_request_id: cycleRequestId('crash-b', HELD_CYCLE) });
      const worker = await startWorker();
      for (const key of keys) {
        const body = { externalSubscriptionId: key, externalClientId: 'crash-client', amount: 10, intervalUnit: 'week', intervalCount: 1, startDate: '2031-01-06', totalCycles: CYCLES, productName: 'Weekly' };
        const created = expectOk(await post('/subscriptions', body), 201);
        ids.set(key, (await db('subscriptions').where({ organization_id: tenant.organizationId, external_subscription_id: key }).first()).id);
        tally.record(created.externalSubscriptionId === key ? null : `created ${JSON.stringify(created)}`);
      }
      // Its first transaction's cycles committed, the second waiting on HELD_CYCLE's lock.
      await admin.waitForStatement('insert ignore into `debts`');
      await waitFor(async () => (await cyclesOf(db, 'crash-b')).length > 0, 'the first cycles of crash-b', { timeoutMs: 15_000 });
      return { worker, release: async () => void (await blocker.rollback()) };
    },
    async checkHalfDone({ db }, tally) {
      held = (await cyclesOf(db, 'crash-b')).length;
      if (held === 0 || held >= CYCLES) tally.fail(`crash-b had ${held} cycles when its worker died: the kill was not mid-job`);
    },
    async recoverAndCheck({ db }, tally) {
      for (const key of keys) {
        const expected = Array.from({ length: CYCLES }, (_, n) => cycleRequestId(key, n)).sort();
        await waitFor(async () => (await cyclesOf(db, key)).length >= CYCLES, `${CYCLES} cycles of ${key}`, { timeoutMs: 30_000 });
        const cycles = (await cyclesOf(db, key)).sort();
        tally.record(JSON.stringify(cycles) === JSON.stringify(expected) ? null : `${key}: ${cycles.length} cycle debts, not each of its ${CYCLES} cycles once`);
      }
      // eslint-disable-next-line no-console
      console.log(`      [crash] subscription generation: crash-b had ${held} of ${CYCLES} cycles when its worker was killed`);
    },
  };
}

/**
 * Four autopay debts of one user, due on the organization's (frozen) day: the run collects the
 * first two, calls the gateway for the fourth and waits to record its payment (its row's gap in
 * debt_payments is held; the third, in between, is a plain debt paid by hand, as is a fifth).
 */
function debitExecution(): CrashScenario {
  let tenant: Tenant;
  const autopay = ['debit-1', 'debit-2', 'debit-4'];
  const debtId = new Map<string, number>();
  const row = (db: Knex, key: string) => db('debts').where({ organization_id: tenant.organizationId, external_request_id: key }).first();
  const attemptsOf = (db: Knex, key: string) => db('debit_attempts').where({ debt_id: debtId.get(key) });
  const paymentsOf = (db: Knex, key: string, source?: string) => db('debt_payments').where({ debt_id: debtId.get(key), ...(source ? { source } : {}) });
  return {
    name: 'debit execution',
    async holdMidJob({ api, admin, db, startWorker }, tally) {
      tenant = await api.newTenant({ settings: { directDebitEnabled: true, directDebitModality: true } });
      const post = (path: string, body: object, key?: string) => {
        const req = api.http.post(path).set(tenant.headers);
        return (key ? req.set('Idempotency-Key', key) : req).send(body);
      };
      // The organization's clock is frozen; recovery moves it past the two minutes after which a
      // PENDING attempt is completed again (stale attempts are judged on the organization clock).
      expectOk(await api.http.put('/test-helpers/clock').set(tenant.headers).send({ now: '2024-03-05T12:00:00Z' }));
      const product = expectOk(await post('/products', { name: 'Gym' }), 201);
      expectOk(await post('/contacts', { externalClientId: 'payer', name: 'Payer', email: 'payer@example.com' }), 201);
      expectOk(await post('/test-helpers/payment-methods', { externalClientId: 'payer', paymentMethodType: 'BANK_ACCOUNT' }), 201);
      for (const [key, withProduct] of [['debit-1', true], ['debit-2', true], ['debit-3', false], ['debit-4', true], ['debit-5', false]] as const) {
        const debt = expectOk(await post('/v2/debts', { externalClientId: 'payer', amount: 25, dueDate: '2024-03-05', ...(withProduct ? { productId: product.productId } : {}) }, key), 201);
        tally.record(withProduct && debt.autopay !== true ? `${key} answered autopay ${debt.autopay} (${debt.autopayReason})` : null);
        debtId.set(key, (await row(db, key)).id);
      }
      for (const key of ['debit-3', 'debit-5']) expectOk(await post(`/test-helpers/debts/${key}/pay`, {}), 201);
      const blocker = await holdIndexGap(admin.db, 'debt_payments', 'debt_id', debtId.get('debit-4')!);
      // The adhesion requests wait in Redis; the worker enrolls the user and collects the due debts.
      const worker = await startWorker();
      await admin.waitForStatement('insert into `debt_payments`');
      await waitFor(async () => (await attemptsOf(db, 'debit-4')).length === 1, 'the attempt of debit-4', { timeoutMs: 15_000 });
      return { worker, release: async () => void (await blocker.rollback()) };
    },
    async checkHalfDone({ db }, tally) {
      const [held] = await attemptsOf(db, 'debit-4');
      if (held?.status !== 'PENDING') tally.fail(`debit-4's attempt was ${held?.status} when its worker died: the kill was not mid-debit`);
      for (const key of ['debit-1', 'debit-2']) if ((await row(db, key)).status !== 'PAID') tally.fail(`${key} was not collected before the kill`);
      if ((await paymentsOf(db, 'debit-4')).length !== 0) tally.fail('debit-4 was paid before the kill');
    },
    async recoverAndCheck({ api, db }, tally) {
      // Three minutes later on the organization's clock, the next run completes the PENDING
      // attempt again with its idempotency key.
      expectOk(await api.http.put('/test-helpers/clock').set(tenant.headers).send({ now: '2024-03-05T12:03:00Z' }));
      await api.infra.ports.queue.enqueue({ name: 'direct-debit.execute-due', data: {}, jobId: `recover-${crypto.randomBytes(4).toString('hex')}` });
      for (const key of autopay) {
        await waitFor(async () => (await row(db, key)).status === 'PAID', `${key} PAID`, { timeoutMs: 30_000 });
        const debt = await row(db, key);
        const attempts = await attemptsOf(db, key);
        const payments = await paymentsOf(db, key);
        tally.record(
          attempts.length !== 1 || attempts[0].status !== 'SUCCEEDED'
            ? `${key}: attempts ${JSON.stringify(attempts.map((a: { status: string }) => a.status))}`
            : payments.length !== 1 || payments[0].source !== 'direct-debit' || Number(debt.amount_paid_cents) !== Number(debt.amount_cents)
              ? `${key}: payments ${JSON.stringify(payments)}, paid ${debt.amount_paid_cents} of ${debt.amount_cents}`
              : null,
        );
      }
      for (const key of ['debit-3', 'debit-5']) {
        const payments = await paymentsOf(db, key);
        tally.record(payments.length === 1 && payments[0].source === 'test-helper' && (await attemptsOf(db, key)).length === 0 ? null : `${key} (no product) was touched by direct debit`);
      }
    },
  };
}

/** Three contact.created events for a receiver that leaves the first POST it gets unanswered. */
function webhookDelivery(): CrashScenario {
  const PATH = '/crash-hook';
  let tenant: Tenant;
  let receiver: WebhookReceiver;
  let heldEventId = '';
  const deliveries = async (db: Knex) =>
    (await db('webhook_deliveries as w')
      .join('events as e', 'e.id', 'w.event_row_id')
      .where('e.organization_id', tenant.organizationId)
      .select('w.id', 'w.status', 'w.attempts', 'e.event_id')) as { id: number; status: string; attempts: number; event_id: string }[];
  return {
    name: 'webhook delivery',
    async holdMidJob({ api, db, startWorker }) {
      tenant = await api.newTenant();
      receiver = await startWebhookReceiver();
      const post = (path: string, body: object) => api.http.post(path).set(tenant.headers).send(body);
      const hook = expectOk(await post('/webhook-endpoints', { url: receiver.url(PATH), enabledEvents: ['contact.created'] }), 201);
      receiver.setSecret(PATH, hook.secret as string);
      const held = receiver.hangNext(PATH);
      for (const n of [1, 2, 3]) expectOk(await post('/contacts', { externalClientId: `hooked-${n}`, name: `Hooked ${n}`, email: `hooked${n}@example.com` }), 201);
      const worker = await startWorker();
      heldEventId = (await held).body.eventId as string;
      // The other two are delivered and recorded before the kill, so only the held one is in flight.
      await waitFor(async () => (await deliveries(db)).filter((d) => d.status === 'SUCCEEDED').length === 2, 'the two other deliveries recorded', { timeoutMs: 15_000 });
      return { worker, release: async () => undefined };
    },
    async checkHalfDone({ db }, tally) {
      const held = (await deliveries(db)).find((d) => d.event_id === heldEventId);
      if (held?.status !== 'PENDING' || Number(held.attempts) !== 0) tally.fail(`the held delivery was ${JSON.stringify(held)} when its worker died: the kill was not mid-delivery`);
    },
    async recoverAndCheck({ db }, tally) {
      const got = await receiver.waitFor(PATH, (r) => new Set(r.filter((x) => x.answered === 200).map((x) => x.body.eventId)).size === 3, 30_000);
      await receiver.close();
      for (const r of got) tally.record(r.signatureValid ? null : `event ${r.body.eventId} arrived with a bad signature`);
      const times = (eventId: string) => got.filter((r) => r.body.eventId === eventId).length;
      tally.record(times(heldEventId) === 2 ? null : `the held event arrived ${times(heldEventId)} times, not twice (once unanswered, once delivered)`);
      // The receiver answered; the worker records each delivery right after.
      await waitFor(async () => (await deliveries(db)).every((d) => d.status !== 'PENDING'), 'every delivery recorded', { timeoutMs: 15_000 });
      for (const d of await deliveries(db)) {
        const attempts = await db('webhook_delivery_attempts').where('delivery_id', d.id).select('attempt', 'succeeded');
        tally.record(
          d.status === 'SUCCEEDED' && attempts.length === 1 && Number(d.attempts) === 1
            ? null
            : `${d.event_id}: ${d.status}, ${d.attempts} attempts, recorded ${JSON.stringify(attempts)}`,
        );
        if (d.event_id !== heldEventId) tally.record(times(d.event_id) === 1 ? null : `${d.event_id} arrived ${times(d.event_id)} times`);
      }
    },
  };
}

const SCENARIOS: (() => CrashScenario)[] = [subscriptionGeneration, debitExecution, webhookDelivery];

describe('worker SIGKILLed mid-job, then restarted [mysql + redis + worker processes]', function () {
  this.timeout(120_000);
  let world: World | null = null;
  const workers: WorkerProcess[] = [];

  before(async function () {
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    // The API enqueues on Redis; the test starts and kills the worker processes itself.
    const api = await startApi('mysql', { redisUrl: TEST_REDIS_URL });
    world = {
      api,
      admin: openMysqlAdmin(api.databaseUrl),
      db: api.infra.db!,
      async startWorker() {
        // The receiver listens on 127.0.0.1: the worker opts in to private webhook urls, as the API does.
        const worker = await startWorkerProcess({
          DATABASE_URL: api.databaseUrl, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: api.queuePrefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
        });
        workers.push(worker);
        return worker;
      },
    };
  });

  // Each scenario starts with no worker running: its jobs must wait for the worker it starts.
  afterEach(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
  });

  after(async () => {
    await world?.admin.close();
    await world?.api.close();
  });

  for (const make of SCENARIOS) {
    const scenario = make();
    it(`${scenario.name}: every effect exactly once after the crash and a new worker`, async () => {
      const { api } = world!;
      const tally = new Tally(`worker crash: ${scenario.name}`);
      const { worker, release } = await scenario.holdMidJob(world!, tally);
      await worker.crash();
      await scenario.checkHalfDone(world!, tally);
      const queue = api.infra.jobs.bullmq!.queue;
      const active = (await queue.getActive()).map((job) => job.id!);
      expect(active, 'jobs the dead worker was running').to.not.be.empty;
      await release();
      // BullMQ would hand them to another worker after their locks expire and two stalled-job checks (~60 s).
      for (const jobId of active) await expireStalledJob(queue, TEST_REDIS_URL, jobId);
      await world!.startWorker();
      await scenario.recoverAndCheck(world!, tally);
      await api.drainJobs();
      tally.report('checks');
    });
  }
});
