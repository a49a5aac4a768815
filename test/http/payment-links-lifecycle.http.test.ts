import { expect } from 'chai';
import type supertest from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectNotFound, expectOk as expectData, expectRuleViolation } from '../support/http-expect';

/**
 * Payment links after creation, through HTTP: GET by id, the list (sort, every filter, paging),
 * PATCH, cancel, the sandbox pay helper, the payment records of a link and expiry (computed
 * on read with a frozen clock, persisted by the job). Creation rules live in their own file.
 */

const LINK_KEYS = [
  'amount', 'contact', 'createdAt', 'currency', 'debtId', 'description', 'expiresAt', 'externalPaymentLinkId', 'identifierValue',
  'metadata', 'paymentLinkId', 'paymentUrl', 'product', 'singleUse', 'status', 'successUrl',
].sort();
const PAYMENT_KEYS = ['amount', 'amountPaid', 'createdAt', 'currency', 'paymentId', 'status'];
const PAYMENT_ID = /^debt_\d+$/;
const FAR = '2099-12-31T23:59:59.000Z';

interface Link {
  paymentLinkId: string;
  externalPaymentLinkId: string | null;
  debtId: string;
  status: string;
  amount: number;
  currency: string;
  description: string;
  singleUse: boolean;
  expiresAt: string | null;
  successUrl: string | null;
  metadata: Record<string, unknown> | null;
  paymentUrl: string | null;
  identifierValue: string | null;
  createdAt: string;
}

interface Payment {
  paymentId: string;
  status: string;
  amount: number;
  amountPaid: number;
  currency: string;
  createdAt: string;
}

type Query = Record<string, string | number>;

const expectInvalid = (res: supertest.Response, field: string) => expectError(res, 400, 'INVALID_REQUEST', field);

const expectOk = expectData<Link>;

/** A list answer's links as `externalPaymentLinkId ?? description`, in the order given. */
function namesOf(res: supertest.Response): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.data as Link[]).map((l) => l.externalPaymentLinkId ?? l.description);
}

const iso = (text: string) => new Date(text).toISOString();

describeEachDatabase('payment links lifecycle', ({ api }) => {
  const http = () => api().http;
  const getLink = (t: Tenant, id: string, query: Query = {}) => http().get(`/payment-links/${id}`).set(t.headers).query(query);
  const list = (t: Tenant, query: Query = {}) => http().get('/payment-links').set(t.headers).query(query);
  const patch = (t: Tenant, id: string, body: unknown) => http().patch(`/payment-links/${id}`).set(t.headers).send(body as object);
  const cancel = (t: Tenant, id: string) => http().post(`/payment-links/${id}/cancel`).set(t.headers);
  const pay = (t: Tenant, id: string, body?: unknown) => {
    const req = http().post(`/test-helpers/payment-links/${id}/pay`).set(t.headers);
    return body === undefined ? req : req.send(body as object);
  };
  const payments = (t: Tenant, id: string, query: Query = {}) => http().get(`/payment-links/${id}/payments`).set(t.headers).query(query);
  const getDebt = async (t: Tenant, debtId: string) => expectData<Record<string, unknown>>(await http().get(`/debts/${debtId}`).set(t.headers));

  async function freeze(t: Tenant, now: string): Promise<void> {
    const res = await http().put('/test-helpers/clock').set(t.headers).send({ now });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.deep.equal({ now: iso(now), frozen: true });
  }

  /** POST /payment-links; defaults: 100.00, description "Order", expiring far in the future. */
  async function create(t: Tenant, fields: Record<string, unknown> = {}): Promise<Link> {
    const res = await http().post('/payment-links').set(t.headers).send({ amount: 100, description: 'Order', expiresAt: FAR, ...fields });
    return expectOk(res, 201);
  }

  /** A link whose key is `key` (the name list answers are read by). */
  const keyed = (t: Tenant, key: string, fields: Record<string, unknown> = {}) => create(t, { externalPaymentLinkId: key, ...fields });

  /** Creates `key` with the organization's clock frozen at `at` (its createdAt). */
  async function createAt(t: Tenant, at: string, key: string): Promise<Link> {
    await freeze(t, at);
    const link = await keyed(t, key, { expiresAt: '2026-12-31T00:00:00Z' });
    expect(link.createdAt).to.equal(iso(at));
    return link;
  }

  /** The link's status as stored (not as computed on read). */
  async function storedStatus(link: Link): Promise<string> {
    const row = await api().infra.db!('payment_links').where({ code: link.paymentLinkId.slice('plk_'.length) }).first('status');
    return row.status;
  }

  describe('GET /payment-links/{id}', () => {
    it('reads a link by plk_<code> and by the bare code, with every key of the shape', async () => {
      const t = await api().newTenant();
      const created = await create(t, { amount: 12.5, metadata: { order: 7 } });
      const byId = expectOk(await getLink(t, created.paymentLinkId));
      const byCode = expectOk(await getLink(t, created.paymentLinkId.slice('plk_'.length)));
      expect(Object.keys(byId).sort()).to.deep.equal(LINK_KEYS);
      expect(byId).to.deep.equal(created);
      expect(byCode).to.deep.equal(created);
      expect(byId).to.deep.include({ status: 'ACTIVE', amount: 12.5, metadata: { order: 7 }, expiresAt: FAR });
    });

    it('answers 404 RESOURCE_NOT_FOUND for unknown ids and other forms', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectNotFound(await getLink(t, 'plk_doesNotExist0000000'));
      expectNotFound(await getLink(t, 'doesNotExist0000000'));
      expectNotFound(await getLink(t, 'plk_'));
      expectNotFound(await getLink(t, link.debtId));
      expectNotFound(await getLink(t, `plk_${link.paymentLinkId}`));
    });

    it("answers 404 for another tenant's link and for another company's link of a multi-company client", async () => {
      const owner = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = owner.companyCodes as [string, string];
      const link = await create(owner, { companyCode: a });
      const stranger = await api().newTenant();
      expectNotFound(await getLink(stranger, link.paymentLinkId));
      expectNotFound(await getLink(stranger, link.paymentLinkId.slice('plk_'.length)));
      expectNotFound(await getLink(owner, link.paymentLinkId, { companyCode: b }));
      expect(namesOf(await list(owner, { companyCode: b }))).to.deep.equal([]);
      expect(expectOk(await getLink(owner, link.paymentLinkId, { companyCode: a })).paymentLinkId).to.equal(link.paymentLinkId);
      expectInvalid(await getLink(owner, link.paymentLinkId), 'companyCode');
    });
  });

  describe('GET /payment-links', () => {
    it('sorts by externalPaymentLinkId descending, links without one last and newest first, not by creation date', async () => {
      const t = await api().newTenant();
      await create(t, { description: 'null-1' });
      await keyed(t, 'b');
      await create(t, { description: 'null-2' });
      await keyed(t, 'a');
      await keyed(t, 'c');
      await create(t, { description: 'null-3' });
      const res = await list(t);
      expect(namesOf(res)).to.deep.equal(['c', 'b', 'a', 'null-3', 'null-2', 'null-1']);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 6, hasMore: false, capped: false });
      expect(Object.keys(res.body.data[0]).sort()).to.deep.equal(LINK_KEYS);
    });

    it('pages with page and limit over the same order; meta carries capped false', async () => {
      const t = await api().newTenant();
      for (const key of ['k1', 'k4', 'k2', 'k5', 'k3']) await keyed(t, key);
      const second = await list(t, { page: 2, limit: 2 });
      expect(namesOf(second)).to.deep.equal(['k3', 'k2']);
      expect(second.body.meta).to.deep.equal({ page: 2, limit: 2, total: 5, hasMore: true, capped: false });
      const last = await list(t, { page: 3, limit: 2 });
      expect(namesOf(last)).to.deep.equal(['k1']);
      expect(last.body.meta).to.deep.equal({ page: 3, limit: 2, total: 5, hasMore: false, capped: false });
      const beyond = await list(t, { page: 4, limit: 2 });
      expect(namesOf(beyond)).to.deep.equal([]);
      expect(beyond.body.meta).to.deep.equal({ page: 4, limit: 2, total: 5, hasMore: false, capped: false });
      expect(namesOf(await list(t, { limit: 500 }))).to.have.length(5);
      expect(namesOf(await list(t, { limit: 1 }))).to.deep.equal(['k5']);
    });

    it('rejects page 0, limit 0, limit 501 and non-numbers with 400 naming the parameter', async () => {
      const t = await api().newTenant();
      expectInvalid(await list(t, { limit: 0 }), 'limit');
      expectInvalid(await list(t, { limit: 501 }), 'limit');
      expectInvalid(await list(t, { limit: 'ten' }), 'limit');
      expectInvalid(await list(t, { page: 0 }), 'page');
      expectInvalid(await list(t, { page: -1 }), 'page');
    });

    it('filters by status (case-sensitive), EXPIRED including ACTIVE links past expiresAt on the frozen clock', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      await keyed(t, 'active', { expiresAt: '2026-12-31T00:00:00Z' });
      const paid = await keyed(t, 'paid', { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await pay(t, paid.paymentLinkId), 201);
      const cancelled = await keyed(t, 'cancelled', { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await cancel(t, cancelled.paymentLinkId));
      await keyed(t, 'expiring', { expiresAt: '2026-03-11T00:00:00Z' });
      expect(namesOf(await list(t, { status: 'EXPIRED' }))).to.deep.equal([]);
      expect(namesOf(await list(t, { status: 'ACTIVE' }))).to.deep.equal(['expiring', 'active']);

      await freeze(t, '2026-03-11T00:00:00.000Z');
      expect(namesOf(await list(t, { status: 'ACTIVE' }))).to.deep.equal(['active']);
      expect(namesOf(await list(t, { status: 'PAID' }))).to.deep.equal(['paid']);
      expect(namesOf(await list(t, { status: 'CANCELLED' }))).to.deep.equal(['cancelled']);
      const expired = await list(t, { status: 'EXPIRED' });
      expect(namesOf(expired)).to.deep.equal(['expiring']);
      expect(expired.body.data[0].status).to.equal('EXPIRED');
      expect(expired.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false, capped: false });
      expect(namesOf(await list(t))).to.deep.equal(['paid', 'expiring', 'cancelled', 'active']);
    });

    it('rejects a status in another case or outside the enum with 400 field status', async () => {
      const t = await api().newTenant();
      expectInvalid(await list(t, { status: 'active' }), 'status');
      expectInvalid(await list(t, { status: 'Expired' }), 'status');
      expectInvalid(await list(t, { status: 'PENDING' }), 'status');
    });

    it('filters by externalPaymentLinkId exactly (no prefix match, case-sensitive)', async () => {
      const t = await api().newTenant();
      await keyed(t, 'ord-1');
      await keyed(t, 'ord-10');
      await keyed(t, 'ORD-1');
      await create(t, { description: 'none' });
      expect(namesOf(await list(t, { externalPaymentLinkId: 'ord-1' }))).to.deep.equal(['ord-1']);
      expect(namesOf(await list(t, { externalPaymentLinkId: 'ORD-1' }))).to.deep.equal(['ORD-1']);
      expect(namesOf(await list(t, { externalPaymentLinkId: 'ord' }))).to.deep.equal([]);
      expect(namesOf(await list(t, { externalPaymentLinkId: 'unknown' }))).to.deep.equal([]);
    });

    it("filters by debtId exactly: the link's debt_plk_<code> only", async () => {
      const t = await api().newTenant();
      const one = await keyed(t, 'one', { singleUse: false });
      await keyed(t, 'two');
      expect(one.debtId).to.equal(`debt_${one.paymentLinkId}`);
      const res = await list(t, { debtId: one.debtId });
      expect(namesOf(res)).to.deep.equal(['one']);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false, capped: false });
      expect(namesOf(await list(t, { debtId: one.paymentLinkId }))).to.deep.equal([]);
      expect(namesOf(await list(t, { debtId: one.paymentLinkId.slice('plk_'.length) }))).to.deep.equal([]);
      expect(namesOf(await list(t, { debtId: `${one.debtId}x` }))).to.deep.equal([]);
      expectOk(await pay(t, one.paymentLinkId), 201);
      const records = (await payments(t, one.paymentLinkId, { status: 'PAID' })).body.data as Payment[];
      expect(records).to.have.length(1);
      expect(namesOf(await list(t, { debtId: records[0]!.paymentId }))).to.deep.equal([]);
    });

    describe('createdAtFrom / createdAtTo', () => {
      /**
       * Links created at known instants, keys sorting in creation order:
       * a = 03-09 23:59:59.999, b = 03-10 00:00, c = 03-10 12:00, d = 03-10 23:59:59.999, e = 03-11 00:00.
       */
      async function instantsFixture(): Promise<Tenant> {
        const t = await api().newTenant();
        await createAt(t, '2026-03-09T23:59:59.999Z', 'a');
        await createAt(t, '2026-03-10T00:00:00.000Z', 'b');
        await createAt(t, '2026-03-10T12:00:00.000Z', 'c');
        await createAt(t, '2026-03-10T23:59:59.999Z', 'd');
        await createAt(t, '2026-03-11T00:00:00.000Z', 'e');
        await freeze(t, '2026-03-12T12:00:00.000Z');
        return t;
      }

      it('a plain date covers its whole UTC day; date-times compare exactly to the millisecond, inclusive', async () => {
        const t = await instantsFixture();
        const names = async (query: Query) => namesOf(await list(t, query));
        expect(await names({ createdAtFrom: '2026-03-10', createdAtTo: '2026-03-10' })).to.deep.equal(['d', 'c', 'b']);
        expect(await names({ createdAtFrom: '2026-03-10' })).to.deep.equal(['e', 'd', 'c', 'b']);
        expect(await names({ createdAtTo: '2026-03-10' })).to.deep.equal(['d', 'c', 'b', 'a']);

        expect(await names({ createdAtFrom: '2026-03-10T12:00:00.000Z' })).to.deep.equal(['e', 'd', 'c']);
        expect(await names({ createdAtFrom: '2026-03-10T12:00:00.001Z' })).to.deep.equal(['e', 'd']);
        expect(await names({ createdAtTo: '2026-03-10T12:00:00.000Z' })).to.deep.equal(['c', 'b', 'a']);
        expect(await names({ createdAtTo: '2026-03-10T11:59:59.999Z' })).to.deep.equal(['b', 'a']);
        expect(await names({ createdAtFrom: '2026-03-10T12:00:00.000Z', createdAtTo: '2026-03-10T12:00:00.000Z' })).to.deep.equal(['c']);
        // Same instant with an offset; without milliseconds.
        expect(await names({ createdAtFrom: '2026-03-10T14:00:00+02:00' })).to.deep.equal(['e', 'd', 'c']);
        expect(await names({ createdAtFrom: '2026-03-09T23:59:59.999Z', createdAtTo: '2026-03-10T00:00:00Z' })).to.deep.equal(['b', 'a']);
        expect(await names({ createdAtFrom: '2026-03-10T23:59:59.999Z', createdAtTo: '2026-03-11' })).to.deep.equal(['e', 'd']);
        // A date-time is not widened to its day.
        expect(await names({ createdAtTo: '2026-03-10T00:00:00.000Z' })).to.deep.equal(['b', 'a']);
      });

      it('rejects invalid formats with 400 naming the bound, and from after to with field createdAtFrom', async () => {
        const t = await api().newTenant();
        for (const bad of ['2026-03-10 12:00', '2026-03-10T12:00Z', '2026-13-01', '2026-02-30', '2026-02-30T00:00:00Z', '10/03/2026', 'yesterday', '2026-03-10T12:00:00']) {
          expectInvalid(await list(t, { createdAtFrom: bad }), 'createdAtFrom');
          expectInvalid(await list(t, { createdAtTo: bad }), 'createdAtTo');
        }
        expectInvalid(await list(t, { createdAtFrom: '2026-03-11', createdAtTo: '2026-03-10' }), 'createdAtFrom');
        expectInvalid(await list(t, { createdAtFrom: '2026-03-10T12:00:00.001Z', createdAtTo: '2026-03-10T12:00:00.000Z' }), 'createdAtFrom');
        expect(namesOf(await list(t, { createdAtFrom: '2026-03-10', createdAtTo: '2026-03-10' }))).to.deep.equal([]);
      });
    });
  });

  describe('PATCH /payment-links/{id}', () => {
    it('changes the description on the link only; the rest of the link and its debt stay as they were', async () => {
      const t = await api().newTenant();
      const link = await create(t, { description: 'Before', metadata: { k: 'v' } });
      const debtBefore = await getDebt(t, link.debtId);
      const updated = expectOk(await patch(t, link.paymentLinkId, { description: 'After' }));
      expect(updated).to.deep.equal({ ...link, description: 'After' });
      expect(expectOk(await getLink(t, link.paymentLinkId))).to.deep.equal(updated);
      expect(await getDebt(t, link.debtId)).to.deep.equal(debtBefore);
      expect(debtBefore.description).to.equal('Before');
    });

    it("moves expiresAt (returned in UTC with ms) and the associated debt's dueDate to its UTC date", async () => {
      const t = await api().newTenant();
      const link = await create(t, { expiresAt: '2099-05-01T10:00:00Z' });
      expect((await getDebt(t, link.debtId)).dueDate).to.equal('2099-05-01');
      const updated = expectOk(await patch(t, link.paymentLinkId, { expiresAt: '2099-06-01T22:30:00-03:00' }));
      expect(updated).to.deep.equal({ ...link, expiresAt: '2099-06-02T01:30:00.000Z' });
      expect(expectOk(await getLink(t, link.paymentLinkId)).expiresAt).to.equal('2099-06-02T01:30:00.000Z');
      const debt = await getDebt(t, link.debtId);
      expect(debt).to.deep.include({ dueDate: '2099-06-02', status: 'PENDING', amount: 100 });
    });

    it('changes only the link when its debt was cancelled', async () => {
      const t = await api().newTenant();
      const link = await create(t, { expiresAt: '2099-05-01T10:00:00Z' });
      expect(expectData<Record<string, unknown>>(await http().post(`/debts/${link.debtId}/cancel`).set(t.headers)).status).to.equal('CANCELLED');
      const updated = expectOk(await patch(t, link.paymentLinkId, { expiresAt: '2099-07-15T00:00:00.000Z', description: 'New' }));
      expect(updated).to.deep.include({ expiresAt: '2099-07-15T00:00:00.000Z', description: 'New', status: 'ACTIVE' });
      expect(await getDebt(t, link.debtId)).to.deep.include({ dueDate: '2099-05-01', status: 'CANCELLED' });
    });

    it('replaces metadata as a whole', async () => {
      const t = await api().newTenant();
      const link = await create(t, { metadata: { a: 1, b: 'x' } });
      const updated = expectOk(await patch(t, link.paymentLinkId, { metadata: { c: true } }));
      expect(updated.metadata).to.deep.equal({ c: true });
      expect(expectOk(await getLink(t, link.paymentLinkId)).metadata).to.deep.equal({ c: true });
      expect(expectOk(await patch(t, link.paymentLinkId, { metadata: {} })).metadata).to.deep.equal({});
      const linkWithout = await create(t);
      expect(linkWithout.metadata).to.equal(null);
      expect(expectOk(await patch(t, linkWithout.paymentLinkId, { metadata: { n: null, s: 's' } })).metadata).to.deep.equal({ n: null, s: 's' });
    });

    it('accepts expiresAt 1 ms after the frozen now and rejects now itself and the past with 400 field expiresAt', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const link = await create(t, { expiresAt: '2026-03-20T00:00:00Z' });
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '2026-03-10T12:00:00.000Z' }), 'expiresAt');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '2026-03-01T00:00:00Z' }), 'expiresAt');
      expect(expectOk(await getLink(t, link.paymentLinkId)).expiresAt).to.equal('2026-03-20T00:00:00.000Z');
      expect((await getDebt(t, link.debtId)).dueDate).to.equal('2026-03-20');
      expect(expectOk(await patch(t, link.paymentLinkId, { expiresAt: '2026-03-10T12:00:00.001Z' })).expiresAt).to.equal('2026-03-10T12:00:00.001Z');
      expect((await getDebt(t, link.debtId)).dueDate).to.equal('2026-03-10');
    });

    it('rejects an empty body, nulls, non-object metadata and malformed values with 400 naming the field; nothing changes', async () => {
      const t = await api().newTenant();
      const link = await create(t, { metadata: { keep: 1 } });
      expectInvalid(await patch(t, link.paymentLinkId, {}), 'body');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: null }), 'expiresAt');
      expectInvalid(await patch(t, link.paymentLinkId, { metadata: null }), 'metadata');
      expectInvalid(await patch(t, link.paymentLinkId, { metadata: [1, 2] }), 'metadata');
      expectInvalid(await patch(t, link.paymentLinkId, { metadata: 'text' }), 'metadata');
      expectInvalid(await patch(t, link.paymentLinkId, { metadata: { nested: { a: 1 } } }), 'metadata');
      expectInvalid(await patch(t, link.paymentLinkId, { description: null }), 'description');
      expectInvalid(await patch(t, link.paymentLinkId, { description: '   ' }), 'description');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '2099-06-01' }), 'expiresAt');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '2099-06-01 10:00' }), 'expiresAt');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '2099-06-01T10:00:00' }), 'expiresAt');
      expectInvalid(await patch(t, link.paymentLinkId, { expiresAt: '9999-12-31T23:59:59-00:01' }), 'expiresAt');
      expect(expectOk(await getLink(t, link.paymentLinkId))).to.deep.equal(link);
    });

    it('rejects amount, currency, singleUse, successUrl and any other field with 400 naming it, even beside valid ones', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      const others: Record<string, unknown> = {
        amount: 5, currency: 'USD', singleUse: false, successUrl: 'https://example.com/ok', externalPaymentLinkId: 'x', status: 'PAID',
        identifierValue: 'abc', productName: 'P',
      };
      for (const [field, value] of Object.entries(others)) {
        expectInvalid(await patch(t, link.paymentLinkId, { [field]: value }), field);
        expectInvalid(await patch(t, link.paymentLinkId, { description: 'Changed', [field]: value }), field);
      }
      expect(expectOk(await getLink(t, link.paymentLinkId))).to.deep.equal(link);
    });

    it('answers 422 for PAID, EXPIRED and CANCELLED links, before looking at the body', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const paid = await create(t, { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await pay(t, paid.paymentLinkId), 201);
      const cancelled = await create(t, { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await cancel(t, cancelled.paymentLinkId));
      const expiring = await create(t, { expiresAt: '2026-03-11T00:00:00Z' });
      await freeze(t, '2026-03-11T00:00:00.000Z');
      expect(expectOk(await getLink(t, expiring.paymentLinkId)).status).to.equal('EXPIRED');
      for (const link of [paid, cancelled, expiring]) {
        expectRuleViolation(await patch(t, link.paymentLinkId, { description: 'Valid' }));
        expectRuleViolation(await patch(t, link.paymentLinkId, { amount: 5 }));
        expectRuleViolation(await patch(t, link.paymentLinkId, {}));
        expectRuleViolation(await patch(t, link.paymentLinkId, { expiresAt: '2099-01-01T00:00:00Z' }));
      }
      expect(expectOk(await getLink(t, paid.paymentLinkId))).to.deep.include({ status: 'PAID', description: 'Order' });
    });

    it('answers 404 for an unknown link and for a link of another tenant', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectNotFound(await patch(t, 'plk_unknown', { description: 'x' }));
      const stranger = await api().newTenant();
      expectNotFound(await patch(stranger, link.paymentLinkId, { description: 'x' }));
      expect(expectOk(await getLink(t, link.paymentLinkId)).description).to.equal('Order');
    });
  });

  describe('POST /payment-links/{id}/cancel', () => {
    it('cancels an ACTIVE link and its associated debt; cancelling again answers 200 unchanged', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      const first = expectOk(await cancel(t, link.paymentLinkId));
      expect(first).to.deep.equal({ ...link, status: 'CANCELLED' });
      expect((await getDebt(t, link.debtId)).status).to.equal('CANCELLED');
      expect(expectOk(await getLink(t, link.paymentLinkId))).to.deep.equal(first);
      const again = expectOk(await cancel(t, link.paymentLinkId.slice('plk_'.length)));
      expect(again).to.deep.equal(first);
      expect((await getDebt(t, link.debtId)).status).to.equal('CANCELLED');
    });

    it('cancels the link also when its debt was already cancelled', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectOk(await http().post(`/debts/${link.debtId}/cancel`).set(t.headers));
      expect(expectOk(await cancel(t, link.paymentLinkId)).status).to.equal('CANCELLED');
      expect((await getDebt(t, link.debtId)).status).to.equal('CANCELLED');
    });

    it('answers 422 for a PAID link and leaves it and its debt PAID', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectOk(await pay(t, link.paymentLinkId), 201);
      expectRuleViolation(await cancel(t, link.paymentLinkId));
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('PAID');
      expect((await getDebt(t, link.debtId)).status).to.equal('PAID');
    });

    it('answers 422 for an EXPIRED link (frozen clock past expiresAt) and does not cancel its debt', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const link = await create(t, { expiresAt: '2026-03-10T13:00:00Z' });
      await freeze(t, '2026-03-10T13:00:00.000Z');
      expectRuleViolation(await cancel(t, link.paymentLinkId));
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('EXPIRED');
      expect((await getDebt(t, link.debtId)).status).to.not.equal('CANCELLED');
    });

    it('answers 404 for an unknown link', async () => {
      const t = await api().newTenant();
      expectNotFound(await cancel(t, 'plk_unknown'));
    });
  });

  describe('POST /test-helpers/payment-links/{id}/pay', () => {
    it('pays a single-use link: PAID, its debt PAID with the link amount; a second payment is 422', async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 75.25 });
      const paid = expectOk(await pay(t, link.paymentLinkId), 201);
      expect(paid).to.deep.equal({ ...link, status: 'PAID' });
      expect(await getDebt(t, link.debtId)).to.deep.include({ status: 'PAID', amount: 75.25, amountPaid: 75.25 });
      expectRuleViolation(await pay(t, link.paymentLinkId));
      expectRuleViolation(await pay(t, link.paymentLinkId, { amount: 75.25 }));
      expect((await getDebt(t, link.debtId)).amountPaid).to.equal(75.25);
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('PAID');
    });

    it('accepts an explicit amount equal to the link amount on a single-use link', async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 20 });
      expect(expectOk(await pay(t, link.paymentLinkId.slice('plk_'.length), { amount: 20 }), 201).status).to.equal('PAID');
    });

    it('answers 422 on a single-use link for an amount other than the link amount; nothing is paid', async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 100 });
      expectRuleViolation(await pay(t, link.paymentLinkId, { amount: 50 }));
      expectRuleViolation(await pay(t, link.paymentLinkId, { amount: 100.01 }));
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('ACTIVE');
      expect(await getDebt(t, link.debtId)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
    });

    it('keeps a reusable link ACTIVE and adds a PAID payment record per payment', async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 100, singleUse: false });
      expect(expectOk(await pay(t, link.paymentLinkId), 201)).to.deep.equal(link);
      expect(expectOk(await pay(t, link.paymentLinkId, { amount: 25.5 }), 201).status).to.equal('ACTIVE');
      const records = (await payments(t, link.paymentLinkId, { status: 'PAID' })).body.data as Payment[];
      expect(records.map((r) => [r.amount, r.amountPaid, r.status])).to.deep.equal([[25.5, 25.5, 'PAID'], [100, 100, 'PAID']]);
      expect(await getDebt(t, link.debtId)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('ACTIVE');
    });

    it('answers 422 on CANCELLED and EXPIRED links', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const cancelled = await create(t, { singleUse: false, expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await cancel(t, cancelled.paymentLinkId));
      expectRuleViolation(await pay(t, cancelled.paymentLinkId));
      const expiring = await create(t, { singleUse: false, expiresAt: '2026-03-10T13:00:00Z' });
      const single = await create(t, { expiresAt: '2026-03-10T13:00:00Z' });
      await freeze(t, '2026-03-10T13:00:00.000Z');
      expectRuleViolation(await pay(t, expiring.paymentLinkId));
      expectRuleViolation(await pay(t, single.paymentLinkId));
      expect((await payments(t, expiring.paymentLinkId, { status: 'PAID' })).body.data).to.deep.equal([]);
      expect((await getDebt(t, single.debtId)).amountPaid).to.equal(0);
    });

    it('rejects amount 0, negative, 3 decimals and unknown fields with 400; unknown link 404', async () => {
      const t = await api().newTenant();
      const link = await create(t, { singleUse: false });
      expectInvalid(await pay(t, link.paymentLinkId, { amount: 0 }), 'amount');
      expectInvalid(await pay(t, link.paymentLinkId, { amount: -5 }), 'amount');
      expectInvalid(await pay(t, link.paymentLinkId, { amount: 1.005 }), 'amount');
      expectInvalid(await pay(t, link.paymentLinkId, { amount: '10' }), 'amount');
      expectInvalid(await pay(t, link.paymentLinkId, { amount: 10, tip: 1 }), 'tip');
      expectNotFound(await pay(t, 'plk_unknown'));
      expect((await payments(t, link.paymentLinkId, { status: 'PAID' })).body.data).to.deep.equal([]);
    });
  });

  describe('GET /payment-links/{id}/payments', () => {
    it("lists a new link's PENDING debt with amountPaid 0 under an internal debt_<n> id, meta without capped", async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 42 });
      const res = await payments(t, link.paymentLinkId);
      const data = expectData<Payment[]>(res);
      expect(data).to.have.length(1);
      const record = data[0]!;
      expect(Object.keys(record).sort()).to.deep.equal(PAYMENT_KEYS);
      expect(record.paymentId).to.match(PAYMENT_ID);
      expect(record.paymentId).to.not.equal(link.debtId);
      expect(record).to.deep.include({ status: 'PENDING', amount: 42, amountPaid: 0, currency: link.currency, createdAt: link.createdAt });
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false });
      expect(expectData<Payment[]>(await payments(t, link.paymentLinkId.slice('plk_'.length)))).to.deep.equal(data);
    });

    it("shows a single-use link's record PAID after its payment, under the same paymentId", async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 42 });
      const before = expectData<Payment[]>(await payments(t, link.paymentLinkId));
      expectOk(await pay(t, link.paymentLinkId), 201);
      const after = expectData<Payment[]>(await payments(t, link.paymentLinkId));
      expect(after).to.deep.equal([{ ...before[0]!, status: 'PAID', amountPaid: 42 }]);
    });

    it("lists a reusable link's paid records newest first, with the GET /debts filters", async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T10:00:00.000Z');
      const link = await create(t, { amount: 100, singleUse: false, expiresAt: '2026-12-31T00:00:00Z' });
      await freeze(t, '2026-03-10T11:00:00.000Z');
      expectOk(await pay(t, link.paymentLinkId), 201);
      await freeze(t, '2026-03-11T12:00:00.000Z');
      expectOk(await pay(t, link.paymentLinkId, { amount: 25.5 }), 201);

      const all = await payments(t, link.paymentLinkId);
      const records = expectData<Payment[]>(all);
      expect(records.map((r) => [r.status, r.amount, r.amountPaid, r.createdAt])).to.deep.equal([
        ['PAID', 25.5, 25.5, '2026-03-11T12:00:00.000Z'],
        ['PAID', 100, 100, '2026-03-10T11:00:00.000Z'],
        ['PENDING', 100, 0, '2026-03-10T10:00:00.000Z'],
      ]);
      for (const r of records) expect(r.paymentId).to.match(PAYMENT_ID).and.not.equal(link.debtId);
      expect(new Set(records.map((r) => r.paymentId)).size).to.equal(3);
      expect(all.body.meta).to.deep.equal({ page: 1, limit: 50, total: 3, hasMore: false });

      const amounts = async (query: Query) => expectData<Payment[]>(await payments(t, link.paymentLinkId, query)).map((r) => r.amount);
      expect(await amounts({ status: 'PAID' })).to.deep.equal([25.5, 100]);
      expect(await amounts({ status: 'PENDING' })).to.deep.equal([100]);
      expect(await amounts({ status: 'CANCELLED' })).to.deep.equal([]);
      expect(await amounts({ minAmount: 50 })).to.deep.equal([100, 100]);
      expect(await amounts({ maxAmount: 50 })).to.deep.equal([25.5]);
      expect(await amounts({ createdAtFrom: '2026-03-11' })).to.deep.equal([25.5]);
      expect(await amounts({ createdAtTo: '2026-03-10' })).to.deep.equal([100, 100]);
      const paged = await payments(t, link.paymentLinkId, { page: 2, limit: 1 });
      expect(expectData<Payment[]>(paged).map((r) => r.paymentId)).to.deep.equal([records[1]!.paymentId]);
      expect(paged.body.meta).to.deep.equal({ page: 2, limit: 1, total: 3, hasMore: true });

      expectInvalid(await payments(t, link.paymentLinkId, { status: 'paid' }), 'status');
      expectInvalid(await payments(t, link.paymentLinkId, { limit: 0 }), 'limit');
      expectInvalid(await payments(t, link.paymentLinkId, { limit: 501 }), 'limit');
    });

    it('excludes cancelled debts: empty for a cancelled single-use link; only the paid records of a cancelled reusable one', async () => {
      const t = await api().newTenant();
      const single = await create(t);
      expectOk(await cancel(t, single.paymentLinkId));
      const res = await payments(t, single.paymentLinkId);
      expect(expectData<Payment[]>(res)).to.deep.equal([]);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false });

      const reusable = await create(t, { singleUse: false, amount: 30 });
      expectOk(await pay(t, reusable.paymentLinkId), 201);
      expectOk(await cancel(t, reusable.paymentLinkId));
      const left = expectData<Payment[]>(await payments(t, reusable.paymentLinkId));
      expect(left.map((r) => [r.status, r.amountPaid])).to.deep.equal([['PAID', 30]]);
    });

    it('answers 404 for an unknown link and for a link of another tenant', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectNotFound(await payments(t, 'plk_unknown'));
      const stranger = await api().newTenant();
      expectNotFound(await payments(stranger, link.paymentLinkId));
    });
  });

  describe('expiry', () => {
    it('reads EXPIRED from the instant expiresAt is reached on the frozen clock, in GET and the status filters', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const link = await keyed(t, 'soon', { expiresAt: '2026-03-10T13:00:00Z' });
      await freeze(t, '2026-03-10T12:59:59.999Z');
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('ACTIVE');
      expect(namesOf(await list(t, { status: 'ACTIVE' }))).to.deep.equal(['soon']);
      expect(namesOf(await list(t, { status: 'EXPIRED' }))).to.deep.equal([]);

      await freeze(t, '2026-03-10T13:00:00.000Z');
      expect(expectOk(await getLink(t, link.paymentLinkId))).to.deep.equal({ ...link, status: 'EXPIRED' });
      expect(namesOf(await list(t, { status: 'EXPIRED' }))).to.deep.equal(['soon']);
      expect(namesOf(await list(t, { status: 'ACTIVE' }))).to.deep.equal([]);
      expect((await list(t)).body.data[0].status).to.equal('EXPIRED');
      expect(await storedStatus(link)).to.equal('ACTIVE');
    });

    it('tells every status total on a full page (the tally), with ACTIVE links past expiresAt as EXPIRED before and after the job persists it', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      for (const key of ['a1', 'a2']) await keyed(t, key, { expiresAt: '2026-12-31T00:00:00Z' });
      const lapsing = [await keyed(t, 'e1', { expiresAt: '2026-03-10T13:00:00Z' }), await keyed(t, 'e2', { expiresAt: '2026-03-10T13:00:00Z' })];
      const paid = await keyed(t, 'p1', { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await pay(t, paid.paymentLinkId), 201);
      const cancelled = await keyed(t, 'c1', { expiresAt: '2026-12-31T00:00:00Z' });
      expectOk(await cancel(t, cancelled.paymentLinkId));
      await freeze(t, '2026-03-10T13:00:00.000Z');
      // limit 1: every page is full, so no total comes from the page itself.
      const totals = async () => {
        const out: Record<string, unknown> = {};
        for (const status of ['ACTIVE', 'EXPIRED', 'PAID', 'CANCELLED', undefined]) {
          const res = await list(t, status ? { status, limit: 1 } : { limit: 1 });
          expect(res.status).to.equal(200);
          out[status ?? 'all'] = res.body.meta.total;
        }
        return out;
      };
      const expected = { ACTIVE: 2, EXPIRED: 2, PAID: 1, CANCELLED: 1, all: 6 };
      expect(await totals()).to.deep.equal(expected);
      await api().app.jobs.markExpiredPaymentLinks.execute();
      for (const link of lapsing) expect(await storedStatus(link)).to.equal('EXPIRED');
      expect(await totals()).to.deep.equal(expected);
    });

    it('the markExpiredPaymentLinks job persists EXPIRED on the organization clock; a link not yet expired stays ACTIVE', async () => {
      const t = await api().newTenant();
      await freeze(t, '2026-03-10T12:00:00.000Z');
      const expiring = await keyed(t, 'expiring', { expiresAt: '2026-03-10T13:00:00Z' });
      const later = await keyed(t, 'later', { expiresAt: '2026-03-10T13:00:00.001Z' });
      const paid = await keyed(t, 'paid', { expiresAt: '2026-03-10T13:00:00Z' });
      expectOk(await pay(t, paid.paymentLinkId), 201);
      await freeze(t, '2026-03-10T13:00:00.000Z');

      const result = await api().app.jobs.markExpiredPaymentLinks.execute();
      expect(result.expired).to.be.at.least(1);
      expect(await storedStatus(expiring)).to.equal('EXPIRED');
      expect(await storedStatus(later)).to.equal('ACTIVE');
      expect(await storedStatus(paid)).to.equal('PAID');

      // Persisted: EXPIRED even with the clock moved back before expiresAt.
      await freeze(t, '2026-03-10T12:30:00.000Z');
      expect(expectOk(await getLink(t, expiring.paymentLinkId)).status).to.equal('EXPIRED');
      expect(namesOf(await list(t, { status: 'EXPIRED' }))).to.deep.equal(['expiring']);
      expect(namesOf(await list(t, { status: 'ACTIVE' }))).to.deep.equal(['later']);
      expectRuleViolation(await pay(t, expiring.paymentLinkId));
    });
  });
  describe('paying the associated debt directly', () => {
    const payDebt = (t: Tenant, debtId: string, body: unknown = {}) => http().post(`/test-helpers/debts/${debtId}/pay`).set(t.headers).send(body as object);

    it('makes a single-use link PAID, and the link then accepts no payment', async () => {
      const t = await api().newTenant();
      const link = await create(t, { amount: 40 });
      const debt = expectData<Record<string, unknown>>(await payDebt(t, link.debtId), 201);
      expect(debt).to.deep.include({ status: 'PAID', amountPaid: 40 });
      expect(expectOk(await getLink(t, link.paymentLinkId)).status).to.equal('PAID');
      expectRuleViolation(await pay(t, link.paymentLinkId));
    });

    it('is refused once the link has expired, although the debt is due until the end of that day', async () => {
      const t = await api().newTenant();
      await freeze(t, '2031-05-04T10:00:00.000Z');
      const link = await create(t, { expiresAt: '2031-05-04T12:00:00.000Z' });
      await freeze(t, '2031-05-04T14:00:00.000Z');
      expectRuleViolation(await payDebt(t, link.debtId));
      expect((await getDebt(t, link.debtId)).amountPaid).to.equal(0);
    });

    it('is refused for a cancelled link', async () => {
      const t = await api().newTenant();
      const link = await create(t);
      expectOk(await cancel(t, link.paymentLinkId));
      expectRuleViolation(await payDebt(t, link.debtId));
    });
  });
});
