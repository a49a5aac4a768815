/**
 * Idempotency races: 100 concurrent identical requests for each natural key, through the real
 * API, on SQLite and on MySQL. Each property checks that exactly one resource exists in the
 * database, that every answer is the documented one (a replayed debt is 201 with the stored
 * debt; a repeated link, subscription or contact key is 409 RESOURCE_CONFLICT; a product name
 * is 201 with the stored product), and that no answer is a 5xx.
 */
import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { concurrently, envelopeProblem, errorProblem } from './support/http';
import { Tally } from './support/summary';

const N = 100;

describeEachDatabase('idempotency races: 100 concurrent identical requests per natural key', ({ api }) => {
  let t: Tenant;
  let companyId = 0;
  const db = (): Knex => api().infra.db!;
  const http = () => api().http;
  const label = (what: string) => `idempotency [${api().kind}] ${what}`;
  const count = async (table: string, where: Record<string, unknown>): Promise<number> => {
    const [row] = await db()(table).where(where).count<{ n: number }[]>({ n: '*' });
    return Number(row!.n);
  };
  /** Exactly one row of `table` matches `where`, else a failure of the tally. */
  const expectOneRow = async (tally: Tally, table: string, where: Record<string, unknown>): Promise<void> => {
    const n = await count(table, where);
    if (n !== 1) tally.fail(`${n} rows in ${table} for ${JSON.stringify(where)}`);
  };
  const contactData = (externalClientId: string) => ({ externalClientId, name: 'Racing Debtor', email: 'racer@example.com' });
  const future = new Date(Date.now() + 30 * 24 * 3600 * 1000).toISOString();

  before(async function () {
    this.timeout(60_000);
    t = await api().newTenant();
    companyId = (await db()('companies').where({ code: t.companyCodes[0] }).first()).id;
  });

  it('debt Idempotency-Key (POST /v2/debts, a new inline contact): one debt, one contact, 100 × 201 with the stored debt, one not replayed', async function () {
    this.timeout(120_000);
    const tally = new Tally(label('debt Idempotency-Key'));
    const answers = await concurrently(N, () =>
      http().post('/v2/debts').set(t.headers).set('Idempotency-Key', 'race-debt').send({ contactData: contactData('race-debt-client'), amount: 12.5, dueDate: '2031-05-01' }),
    );
    const created = answers.filter((r) => r.status === 201 && r.headers['idempotent-replayed'] !== 'true');
    for (const res of answers) {
      tally.record(
        envelopeProblem(res) ??
          (res.status !== 201 ? `expected 201, got ${res.status} ${JSON.stringify(res.body)}` : null) ??
          (res.body.data.debtId !== 'debt_race-debt' || res.body.data.amount !== 12.5 ? `unexpected debt ${JSON.stringify(res.body.data)}` : null),
      );
    }
    if (created.length !== 1) tally.fail(`${created.length} answers without Idempotent-Replayed (one request creates the debt)`);
    await expectOneRow(tally, 'debts', { company_id: companyId, external_request_id: 'race-debt' });
    await expectOneRow(tally, 'contacts', { organization_id: t.organizationId, external_client_id: 'race-debt-client' });
    tally.report();
  });

  it('batch externalRequestIds (100 overlapping batches of 10 over 30 keys, half of them in reverse order): one debt per key, every item answered with it, 201 everywhere', async function () {
    this.timeout(120_000);
    const tally = new Tally(label('batch externalRequestIds'));
    const keys = Array.from({ length: 30 }, (_, i) => `race-batch-${i}`);
    // Batch i takes 10 consecutive keys from i mod 21: every key is in several batches, and
    // batches i and i + 21 hold the same keys. Odd batches list them in reverse order: two
    // batches writing shared keys in opposite orders can deadlock on InnoDB, and the victim
    // must still answer 201 (its transaction runs again).
    const batchKeys = (i: number) => {
      const taken = keys.slice(i % 21, (i % 21) + 10);
      return i % 2 === 1 ? taken.reverse() : taken;
    };
    const item = (key: string) => ({ externalRequestId: key, contactData: contactData('race-batch-client'), amount: 7, dueDate: '2031-06-01' });
    const answers = await concurrently(N, (i) => http().post('/v2/debts').set(t.headers).send({ debts: batchKeys(i).map(item) }));
    const debtIdOf = new Map<string, Set<string>>();
    answers.forEach((res, i) => {
      const problem =
        envelopeProblem(res) ??
        (res.status !== 201 ? `batch ${i}: expected 201, got ${res.status} ${JSON.stringify(res.body).slice(0, 400)}` : null) ??
        (JSON.stringify(res.body.data.map((d: { externalRequestId: string }) => d.externalRequestId)) !== JSON.stringify(batchKeys(i))
          ? `batch ${i}: items answered out of order or missing`
          : null);
      tally.record(problem);
      if (!problem) for (const debt of res.body.data) (debtIdOf.get(debt.externalRequestId) ?? debtIdOf.set(debt.externalRequestId, new Set()).get(debt.externalRequestId)!).add(debt.debtId);
    });
    for (const key of keys) {
      await expectOneRow(tally, 'debts', { company_id: companyId, external_request_id: key });
      if (debtIdOf.get(key)?.size !== 1) tally.fail(`${key} answered as ${[...(debtIdOf.get(key) ?? [])].join(', ') || 'nothing'}`);
    }
    // Each debt carries the batchId of the one batch answer that created it.
    const batchIds = new Set(answers.map((r) => r.body.batchId));
    for (const row of await db()('debts').where({ company_id: companyId }).whereIn('external_request_id', keys)) {
      if (!batchIds.has(row.batch_id)) tally.fail(`${row.external_request_id} carries batchId ${row.batch_id} of no answer`);
    }
    await expectOneRow(tally, 'contacts', { organization_id: t.organizationId, external_client_id: 'race-batch-client' });
    tally.report();
  });

  const linkRace = (how: 'externalPaymentLinkId' | 'Idempotency-Key') =>
    it(`payment link key by ${how} (a new inline contact and product): one link, one debt, 1 × 201 and 99 × 409`, async function () {
      this.timeout(120_000);
      const key = `race-link-${how === 'Idempotency-Key' ? 'header' : 'body'}`;
      const tally = new Tally(label(`payment link ${how}`));
      const body = {
        amount: 30,
        description: 'Racing link',
        expiresAt: future,
        contactData: contactData(`${key}-client`),
        productName: `${key} product`,
        ...(how === 'externalPaymentLinkId' ? { externalPaymentLinkId: key } : {}),
      };
      const answers = await concurrently(N, () => {
        const req = http().post('/payment-links').set(t.headers);
        return (how === 'Idempotency-Key' ? req.set('Idempotency-Key', key) : req).send(body);
      });
      expectOneWinner(tally, answers, (res) => (res.body.data.externalPaymentLinkId !== key ? `link answered with key ${res.body.data.externalPaymentLinkId}` : null));
      await expectOneRow(tally, 'payment_links', { organization_id: t.organizationId, external_payment_link_id: key });
      const link = await db()('payment_links').where({ organization_id: t.organizationId, external_payment_link_id: key }).first();
      if (link) await expectOneRow(tally, 'debts', { company_id: companyId, payment_link_id: link.id });
      await expectOneRow(tally, 'contacts', { organization_id: t.organizationId, external_client_id: `${key}-client` });
      await expectOneRow(tally, 'products', { company_id: companyId, name: `${key} product` });
      tally.report();
    });
  linkRace('externalPaymentLinkId');
  linkRace('Idempotency-Key');

  it('subscription externalSubscriptionId (a new inline contact and product): one subscription, its 12 cycles once, 1 × 201 and 99 × 409', async function () {
    this.timeout(120_000);
    const tally = new Tally(label('subscription externalSubscriptionId'));
    const body = {
      externalSubscriptionId: 'race-sub',
      contactData: contactData('race-sub-client'),
      amount: 99,
      intervalUnit: 'month',
      intervalCount: 1,
      startDate: '2031-01-15',
      totalCycles: 12,
      productName: 'race-sub product',
    };
    const answers = await concurrently(N, () => http().post('/subscriptions').set(t.headers).send(body));
    expectOneWinner(tally, answers, (res) => (res.body.data.externalSubscriptionId !== 'race-sub' ? 'subscription answered with another key' : null));
    await expectOneRow(tally, 'subscriptions', { organization_id: t.organizationId, external_subscription_id: 'race-sub' });
    await expectOneRow(tally, 'contacts', { organization_id: t.organizationId, external_client_id: 'race-sub-client' });
    await expectOneRow(tally, 'products', { company_id: companyId, name: 'race-sub product' });
    await api().drainJobs();
    const subscription = await db()('subscriptions').where({ organization_id: t.organizationId, external_subscription_id: 'race-sub' }).first();
    if (subscription) {
      const cycles = await count('debts', { subscription_id: subscription.id });
      if (cycles !== 12) tally.fail(`${cycles} cycle debts instead of 12`);
    }
    tally.report();
  });

  it('contact externalClientId (POST /contacts): one contact, 1 × 201 and 99 × 409', async function () {
    this.timeout(120_000);
    const tally = new Tally(label('contact externalClientId'));
    const answers = await concurrently(N, () => http().post('/contacts').set(t.headers).send({ ...contactData('race-contact'), phones: [{ number: '+52 55 1234 5678', type: 'MOBILE' }] }));
    expectOneWinner(tally, answers, (res) => (res.body.data.externalClientId !== 'race-contact' ? 'contact answered with another key' : null));
    await expectOneRow(tally, 'contacts', { organization_id: t.organizationId, external_client_id: 'race-contact' });
    tally.report();
  });

  it('product name (POST /products): one product, 100 × 201 with the same stored product', async function () {
    this.timeout(120_000);
    const tally = new Tally(label('product name'));
    const answers = await concurrently(N, () => http().post('/products').set(t.headers).send({ name: 'Race product', externalProductId: 'race-ext' }));
    const ids = new Set<string>();
    for (const res of answers) {
      const problem = envelopeProblem(res) ?? (res.status !== 201 ? `expected 201, got ${res.status} ${JSON.stringify(res.body)}` : null);
      tally.record(problem);
      if (!problem) ids.add(res.body.data.productId);
    }
    if (ids.size !== 1) tally.fail(`answered ${ids.size} different productIds: ${[...ids].join(', ')}`);
    await expectOneRow(tally, 'products', { company_id: companyId, name: 'Race product' });
    tally.report();
  });
});

/** Exactly one 201 (checked by `winner`), every other answer 409 RESOURCE_CONFLICT in the envelope. */
function expectOneWinner(tally: Tally, answers: Response[], winner: (res: Response) => string | null): void {
  const created = answers.filter((r) => r.status === 201);
  for (const res of answers) tally.record(res.status === 201 ? (envelopeProblem(res) ?? winner(res)) : errorProblem(res, 409, 'RESOURCE_CONFLICT'));
  if (created.length !== 1) tally.fail(`${created.length} answers were 201 (exactly one request creates it)`);
}

