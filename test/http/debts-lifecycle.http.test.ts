import { expect } from 'chai';
import type supertest from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectNotFound, expectOk as expectData, expectRuleViolation } from '../support/http-expect';

/**
 * Debts after creation, through HTTP: reads (by id and lists with every filter), PATCH, cancel,
 * the sandbox pay helper and the mark-overdue job. Creation rules live in their own file.
 */

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const READ_KEYS = [
  'allowOverduePayment', 'allowPartialPayments', 'amount', 'amountPaid', 'contact', 'createdAt', 'currency', 'debtId',
  'dueDate', 'externalRequestId', 'paymentUrl', 'status',
];
const RANGE_MESSAGE = 'createdAtFrom must be earlier than or equal to createdAtTo';
const CLIENT = 'client-1';

interface DebtBody {
  debtId: string;
  externalRequestId: string;
  status: string;
  amount: number;
  amountPaid: number;
  dueDate: string;
  allowPartialPayments: boolean;
  allowOverduePayment: boolean;
  createdAt: string;
  batchId?: string;
  contact: { contactId: string; externalClientId: string; createdInline: boolean };
}

type Query = Record<string, string | number>;

const expectInvalid = (res: supertest.Response, field: string) => expectError(res, 400, 'INVALID_REQUEST', field);

const expectOk = expectData<DebtBody>;

/** The debtIds of a list answer, in the order given. */
function idsOf(res: supertest.Response): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return (res.body.data as DebtBody[]).map((d) => d.debtId);
}

describeEachDatabase('debts lifecycle', ({ api }) => {
  const http = () => api().http;
  const get = (t: Tenant, id: string, query: Query = {}) => http().get(`/debts/${id}`).set(t.headers).query(query);
  const list = (t: Tenant, query: Query = {}) => http().get('/debts').set(t.headers).query(query);
  const patch = (t: Tenant, id: string, body: unknown) => http().patch(`/debts/${id}`).set(t.headers).send(body as object);
  const cancel = (t: Tenant, id: string, body?: unknown) => {
    const req = http().post(`/debts/${id}/cancel`).set(t.headers);
    return body === undefined ? req : req.send(body as object);
  };
  const pay = (t: Tenant, id: string, body?: unknown) => {
    const req = http().post(`/test-helpers/debts/${id}/pay`).set(t.headers);
    return body === undefined ? req : req.send(body as object);
  };

  async function freeze(t: Tenant, now: string, companyCode?: string): Promise<void> {
    const res = await http().put('/test-helpers/clock').set(t.headers).send(companyCode ? { now, companyCode } : { now });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.frozen).to.equal(true);
  }

  async function addContact(t: Tenant, externalClientId: string, companyCode?: string): Promise<void> {
    const body = { externalClientId, name: `Name ${externalClientId}`, email: `${externalClientId}@example.com`, ...(companyCode ? { companyCode } : {}) };
    const res = await http().post('/contacts').set(t.headers).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
  }

  /** A tenant (one company unless told) with the contact CLIENT. */
  async function tenantWithContact(options: { companies?: string[] } = {}): Promise<Tenant> {
    const t = await api().newTenant(options);
    await addContact(t, CLIENT, t.companyCodes.length > 1 ? t.companyCodes[0] : undefined);
    return t;
  }

  /** POST /v2/debts with Idempotency-Key `key`; defaults: CLIENT, 100.00, due far in the future. */
  async function create(t: Tenant, key: string, fields: Record<string, unknown> = {}): Promise<DebtBody> {
    const body = { externalClientId: CLIENT, amount: 100, dueDate: '2099-12-31', ...fields };
    const res = await http().post('/v2/debts').set(t.headers).set('Idempotency-Key', key).send(body);
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  /** Creates `key` with the organization's clock frozen at `at` (its createdAt). */
  async function createAt(t: Tenant, at: string, key: string, fields: Record<string, unknown> = {}): Promise<DebtBody> {
    await freeze(t, at);
    const debt = await create(t, key, fields);
    expect(debt.createdAt).to.equal(new Date(at).toISOString());
    return debt;
  }

  /** Frozen at noon of 2026-03-10: `overdue` was due yesterday (OVERDUE by time), `today` is due today. */
  async function overdueFixture(fields: Record<string, unknown> = {}) {
    const t = await tenantWithContact();
    await freeze(t, '2026-03-10T12:00:00.000Z');
    const overdue = await create(t, 'overdue', { dueDate: '2026-03-09', ...fields });
    const today = await create(t, 'today', { dueDate: '2026-03-10', ...fields });
    return { t, overdue, today };
  }

  /**
   * Debts created at the edges of UTC days, then the clock left at noon of 2026-03-12:
   * a = 03-09 23:59:59.999, b = 03-10 00:00, c = 03-10 23:59:59.999, d = 03-11 00:00,
   * e = 03-11 23:59:59.999, f = 03-12 00:00.
   */
  async function daysFixture(): Promise<Tenant> {
    const t = await tenantWithContact();
    await createAt(t, '2026-03-09T23:59:59.999Z', 'a');
    await createAt(t, '2026-03-10T00:00:00.000Z', 'b');
    await createAt(t, '2026-03-10T23:59:59.999Z', 'c');
    await createAt(t, '2026-03-11T00:00:00.000Z', 'd');
    await createAt(t, '2026-03-11T23:59:59.999Z', 'e');
    await createAt(t, '2026-03-12T00:00:00.000Z', 'f');
    await freeze(t, '2026-03-12T12:00:00.000Z');
    return t;
  }

  describe('GET /debts/{id}', () => {
    it('reads a debt by debt_<key> and by the bare key, with the read shape (no autopay fields)', async () => {
      const t = await tenantWithContact();
      const created = await create(t, 'order-1', { amount: 12.5, dueDate: '2099-01-31' });
      const byId = expectOk(await get(t, 'debt_order-1'));
      const byKey = expectOk(await get(t, 'order-1'));
      expect(byKey).to.deep.equal(byId);
      expect(Object.keys(byId).sort()).to.deep.equal(READ_KEYS);
      expect(byId).to.deep.include({
        debtId: 'debt_order-1', externalRequestId: 'order-1', status: 'PENDING', amount: 12.5, amountPaid: 0,
        currency: 'MXN', dueDate: '2099-01-31', allowOverduePayment: true, allowPartialPayments: true, createdAt: created.createdAt,
      });
      expect(byId.createdAt).to.match(ISO_MS);
      expect(byId.contact).to.deep.equal(created.contact);
      expect((byId as unknown as { paymentUrl: string }).paymentUrl).to.be.a('string').and.match(/^http:\/\/localhost:3000\//);
    });

    it('reads a debt whose key itself starts with debt_ by both forms', async () => {
      const t = await tenantWithContact();
      const created = await create(t, 'debt_x');
      expect(created.debtId).to.equal('debt_debt_x');
      expect(created.externalRequestId).to.equal('debt_x');
      expect(expectOk(await get(t, 'debt_debt_x')).debtId).to.equal('debt_debt_x');
      expect(expectOk(await get(t, 'debt_x')).debtId).to.equal('debt_debt_x');
    });

    it('resolves debt_<key> to the debt of that key first when both keys exist', async () => {
      const t = await tenantWithContact();
      await create(t, 'debt_y', { amount: 2 });
      await create(t, 'y', { amount: 1 });
      expect(expectOk(await get(t, 'debt_y')).debtId).to.equal('debt_y');
      expect(expectOk(await get(t, 'debt_debt_y')).debtId).to.equal('debt_debt_y');
      expect(expectOk(await get(t, 'y')).debtId).to.equal('debt_y');
    });

    it('reads a cancelled debt', async () => {
      const t = await tenantWithContact();
      await create(t, 'gone');
      expectOk(await cancel(t, 'debt_gone'));
      const data = expectOk(await get(t, 'debt_gone'));
      expect(data.status).to.equal('CANCELLED');
      expect(expectOk(await get(t, 'gone')).status).to.equal('CANCELLED');
    });

    it('answers 404 RESOURCE_NOT_FOUND for an unknown id in both forms', async () => {
      const t = await tenantWithContact();
      await create(t, 'known');
      expectNotFound(await get(t, 'debt_unknown'));
      expectNotFound(await get(t, 'unknown'));
      expectNotFound(await get(t, 'debt_'));
    });

    it("answers 404 for another tenant's debt and for another company's debt", async () => {
      const owner = await tenantWithContact({ companies: ['A', 'B'] });
      const [a, b] = owner.companyCodes as [string, string];
      await create(owner, 'mine', { companyCode: a });
      const stranger = await tenantWithContact();
      expectNotFound(await get(stranger, 'debt_mine'));
      expectNotFound(await get(stranger, 'mine'));
      expectNotFound(await get(owner, 'debt_mine', { companyCode: b }));
      expect(expectOk(await get(owner, 'debt_mine', { companyCode: a })).debtId).to.equal('debt_mine');
    });
  });

  describe('GET /debts', () => {
    it('lists newest first without cancelled debts, with page meta and the read shape', async () => {
      const t = await tenantWithContact();
      for (const key of ['one', 'two', 'three', 'four']) await create(t, key);
      expectOk(await cancel(t, 'three'));
      const res = await list(t);
      expect(idsOf(res)).to.deep.equal(['debt_four', 'debt_two', 'debt_one']);
      expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 3, hasMore: false });
      expect(res.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);
      for (const debt of res.body.data as DebtBody[]) expect(Object.keys(debt).sort()).to.deep.equal(READ_KEYS);
    });

    it("lists only the caller's tenant", async () => {
      const t = await tenantWithContact();
      await create(t, 'own');
      const other = await tenantWithContact();
      await create(other, 'theirs');
      expect(idsOf(await list(t))).to.deep.equal(['debt_own']);
    });

    describe('status', () => {
      it('reads a PENDING debt due yesterday as OVERDUE, by id and in the status filters', async () => {
        const { t } = await overdueFixture();
        expect(expectOk(await get(t, 'debt_overdue')).status).to.equal('OVERDUE');
        expect(expectOk(await get(t, 'debt_today')).status).to.equal('PENDING');
        const all = await list(t);
        expect((all.body.data as DebtBody[]).map((d) => [d.debtId, d.status])).to.deep.equal([
          ['debt_today', 'PENDING'],
          ['debt_overdue', 'OVERDUE'],
        ]);
        expect(idsOf(await list(t, { status: 'OVERDUE' }))).to.deep.equal(['debt_overdue']);
        expect(idsOf(await list(t, { status: 'PENDING' }))).to.deep.equal(['debt_today']);
      });

      it('filters PARTIALLY_PAID and PAID debts made by the pay helper', async () => {
        const t = await tenantWithContact();
        await create(t, 'untouched', { amount: 10 });
        await create(t, 'partial', { amount: 10 });
        await create(t, 'paid', { amount: 10 });
        expectOk(await pay(t, 'debt_partial', { amount: 4 }), 201);
        expectOk(await pay(t, 'debt_paid'), 201);
        const partial = await list(t, { status: 'PARTIALLY_PAID' });
        expect(idsOf(partial)).to.deep.equal(['debt_partial']);
        expect(partial.body.data[0]).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 4 });
        expect(partial.body.meta.total).to.equal(1);
        expect(idsOf(await list(t, { status: 'PAID' }))).to.deep.equal(['debt_paid']);
        expect(idsOf(await list(t, { status: 'PENDING' }))).to.deep.equal(['debt_untouched']);
      });

      it('answers an empty list for status=CANCELLED even when cancelled debts exist', async () => {
        const t = await tenantWithContact();
        await create(t, 'live');
        await create(t, 'dead');
        expectOk(await cancel(t, 'dead'));
        const res = await list(t, { status: 'CANCELLED' });
        expect(idsOf(res)).to.deep.equal([]);
        expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 0, hasMore: false });
      });

      it('rejects a status outside the enum (case-sensitive) with 400 field status', async () => {
        const t = await tenantWithContact();
        expectInvalid(await list(t, { status: 'pending' }), 'status');
        expectInvalid(await list(t, { status: 'EXPIRED' }), 'status');
      });
    });

    describe('createdAtFrom / createdAtTo', () => {
      it('rule 2: a date alone covers its whole UTC day, inclusive at both ends', async () => {
        const t = await daysFixture();
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-10', createdAtTo: '2026-03-10' }))).to.deep.equal(['debt_c', 'debt_b']);
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-10', createdAtTo: '2026-03-11' }))).to.deep.equal([
          'debt_e', 'debt_d', 'debt_c', 'debt_b',
        ]);
        expect(idsOf(await list(t, { createdAtTo: '2026-03-10' }))).to.deep.equal(['debt_c', 'debt_b', 'debt_a']);
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-11' }))).to.deep.equal(['debt_f', 'debt_e', 'debt_d']);
      });

      it('rule 3: a date-time means the whole UTC day that contains it, offsets converted to UTC', async () => {
        const t = await daysFixture();
        // Midday Z: the whole day, including the debt created at 00:00:00.000Z before that instant.
        const midday = { createdAtFrom: '2026-03-10T12:00:00Z', createdAtTo: '2026-03-10T12:00:00.000Z' };
        expect(idsOf(await list(t, midday))).to.deep.equal(['debt_c', 'debt_b']);
        // 2026-03-11T05:00+06:00 is 03-10 23:00Z (day 10); 2026-03-10T21:00-04:00 is 03-11 01:00Z (day 11).
        const offsets = { createdAtFrom: '2026-03-11T05:00:00+06:00', createdAtTo: '2026-03-10T21:00:00-04:00' };
        expect(idsOf(await list(t, offsets))).to.deep.equal(['debt_e', 'debt_d', 'debt_c', 'debt_b']);
      });

      it('rule 3: a createdAtTo at exactly 00:00:00Z does not include that day', async () => {
        const t = await daysFixture();
        for (const createdAtTo of ['2026-03-11T00:00:00Z', '2026-03-11T00:00:00.000Z', '2026-03-11T02:00:00+02:00']) {
          expect(idsOf(await list(t, { createdAtFrom: '2026-03-10', createdAtTo })), createdAtTo).to.deep.equal(['debt_c', 'debt_b']);
        }
        // One millisecond later the day is included, with the debt created at its first instant.
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-10', createdAtTo: '2026-03-11T00:00:00.001Z' }))).to.deep.equal([
          'debt_e', 'debt_d', 'debt_c', 'debt_b',
        ]);
      });

      it('rule 4: without createdAtTo the range runs to today', async () => {
        const t = await daysFixture();
        // Back to 2026-03-11: the debt created on 03-12 lies after today.
        await freeze(t, '2026-03-11T12:00:00.000Z');
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-10' }))).to.deep.equal(['debt_e', 'debt_d', 'debt_c', 'debt_b']);
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-11T08:00:00Z' }))).to.deep.equal(['debt_e', 'debt_d']);
      });

      it('rule 4: a future createdAtFrom alone returns an empty list', async () => {
        const t = await daysFixture();
        const res = await list(t, { createdAtFrom: '2026-03-13' });
        expect(idsOf(res)).to.deep.equal([]);
        expect(res.body.meta.total).to.equal(0);
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-13T00:00:00Z' }))).to.deep.equal([]);
        // Today itself is not the future.
        expect(idsOf(await list(t, { createdAtFrom: '2026-03-12' }))).to.deep.equal(['debt_f']);
      });

      it('rule 5: createdAtFrom later than createdAtTo is 400 with the exact message', async () => {
        const t = await tenantWithContact();
        const cases: Query[] = [
          { createdAtFrom: '2026-03-11', createdAtTo: '2026-03-10' },
          { createdAtFrom: '2026-03-11T00:00:00Z', createdAtTo: '2026-03-10T23:59:59.999Z' },
          // createdAtTo at 00:00:00Z ends the day before, so the same date in both is reversed.
          { createdAtFrom: '2026-03-11', createdAtTo: '2026-03-11T00:00:00Z' },
        ];
        for (const query of cases) {
          const res = await list(t, query);
          expectInvalid(res, 'createdAtFrom');
          expect(res.body.error.message, JSON.stringify(query)).to.equal(RANGE_MESSAGE);
        }
      });

      it('rule 1: rejects other formats with 400 naming the parameter', async () => {
        const t = await tenantWithContact();
        for (const value of ['2026/03/10', '10-03-2026', '2026-03-10 10:00', '2026-02-30', '2026-03-10T10:00', 'yesterday']) {
          expectInvalid(await list(t, { createdAtFrom: value }), 'createdAtFrom');
          expectInvalid(await list(t, { createdAtTo: value }), 'createdAtTo');
        }
      });
    });

    describe('amount, contact and batch filters', () => {
      it('minAmount and maxAmount are inclusive, alone and together', async () => {
        const t = await tenantWithContact();
        await create(t, 'a10', { amount: 10 });
        await create(t, 'a1001', { amount: 10.01 });
        await create(t, 'a20', { amount: 20 });
        await create(t, 'a2001', { amount: 20.01 });
        expect(idsOf(await list(t, { minAmount: '10.01' }))).to.deep.equal(['debt_a2001', 'debt_a20', 'debt_a1001']);
        expect(idsOf(await list(t, { maxAmount: '20' }))).to.deep.equal(['debt_a20', 'debt_a1001', 'debt_a10']);
        expect(idsOf(await list(t, { minAmount: '10.01', maxAmount: '20.00' }))).to.deep.equal(['debt_a20', 'debt_a1001']);
        expect(idsOf(await list(t, { minAmount: '20', maxAmount: '20' }))).to.deep.equal(['debt_a20']);
        expect(idsOf(await list(t, { minAmount: '0' }))).to.have.length(4);
      });

      it('rejects 1.005, negatives, non-numbers and min > max with 400', async () => {
        const t = await tenantWithContact();
        expectInvalid(await list(t, { minAmount: '1.005' }), 'minAmount');
        expectInvalid(await list(t, { maxAmount: '1.005' }), 'maxAmount');
        expectInvalid(await list(t, { minAmount: '-1' }), 'minAmount');
        expectInvalid(await list(t, { maxAmount: 'ten' }), 'maxAmount');
        expectInvalid(await list(t, { minAmount: '20.01', maxAmount: '20' }), 'minAmount');
      });

      it('externalClientId lists that debtor only; an unknown one lists nothing', async () => {
        const t = await tenantWithContact();
        await addContact(t, 'client-2');
        await create(t, 'c1-a');
        await create(t, 'c2-a', { externalClientId: 'client-2' });
        await create(t, 'c1-b');
        expect(idsOf(await list(t, { externalClientId: CLIENT }))).to.deep.equal(['debt_c1-b', 'debt_c1-a']);
        expect(idsOf(await list(t, { externalClientId: 'client-2' }))).to.deep.equal(['debt_c2-a']);
        const none = await list(t, { externalClientId: 'nobody' });
        expect(idsOf(none)).to.deep.equal([]);
        expect(none.body.meta.total).to.equal(0);
      });

      it('batchId lists the debts of that batch only', async () => {
        const t = await tenantWithContact();
        await create(t, 'single');
        const items = ['b1', 'b2'].map((externalRequestId) => ({ externalRequestId, externalClientId: CLIENT, amount: 5, dueDate: '2099-12-31' }));
        const batch = await http().post('/v2/debts').set(t.headers).send({ debts: items });
        expect(batch.status, JSON.stringify(batch.body)).to.equal(201);
        const batchId: string = batch.body.batchId;
        expect(batchId).to.match(/^bat_/);
        const res = await list(t, { batchId });
        expect(idsOf(res).sort()).to.deep.equal(['debt_b1', 'debt_b2']);
        for (const debt of res.body.data as DebtBody[]) expect(debt.batchId).to.equal(batchId);
        expect(res.body.meta.total).to.equal(2);
        expect(idsOf(await list(t, { batchId: 'bat_unknown' }))).to.deep.equal([]);
      });

      it('combines every filter', async () => {
        const t = await tenantWithContact();
        await addContact(t, 'client-2');
        await freeze(t, '2026-03-10T10:00:00.000Z');
        const items = [
          { externalRequestId: 'hit', externalClientId: CLIENT, amount: 50, dueDate: '2026-03-09' },
          { externalRequestId: 'cheap', externalClientId: CLIENT, amount: 5, dueDate: '2026-03-09' },
          { externalRequestId: 'other-client', externalClientId: 'client-2', amount: 50, dueDate: '2026-03-09' },
          { externalRequestId: 'not-overdue', externalClientId: CLIENT, amount: 50, dueDate: '2026-03-10' },
        ];
        const batch = await http().post('/v2/debts').set(t.headers).send({ debts: items });
        expect(batch.status, JSON.stringify(batch.body)).to.equal(201);
        await create(t, 'not-in-batch', { amount: 50, dueDate: '2026-03-09' });
        await createAt(t, '2026-03-11T10:00:00.000Z', 'other-day', { amount: 50, dueDate: '2026-03-09' });
        await freeze(t, '2026-03-10T18:00:00.000Z');
        const query = {
          status: 'OVERDUE', createdAtFrom: '2026-03-10', createdAtTo: '2026-03-10', minAmount: '10', maxAmount: '100',
          externalClientId: CLIENT, batchId: batch.body.batchId as string,
        };
        const res = await list(t, query);
        expect(idsOf(res)).to.deep.equal(['debt_hit']);
        expect(res.body.meta).to.deep.equal({ page: 1, limit: 50, total: 1, hasMore: false });
        // Dropping the batch filter brings in the single debt of the same day.
        const withoutBatch: Query = { ...query };
        delete withoutBatch.batchId;
        expect(idsOf(await list(t, withoutBatch))).to.deep.equal(['debt_not-in-batch', 'debt_hit']);
      });
    });

    describe('pagination', () => {
      it('pages newest first with total and hasMore', async () => {
        const t = await tenantWithContact();
        for (const key of ['p1', 'p2', 'p3', 'p4', 'p5']) await create(t, key);
        const first = await list(t, { limit: 2 });
        expect(idsOf(first)).to.deep.equal(['debt_p5', 'debt_p4']);
        expect(first.body.meta).to.deep.equal({ page: 1, limit: 2, total: 5, hasMore: true });
        const second = await list(t, { limit: 2, page: 2 });
        expect(idsOf(second)).to.deep.equal(['debt_p3', 'debt_p2']);
        expect(second.body.meta).to.deep.equal({ page: 2, limit: 2, total: 5, hasMore: true });
        const last = await list(t, { limit: 2, page: 3 });
        expect(idsOf(last)).to.deep.equal(['debt_p1']);
        expect(last.body.meta).to.deep.equal({ page: 3, limit: 2, total: 5, hasMore: false });
        const beyond = await list(t, { limit: 2, page: 4 });
        expect(idsOf(beyond)).to.deep.equal([]);
        expect(beyond.body.meta).to.deep.equal({ page: 4, limit: 2, total: 5, hasMore: false });
        const filtered = await list(t, { limit: 1, minAmount: '100' });
        expect(filtered.body.meta).to.deep.equal({ page: 1, limit: 1, total: 5, hasMore: true });
      });

      it('rejects page < 1 and limit outside 1..500 with 400', async () => {
        const t = await tenantWithContact();
        expectInvalid(await list(t, { page: 0 }), 'page');
        expectInvalid(await list(t, { limit: 0 }), 'limit');
        expectInvalid(await list(t, { limit: 501 }), 'limit');
        expectInvalid(await list(t, { page: 'x' }), 'page');
        expect(expectOk(await list(t, { limit: 500 })) as unknown as DebtBody[]).to.deep.equal([]);
      });
    });
  });

  describe('PATCH /debts/{id}', () => {
    it('changes amount and dueDate of a PENDING debt; the answer has dueDate YYYY-MM-DD and amountPaid', async () => {
      const t = await tenantWithContact();
      await create(t, 'edit', { amount: 10, dueDate: '2099-01-01', allowPartialPayments: false });
      const data = expectOk(await patch(t, 'debt_edit', { amount: 25.75, dueDate: '2099-02-28' }));
      expect(Object.keys(data).sort()).to.deep.equal(READ_KEYS);
      expect(data).to.deep.include({
        debtId: 'debt_edit', status: 'PENDING', amount: 25.75, amountPaid: 0, dueDate: '2099-02-28', allowPartialPayments: false,
      });
      expect(expectOk(await get(t, 'edit'))).to.deep.include({ amount: 25.75, dueDate: '2099-02-28', allowPartialPayments: false });
    });

    it('changes one field alone, by the bare key too', async () => {
      const t = await tenantWithContact();
      await create(t, 'one-field', { amount: 10, dueDate: '2099-01-01' });
      expect(expectOk(await patch(t, 'one-field', { amount: 11 }))).to.deep.include({ amount: 11, dueDate: '2099-01-01' });
      expect(expectOk(await patch(t, 'debt_one-field', { dueDate: '2098-12-31' }))).to.deep.include({ amount: 11, dueDate: '2098-12-31' });
    });

    it('rejects an empty body and invalid values with 400', async () => {
      const t = await tenantWithContact();
      await create(t, 'bad');
      expectInvalid(await patch(t, 'debt_bad', {}), 'body');
      expectInvalid(await patch(t, 'debt_bad', { amount: 1.001 }), 'amount');
      expectInvalid(await patch(t, 'debt_bad', { amount: 0 }), 'amount');
      expectInvalid(await patch(t, 'debt_bad', { dueDate: '2099-02-30' }), 'dueDate');
      expectInvalid(await patch(t, 'debt_bad', { dueDate: '2099-02-28T00:00:00Z' }), 'dueDate');
      expect(expectOk(await get(t, 'debt_bad'))).to.deep.include({ amount: 100, dueDate: '2099-12-31' });
    });

    it('rejects every other field with 400 naming it', async () => {
      const t = await tenantWithContact();
      await create(t, 'locked');
      const others: Record<string, unknown> = {
        status: 'PAID', currency: 'USD', allowPartialPayments: false, externalRequestId: 'new-key', allowOverduePayment: false,
        description: 'x',
      };
      for (const [field, value] of Object.entries(others)) {
        expectInvalid(await patch(t, 'debt_locked', { amount: 5, [field]: value }), field);
      }
      expect(expectOk(await get(t, 'debt_locked'))).to.deep.include({ amount: 100, status: 'PENDING', currency: 'MXN' });
    });

    it('takes companyCode in the body as context', async () => {
      const t = await tenantWithContact({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      await create(t, 'ctx', { companyCode: b });
      expect(expectOk(await patch(t, 'debt_ctx', { amount: 7, companyCode: b }))).to.deep.include({ amount: 7 });
      expectNotFound(await patch(t, 'debt_ctx', { amount: 8, companyCode: a }));
      expectInvalid(await patch(t, 'debt_ctx', { amount: 8 }), 'companyCode');
      expectInvalid(await patch(t, 'debt_ctx', { companyCode: b }), 'body');
    });

    it('answers 422 for a PARTIALLY_PAID debt', async () => {
      const t = await tenantWithContact();
      await create(t, 'part', { amount: 10 });
      expectOk(await pay(t, 'debt_part', { amount: 1 }), 201);
      expectRuleViolation(await patch(t, 'debt_part', { amount: 20 }));
      expect(expectOk(await get(t, 'debt_part'))).to.deep.include({ amount: 10, amountPaid: 1 });
    });

    it('answers 422 for a PAID debt', async () => {
      const t = await tenantWithContact();
      await create(t, 'full', { amount: 10 });
      expectOk(await pay(t, 'debt_full'), 201);
      expectRuleViolation(await patch(t, 'debt_full', { dueDate: '2099-01-01' }));
    });

    it('answers 422 for a CANCELLED debt', async () => {
      const t = await tenantWithContact();
      await create(t, 'void');
      expectOk(await cancel(t, 'debt_void'));
      expectRuleViolation(await patch(t, 'debt_void', { amount: 1 }));
      expect(expectOk(await get(t, 'debt_void'))).to.deep.include({ amount: 100, status: 'CANCELLED' });
    });

    it('answers 422 for a debt OVERDUE by time (even to move its dueDate forward)', async () => {
      const { t } = await overdueFixture();
      expectRuleViolation(await patch(t, 'debt_overdue', { dueDate: '2099-01-01' }));
      expect(expectOk(await get(t, 'debt_overdue'))).to.deep.include({ status: 'OVERDUE', dueDate: '2026-03-09' });
      expect(expectOk(await patch(t, 'debt_today', { amount: 3 }))).to.deep.include({ status: 'PENDING', amount: 3 });
    });

    it('answers 404 for an unknown debt', async () => {
      const t = await tenantWithContact();
      expectNotFound(await patch(t, 'debt_missing', { amount: 1 }));
    });
  });

  describe('POST /debts/{id}/cancel', () => {
    it('cancels a PENDING debt: 200 CANCELLED, then out of the list but readable by id', async () => {
      const t = await tenantWithContact();
      await create(t, 'keep');
      await create(t, 'drop');
      const data = expectOk(await cancel(t, 'debt_drop'));
      expect(Object.keys(data).sort()).to.deep.equal(READ_KEYS);
      expect(data).to.deep.include({ debtId: 'debt_drop', status: 'CANCELLED', amount: 100, amountPaid: 0 });
      const res = await list(t);
      expect(idsOf(res)).to.deep.equal(['debt_keep']);
      expect(res.body.meta.total).to.equal(1);
      expect(expectOk(await get(t, 'debt_drop')).status).to.equal('CANCELLED');
    });

    it('cancels a PARTIALLY_PAID debt, keeping amountPaid', async () => {
      const t = await tenantWithContact();
      await create(t, 'half', { amount: 10 });
      expectOk(await pay(t, 'debt_half', { amount: 5 }), 201);
      expect(expectOk(await cancel(t, 'half'))).to.deep.include({ status: 'CANCELLED', amountPaid: 5 });
      expect(idsOf(await list(t, { status: 'PARTIALLY_PAID' }))).to.deep.equal([]);
    });

    it('cancels an OVERDUE debt', async () => {
      const { t } = await overdueFixture();
      expect(expectOk(await cancel(t, 'debt_overdue')).status).to.equal('CANCELLED');
      expect(idsOf(await list(t, { status: 'OVERDUE' }))).to.deep.equal([]);
      expect(expectOk(await get(t, 'debt_overdue')).status).to.equal('CANCELLED');
    });

    it('answers 422 for a PAID debt', async () => {
      const t = await tenantWithContact();
      await create(t, 'settled');
      expectOk(await pay(t, 'debt_settled'), 201);
      expectRuleViolation(await cancel(t, 'debt_settled'));
      expect(expectOk(await get(t, 'debt_settled')).status).to.equal('PAID');
    });

    it('answers 422 for a debt already CANCELLED', async () => {
      const t = await tenantWithContact();
      await create(t, 'twice');
      expectOk(await cancel(t, 'debt_twice'));
      expectRuleViolation(await cancel(t, 'debt_twice'));
    });

    it('ignores a JSON body', async () => {
      const t = await tenantWithContact();
      await create(t, 'with-body');
      const data = expectOk(await cancel(t, 'debt_with-body', { reason: 'customer asked', status: 'PAID', amount: 1 }));
      expect(data).to.deep.include({ status: 'CANCELLED', amount: 100 });
    });

    it('ignores a body that is not JSON (malformed JSON, plain text, a form) and cancels', async () => {
      const t = await tenantWithContact();
      const bodies: [string, string][] = [['application/json', '{bad'], ['text/plain', 'hello'], ['application/x-www-form-urlencoded', 'a=b']];
      for (const [i, [type, text]] of bodies.entries()) {
        await create(t, `raw-${i}`);
        const res = await http().post(`/debts/debt_raw-${i}/cancel`).set(t.headers).set('content-type', type).send(text);
        expect(expectOk(res), type).to.deep.include({ debtId: `debt_raw-${i}`, status: 'CANCELLED' });
      }
    });

    it('answers 404 for an unknown debt', async () => {
      const t = await tenantWithContact();
      expectNotFound(await cancel(t, 'debt_missing'));
    });
  });

  describe('POST /test-helpers/debts/{id}/pay', () => {
    it('pays the remaining amount by default: 201 PAID', async () => {
      const t = await tenantWithContact();
      await create(t, 'bill', { amount: 42.42 });
      const data = expectOk(await pay(t, 'debt_bill'), 201);
      expect(Object.keys(data).sort()).to.deep.equal(READ_KEYS);
      expect(data).to.deep.include({ debtId: 'debt_bill', status: 'PAID', amount: 42.42, amountPaid: 42.42 });
      expect(expectOk(await get(t, 'bill'))).to.deep.include({ status: 'PAID', amountPaid: 42.42 });
    });

    it('pays the remaining after a partial payment by default', async () => {
      const t = await tenantWithContact();
      await create(t, 'rest', { amount: 10 });
      expectOk(await pay(t, 'debt_rest', { amount: 3.33 }), 201);
      expect(expectOk(await pay(t, 'debt_rest', {}), 201)).to.deep.include({ status: 'PAID', amountPaid: 10 });
    });

    it('accumulates partial payments exactly: 0.1 + 0.2 on 0.3 is PAID with amountPaid 0.3', async () => {
      const t = await tenantWithContact();
      await create(t, 'cents', { amount: 0.3 });
      expect(expectOk(await pay(t, 'debt_cents', { amount: 0.1 }), 201)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 0.1 });
      expect(expectOk(await pay(t, 'debt_cents', { amount: 0.2 }), 201)).to.deep.include({ status: 'PAID', amountPaid: 0.3 });
    });

    it('answers 422 for more than the remaining amount and changes nothing', async () => {
      const t = await tenantWithContact();
      await create(t, 'small', { amount: 10 });
      expectRuleViolation(await pay(t, 'debt_small', { amount: 10.01 }));
      expectOk(await pay(t, 'debt_small', { amount: 6 }), 201);
      expectRuleViolation(await pay(t, 'debt_small', { amount: 4.01 }));
      expect(expectOk(await get(t, 'debt_small'))).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 6 });
    });

    it('answers 422 for a partial payment when allowPartialPayments is false; the full amount is accepted', async () => {
      const t = await tenantWithContact();
      await create(t, 'whole', { amount: 10, allowPartialPayments: false });
      expectRuleViolation(await pay(t, 'debt_whole', { amount: 5 }));
      expect(expectOk(await get(t, 'debt_whole'))).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      expect(expectOk(await pay(t, 'debt_whole', { amount: 10 }), 201)).to.deep.include({ status: 'PAID', amountPaid: 10 });
    });

    it('answers 422 past due when allowOverduePayment is false', async () => {
      const { t } = await overdueFixture({ allowOverduePayment: false });
      expectRuleViolation(await pay(t, 'debt_overdue'));
      expect(expectOk(await get(t, 'debt_overdue'))).to.deep.include({ status: 'OVERDUE', amountPaid: 0 });
      // Due today is not past due.
      expect(expectOk(await pay(t, 'debt_today'), 201).status).to.equal('PAID');
    });

    it('pays an OVERDUE debt when allowOverduePayment is true: OVERDUE → PAID', async () => {
      const { t } = await overdueFixture({ amount: 8 });
      expect(expectOk(await get(t, 'debt_overdue')).status).to.equal('OVERDUE');
      expect(expectOk(await pay(t, 'debt_overdue'), 201)).to.deep.include({ status: 'PAID', amountPaid: 8 });
      expect(idsOf(await list(t, { status: 'OVERDUE' }))).to.deep.equal([]);
    });

    it('answers 422 to a partial payment of an OVERDUE debt (OVERDUE goes only to PAID); the rest pays it', async () => {
      const { t } = await overdueFixture({ amount: 8 });
      const res = await pay(t, 'debt_overdue', { amount: 3 });
      expectRuleViolation(res);
      expect(res.body.error.message).to.equal('An OVERDUE debt can only be paid in full (its remaining amount)');
      expect(expectOk(await get(t, 'debt_overdue'))).to.deep.include({ status: 'OVERDUE', amountPaid: 0 });
      expect(expectOk(await pay(t, 'debt_overdue', { amount: 8 }), 201)).to.deep.include({ status: 'PAID', amountPaid: 8 });
    });

    it('answers 422 for a PAID debt and for a CANCELLED one', async () => {
      const t = await tenantWithContact();
      await create(t, 'done');
      await create(t, 'off');
      expectOk(await pay(t, 'debt_done'), 201);
      expectRuleViolation(await pay(t, 'debt_done'));
      expectRuleViolation(await pay(t, 'debt_done', { amount: 0.01 }));
      expectOk(await cancel(t, 'debt_off'));
      expectRuleViolation(await pay(t, 'debt_off'));
      expect(expectOk(await get(t, 'debt_off'))).to.deep.include({ status: 'CANCELLED', amountPaid: 0 });
    });

    it('rejects amount 0, 1.001 and other fields with 400', async () => {
      const t = await tenantWithContact();
      await create(t, 'valid', { amount: 10 });
      expectInvalid(await pay(t, 'debt_valid', { amount: 0 }), 'amount');
      expectInvalid(await pay(t, 'debt_valid', { amount: 1.001 }), 'amount');
      expectInvalid(await pay(t, 'debt_valid', { amount: '1' }), 'amount');
      expectInvalid(await pay(t, 'debt_valid', { amount: 1, currency: 'USD' }), 'currency');
      expect(expectOk(await get(t, 'debt_valid'))).to.deep.include({ status: 'PENDING', amountPaid: 0 });
    });

    it('answers 404 for an unknown debt', async () => {
      const t = await tenantWithContact();
      expectNotFound(await pay(t, 'debt_missing'));
    });

    it('10 concurrent payments of 1.00 on a 5.00 debt: exactly 5 succeed, the debt ends PAID with 5', async () => {
      const t = await tenantWithContact();
      await create(t, 'race', { amount: 5 });
      const answers = await Promise.all(Array.from({ length: 10 }, () => pay(t, 'debt_race', { amount: 1 })));
      const statuses = answers.map((r) => r.status).sort();
      expect(statuses, JSON.stringify(answers.map((r) => r.body))).to.deep.equal([201, 201, 201, 201, 201, 422, 422, 422, 422, 422]);
      for (const r of answers.filter((a) => a.status === 422)) expectRuleViolation(r);
      const paidAmounts = answers.filter((r) => r.status === 201).map((r) => r.body.data.amountPaid).sort();
      expect(paidAmounts).to.deep.equal([1, 2, 3, 4, 5]);
      expect(expectOk(await get(t, 'debt_race'))).to.deep.include({ status: 'PAID', amountPaid: 5 });
    });
  });

  describe('mark-overdue job', () => {
    it('persists OVERDUE for a debt past due on the organization clock; a debt not yet due stays PENDING', async () => {
      const { t } = await overdueFixture();
      await create(t, 'future', { dueDate: '2026-03-11' });
      const db = api().infra.db!;
      const statusOf = async (key: string) => {
        const row = await db('debts').where({ organization_id: t.organizationId, external_request_id: key }).first();
        return row.status as string;
      };
      expect(await statusOf('overdue')).to.equal('PENDING');
      const result = await api().app.jobs.markOverdueDebts.execute();
      expect(result.marked).to.be.at.least(1);
      expect(await statusOf('overdue')).to.equal('OVERDUE');
      expect(await statusOf('today')).to.equal('PENDING');
      expect(await statusOf('future')).to.equal('PENDING');
      expect(expectOk(await get(t, 'debt_overdue')).status).to.equal('OVERDUE');
      expect(idsOf(await list(t, { status: 'OVERDUE' }))).to.deep.equal(['debt_overdue']);
      expect(idsOf(await list(t, { status: 'PENDING' }))).to.deep.equal(['debt_future', 'debt_today']);
    });

    it('leaves paid and cancelled debts past due as they are', async () => {
      const { t } = await overdueFixture();
      await create(t, 'paid-late', { dueDate: '2026-03-01' });
      await create(t, 'cancelled-late', { dueDate: '2026-03-01' });
      expectOk(await pay(t, 'debt_paid-late'), 201);
      expectOk(await cancel(t, 'debt_cancelled-late'));
      await api().app.jobs.markOverdueDebts.execute();
      const rows = await api().infra.db!('debts').where({ organization_id: t.organizationId }).select('external_request_id', 'status');
      const byKey = Object.fromEntries(rows.map((r: { external_request_id: string; status: string }) => [r.external_request_id, r.status]));
      expect(byKey).to.deep.equal({ overdue: 'OVERDUE', today: 'PENDING', 'paid-late': 'PAID', 'cancelled-late': 'CANCELLED' });
    });
  });
});
