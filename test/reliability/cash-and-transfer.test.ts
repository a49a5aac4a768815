/**
 * Cash and transfer payments under stress (docs/cash-and-transfer.md, docs/reliability.md): money
 * notified by the provider is applied once or kept unapplied once, never dropped and never
 * counted twice, whatever happens around it:
 *
 * - notifications delivered twice (at once, and again later): each transaction recorded once;
 * - notifications out of order: a subscription's later cycles paid before earlier ones under
 *   enforcePaymentOrder (kept unapplied), partial amounts of one debt arriving in any order;
 * - notifications racing a card payment on the hosted page for the same debt;
 * - the MySQL connection dropped while a notification is being recorded (the provider delivers
 *   again; the sandbox helper does it by itself);
 * - a worker SIGKILLed while expiring instructions: every instruction expired once, one event each.
 *
 * After each property the money sum invariant is checked from the database: the payments recorded
 * from notifications plus the unapplied payments equal the sum of the distinct notifications sent,
 * every debt holds exactly what its payments add up to and never more than its amount.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { SandboxPaymentInstructionProvider } from '../../adapters/gateways/sandbox-payment-instruction-provider';
import { SANDBOX_CARDS } from '../../adapters/gateways/sandbox-payment-processor';
import { waitFor } from '../support/child-process';
import { mysqlAvailable, redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { type ApiHarness, describeEachDatabase, JWT_TEST_SECRET, startApi } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { pageClient } from '../support/pages';
import { holdIndexGap } from '../support/row-blockers';
import { expireStalledJob } from '../support/worker-crash';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { envelopeProblem, errorProblem, send } from './support/http';
import { type MysqlAdmin, openMysqlAdmin } from './support/mysql-admin';
import { Tally } from './support/summary';

const provider = SandboxPaymentInstructionProvider.derivedFrom(JWT_TEST_SECRET);
const NOW = '2031-05-10T15:00:00.000Z';
type Body = Record<string, any>;

/** A notification the test sends as the provider: one transaction, its exact body. */
interface Sent {
  transactionId: string;
  body: string;
  cents: number;
}

/** The notification of `cents` for an instruction, as the sandbox provider words it. */
function notificationFor(instruction: Body, cents: number): Sent {
  const transactionId = `rel-${crypto.randomBytes(8).toString('hex')}`;
  const body = JSON.stringify({
    id: transactionId, type: 'payment.received', instruction: instruction.transfer?.accountNumber ?? instruction.cash.barcodeValue,
    amount: cents / 100, currency: instruction.currency, receivedAt: NOW,
  });
  return { transactionId, body, cents };
}

/** One delivery, signed now (a provider signs each delivery anew). */
function deliver(api: ApiHarness, sent: Sent): Promise<Response> {
  return send(() => api.http.post('/provider-notifications/sandbox').set(provider.sandbox.sign(sent.body, new Date())).set('content-type', 'application/json').send(sent.body));
}

/** A tenant on a frozen clock, with helpers for its debts and instructions. */
async function cashTenant(api: ApiHarness) {
  const t = await api.newTenant();
  expectOk(await api.http.put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
  const companyId = Number((await api.infra.db!('companies').where({ code: t.companyCodes[0] }).first()).id);
  const debt = async (key: string, body: Body = {}) =>
    expectOk(await api.http.post('/v2/debts').set(t.headers).set('Idempotency-Key', key).send({
      contactData: { externalClientId: 'payer', name: 'Payer', email: 'payer@example.com' }, amount: 100, dueDate: '2031-06-15', ...body,
    }), 201);
  const instruct = async (debtId: string, method: 'TRANSFER' | 'CASH' = 'TRANSFER', amount?: number) =>
    expectOk(await api.http.post(`/debts/${debtId}/payment-instructions`).set(t.headers).send(amount === undefined ? { method } : { method, amount }), 201);
  return { t, companyId, debt, instruct };
}

/**
 * The money sum invariant of a company: what its notifications brought (by the provider's own
 * record, and by what the test sent) equals the payments recorded from them plus the money kept
 * unapplied; each debt's amountPaid is the sum of its payments and never more than its amount.
 */
async function checkMoney(db: Knex, companyId: number, sent: Sent[], tally: Tally): Promise<void> {
  const distinct = new Map(sent.map((s) => [s.transactionId, s.cents]));
  const expected = [...distinct.values()].reduce((a, b) => a + b, 0);
  const sum = async (query: Knex.QueryBuilder, column = 'amount_cents') => Number((await query.sum({ n: column }).first())?.n ?? 0);
  const applied = await sum(db('debt_payments as p').join('debts as d', 'd.id', 'p.debt_id').where('d.company_id', companyId).whereIn('p.source', ['transfer', 'cash']), 'p.amount_cents');
  const unapplied = await sum(db('unapplied_payments').where('company_id', companyId));
  const notified = await sum(db('provider_notifications').where('company_id', companyId));
  const notifications = Number((await db('provider_notifications').where('company_id', companyId).count({ n: '*' }).first())?.n ?? 0);
  tally.record(applied + unapplied === expected ? null : `money: ${expected} cents notified, ${applied} applied + ${unapplied} unapplied = ${applied + unapplied}`);
  tally.record(notified === expected && notifications === distinct.size ? null : `notifications recorded: ${notifications} for ${notified} cents; sent ${distinct.size} for ${expected}`);
  const debts = await db('debts').where('company_id', companyId).select('id', 'external_request_id', 'amount_cents', 'amount_paid_cents', 'status');
  const paid = new Map<number, number>();
  for (const p of await db('debt_payments as p').join('debts as d', 'd.id', 'p.debt_id').where('d.company_id', companyId).select('p.debt_id', 'p.amount_cents')) {
    paid.set(Number(p.debt_id), (paid.get(Number(p.debt_id)) ?? 0) + Number(p.amount_cents));
  }
  for (const d of debts) {
    const own = paid.get(Number(d.id)) ?? 0;
    if (own !== Number(d.amount_paid_cents) || own > Number(d.amount_cents)) {
      tally.fail(`${d.external_request_id}: payments ${own}, amountPaid ${d.amount_paid_cents}, amount ${d.amount_cents}`);
    }
  }
}

describeEachDatabase('cash and transfer: money notified is applied once or unapplied once', ({ api }) => {
  it('notifications delivered twice at once, and again later, record each transaction once', async function () {
    this.timeout(120_000);
    const tally = new Tally(`cash [${api().kind}] notifications delivered twice`);
    const { companyId, debt, instruct } = await cashTenant(api());
    const sent: Sent[] = [];
    // Sixty debts: the whole amount, a part, more than owed, by transfer and in cash. With twenty,
    // payments of different debts deadlocking on MariaDB (a locking read along the primary key,
    // test/contract/mysql-locking-reads.test.ts) answered a 500 about once in twenty runs; with
    // eighty, in every run.
    for (let i = 0; i < 60; i++) {
      const d = await debt(`twice-${i}`, { amount: 100 + i });
      const instruction = await instruct(d.debtId, i % 2 ? 'CASH' : 'TRANSFER');
      sent.push(notificationFor(instruction, [(100 + i) * 100, 4_000, (100 + i) * 100 + 2_550][i % 3]!));
    }
    const answers = await Promise.all(sent.flatMap((s) => [deliver(api(), s), deliver(api(), s)]));
    const later = await Promise.all(sent.map((s) => deliver(api(), s)));
    for (const res of [...answers, ...later]) tally.record(envelopeProblem(res) ?? (res.status !== 200 ? `${res.status} ${JSON.stringify(res.body)}` : null));
    for (const s of sent) {
      const firsts = [...answers, ...later].filter((res) => res.body.data?.transactionId === s.transactionId && res.body.data.replayed === false);
      tally.record(firsts.length === 1 ? null : `${s.transactionId}: ${firsts.length} deliveries recorded it`);
    }
    await checkMoney(api().infra.db!, companyId, sent, tally);
    tally.report();
  });

  it('notifications out of order: later cycles before earlier ones (enforcePaymentOrder), partial amounts in any order', async function () {
    this.timeout(120_000);
    const tally = new Tally(`cash [${api().kind}] notifications out of order`);
    const { t, companyId, debt, instruct } = await cashTenant(api());
    expectOk(await api().http.post('/subscriptions').set(t.headers).send({
      externalSubscriptionId: 'ordered', contactData: { externalClientId: 'payer', name: 'Payer', email: 'payer@example.com' }, amount: 50,
      intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles: 4, productName: 'Plan', enforcePaymentOrder: true,
    }), 201);
    await api().drainJobs();
    const cycles = await Promise.all([0, 1, 2, 3].map((n) => instruct(`ordered-cycle-${n}`)));
    const sent: Sent[] = [];
    // Last cycle first: only cycle 0 can take its money; the others keep it unapplied.
    for (const n of [3, 2, 1, 0]) {
      const s = notificationFor(cycles[n]!, 5_000);
      sent.push(s);
      const res = await deliver(api(), s);
      const outcome = res.body.data?.outcome;
      tally.record(envelopeProblem(res) ?? (outcome !== (n === 0 ? 'APPLIED' : 'UNAPPLIED') ? `cycle ${n}: ${outcome}` : null));
    }
    // In order now, the later cycles take their money.
    for (const n of [1, 2, 3]) {
      const s = notificationFor(cycles[n]!, 5_000);
      sent.push(s);
      const res = await deliver(api(), s);
      tally.record(envelopeProblem(res) ?? (res.body.data?.outcome !== 'APPLIED' ? `cycle ${n} in order: ${res.body.data?.outcome}` : null));
    }
    // Five partial amounts of one debt (more than it owes in all), arriving together in a shuffled order.
    const d = await debt('partials', { amount: 300 });
    const i = await instruct(d.debtId);
    const parts = [4_000, 9_000, 2_500, 12_000, 7_500].map((cents) => notificationFor(i, cents)).sort(() => Math.random() - 0.5);
    sent.push(...parts);
    for (const res of await Promise.all(parts.map((s) => deliver(api(), s)))) tally.record(envelopeProblem(res));
    const paid = expectOk(await api().http.get(`/debts/${d.debtId}`).set(t.headers));
    tally.record(paid.status === 'PAID' && paid.amountPaid === 300 ? null : `partials: ${paid.status} ${paid.amountPaid}`);
    const instruction = expectOk(await api().http.get(`/payment-instructions/${i.paymentInstructionId}`).set(t.headers));
    tally.record(instruction.amountReceived === 350 ? null : `partials: the instruction received ${instruction.amountReceived}`);
    await checkMoney(api().infra.db!, companyId, sent, tally);
    tally.report();
  });

  it('notifications racing a card payment on the hosted page for the same debt: one pays, the other is refunded or kept', async function () {
    this.timeout(120_000);
    const tally = new Tally(`cash [${api().kind}] notifications racing card payments`);
    const { t, companyId, debt, instruct } = await cashTenant(api());
    const sent: Sent[] = [];
    const card = { method: 'CARD', cardNumber: SANDBOX_CARDS.approved, cardExpiry: '12/34', cardCvc: '123', amountChoice: 'full' };
    const races = await Promise.all(
      Array.from({ length: 10 }, async (_, n) => {
        const d = await debt(`race-${n}`, { amount: 80 });
        const s = notificationFor(await instruct(d.debtId, n % 2 ? 'CASH' : 'TRANSFER'), 8_000);
        sent.push(s);
        const client = pageClient(api());
        const page = await client.open(String(d.paymentUrl));
        // Both in flight at once; the notification sometimes a few milliseconds behind, so either can win.
        const late = (n % 5) * 4;
        const [form, notified] = await Promise.all([
          client.post(page.form!.action, { ...page.form!.fields, ...card }),
          new Promise((resolve) => setTimeout(resolve, late)).then(() => deliver(api(), s)),
        ]);
        return { d, form, notified };
      }),
    );
    for (const { d, form, notified } of races) {
      tally.record(envelopeProblem(notified));
      // The page either took the card (303 to the receipt) or refused it under lock and refunded it (422).
      tally.record([303, 422].includes(form.status) ? null : `${d.debtId}: the card form answered ${form.status}`);
      const now = expectOk(await api().http.get(`/debts/${d.debtId}`).set(t.headers));
      tally.record(now.status === 'PAID' && now.amountPaid === 80 ? null : `${d.debtId}: ${now.status} ${now.amountPaid}`);
      const cardPaid = form.status === 303;
      const outcome = notified.body.data?.outcome;
      tally.record(cardPaid === (outcome === 'UNAPPLIED') ? null : `${d.debtId}: card ${form.status}, notification ${outcome}`);
    }
    const cardWins = races.filter((r) => r.form.status === 303).length;
    // eslint-disable-next-line no-console
    console.log(`      [cash] racing card payments [${api().kind}]: the card won ${cardWins} of ${races.length}, the notification ${races.length - cardWins}`);
    await checkMoney(api().infra.db!, companyId, sent, tally);
    tally.report();
  });
});

describe('cash and transfer: MySQL connection dropped while recording a notification [mysql]', function () {
  this.timeout(120_000);
  let api: ApiHarness;
  let admin: MysqlAdmin;

  before(async function () {
    if (!(await mysqlAvailable())) this.skip();
    api = await startApi('mysql');
    admin = openMysqlAdmin(api.databaseUrl);
  });

  after(async () => {
    await admin?.close();
    await api?.close();
  });

  /**
   * Holds the gap of `debt_payments` where the debt's payment goes: the notification's transaction
   * (notification recorded, instruction updated) waits there; its connection is killed.
   */
  async function dropWhileRecording(tally: Tally, debtId: number, request: () => Promise<Response>): Promise<Response> {
    const blocker = await holdIndexGap(admin.db, 'debt_payments', 'debt_id', debtId);
    try {
      const answer = request();
      const connection = await admin.waitForStatement('insert into `debt_payments`');
      const written = await admin.rowsWrittenBy(connection);
      if (written === 0) tally.fail('the notification\'s transaction had written nothing when its connection was killed');
      await admin.kill(connection);
      // The sandbox helper delivers again by itself: let its next attempt wait on the lock too, then release it.
      return await Promise.race([answer, new Promise<null>((resolve) => setTimeout(() => resolve(null), 500))]).then(async (early) => {
        await blocker.rollback();
        return early ?? answer;
      });
    } catch (error) {
      await blocker.rollback().catch(() => undefined);
      throw error;
    }
  }

  it('nothing of a dropped notification is kept; delivered again it is recorded once (by the provider, and by the sandbox helper itself)', async () => {
    const tally = new Tally('cash [mysql] connection dropped while recording a notification');
    const { t, companyId, debt, instruct } = await cashTenant(api);
    const db = api.infra.db!;
    const sent: Sent[] = [];
    // Payments on both sides of the held gap keep it narrow.
    const before = await debt('drop-before', { amount: 5 });
    const target = await debt('drop-target', { amount: 120 });
    const after = await debt('drop-after', { amount: 5 });
    for (const d of [before, after]) expectOk(await api.http.post(`/test-helpers/debts/${d.debtId}/pay`).set(t.headers).send({}), 201);
    const targetId = Number((await db('debts').where({ company_id: companyId, external_request_id: 'drop-target' }).first()).id);

    // The provider's delivery: 500 while the connection dies, nothing half-kept; delivered again, once.
    const instruction = await instruct(target.debtId, 'TRANSFER', 60);
    const s = notificationFor(instruction, 6_000);
    sent.push(s);
    const dropped = await dropWhileRecording(tally, targetId, () => deliver(api, s));
    tally.record(dropped.status === 503 ? envelopeProblem(dropped, { serverError: true }) : errorProblem(dropped, 500, 'INTERNAL_ERROR'));
    const kept = await db('provider_notifications').where({ transaction_id: s.transactionId }).count({ n: '*' }).first();
    const instructionRow = await db('payment_instructions').where({ code: instruction.paymentInstructionId.slice(4) }).first();
    tally.record(Number(kept?.n) === 0 && Number(instructionRow.amount_received_cents) === 0 ? null : `half-kept after the drop: ${kept?.n} notifications, ${instructionRow.amount_received_cents} received`);
    const again = await deliver(api, s);
    tally.record(envelopeProblem(again) ?? (again.body.data?.outcome !== 'APPLIED' || again.body.data.replayed ? `delivered again: ${JSON.stringify(again.body)}` : null));
    const third = await deliver(api, s);
    tally.record(third.body.data?.replayed === true ? null : `a third delivery: ${JSON.stringify(third.body)}`);

    // The sandbox helper: its first delivery dies with the connection, it delivers again by itself and answers 202.
    const cash = await instruct(target.debtId, 'CASH');
    const helped = await dropWhileRecording(tally, targetId, () => send(() => api.http.post(`/test-helpers/payment-instructions/${cash.paymentInstructionId}/receive`).set(t.headers).send({ amount: 80 })));
    tally.record(envelopeProblem(helped) ?? (helped.status !== 202 ? `the helper answered ${helped.status} ${JSON.stringify(helped.body)}` : null));
    sent.push({ transactionId: helped.body.data?.transactionId ?? 'none', body: '', cents: 8_000 });
    const now = expectOk(await api.http.get(`/debts/${target.debtId}`).set(t.headers));
    tally.record(now.status === 'PAID' && now.amountPaid === 120 ? null : `after both: ${now.status} ${now.amountPaid}`);

    // Twenty requests more: the pool let the dead connections go.
    for (let i = 0; i < 20; i++) tally.record(envelopeProblem(await send(() => api.http.get(`/payment-instructions/${cash.paymentInstructionId}`).set(t.headers))));
    await checkMoney(db, companyId, sent, tally);
    tally.report();
  });
});

describe('cash and transfer: a worker SIGKILLed while expiring instructions [mysql + redis + worker processes]', function () {
  this.timeout(180_000);
  let api: ApiHarness;
  let admin: MysqlAdmin;
  const workers: WorkerProcess[] = [];
  const startWorker = async () => {
    const worker = await startWorkerProcess({ DATABASE_URL: api.databaseUrl, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: api.queuePrefix, JWT_SECRET: JWT_TEST_SECRET });
    workers.push(worker);
    return worker;
  };

  before(async function () {
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    api = await startApi('mysql', { redisUrl: TEST_REDIS_URL });
    admin = openMysqlAdmin(api.databaseUrl);
  });

  after(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await admin?.close();
    await api?.close();
  });

  it('the run killed half-way expires each instruction once, with one payment_instruction.expired event each', async () => {
    const tally = new Tally('cash worker crash: expiring instructions');
    const db = api.infra.db!;
    // Three organizations, four vouchers each, all past their 72 hours on their clocks.
    const tenants: (Awaited<ReturnType<typeof cashTenant>> & { codes: string[] })[] = [];
    for (let n = 0; n < 3; n++) {
      const tenant = await cashTenant(api);
      const codes: string[] = [];
      for (let i = 0; i < 4; i++) {
        const d = await tenant.debt(`expiring-${i}`);
        codes.push((await tenant.instruct(d.debtId, 'CASH')).paymentInstructionId.slice(4));
      }
      expectOk(await api.http.put('/test-helpers/clock').set(tenant.t.headers).send({ now: '2031-05-14T00:00:00.000Z' }));
      tenants.push({ ...tenant, codes });
    }
    const statuses = async (codes: string[]) => (await db('payment_instructions').whereIn('code', codes).orderBy('id').pluck('status')) as string[];
    // The second organization's run waits on a row lock held on its third voucher.
    const blocker = await admin.db.transaction();
    await blocker('payment_instructions').where({ code: tenants[1]!.codes[2] }).forUpdate().select('id');
    const worker = await startWorker();
    await api.infra.ports.queue.enqueue({ name: 'payment-instructions.expire', data: {}, jobId: 'expire-crash' });
    await admin.waitForStatement('select `id` from `payment_instructions`');
    await waitFor(async () => (await statuses(tenants[0]!.codes)).every((s) => s === 'EXPIRED'), 'the first organization\'s vouchers EXPIRED', { timeoutMs: 15_000 });
    await worker.crash();
    // Half-way: the first organization's committed, the second's rolled back with the dead connection, the third's untouched.
    tally.record(JSON.stringify(await statuses(tenants[1]!.codes)) === JSON.stringify(['PENDING', 'PENDING', 'PENDING', 'PENDING']) ? null : 'the second organization was not rolled back');
    tally.record((await statuses(tenants[2]!.codes)).every((s) => s === 'PENDING') ? null : 'the third organization was expired before the crash');
    const queue = api.infra.jobs.bullmq!.queue;
    const active = (await queue.getActive()).map((job) => job.id!);
    tally.record(active.length > 0 ? null : 'no job was running in the dead worker');
    await blocker.rollback();
    for (const jobId of active) await expireStalledJob(queue, TEST_REDIS_URL, jobId);
    await startWorker();
    const all = tenants.flatMap((x) => x.codes);
    await waitFor(async () => (await statuses(all)).every((s) => s === 'EXPIRED'), 'every voucher EXPIRED', { timeoutMs: 60_000 });
    await api.drainJobs();
    for (const code of all) {
      const events = await db('events').where({ type: 'payment_instruction.expired', resource_id: `pin_${code}` }).count({ n: '*' }).first();
      tally.record(Number(events?.n) === 1 ? null : `pin_${code}: ${events?.n} expired events`);
    }
    // Money for an expired voucher still arrives: it is kept, not dropped.
    const late = expectOk(await api.http.get(`/payment-instructions/pin_${tenants[1]!.codes[2]}`).set(tenants[1]!.t.headers));
    const sent = notificationFor(late, 10_000);
    const res = await deliver(api, sent);
    tally.record(envelopeProblem(res) ?? (res.body.data?.outcome !== 'UNAPPLIED' ? `late money: ${res.body.data?.outcome}` : null));
    await checkMoney(db, tenants[1]!.companyId, [sent], tally);
    tally.report('checks');
  });
});
