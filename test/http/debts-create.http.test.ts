import { expect } from 'chai';
import type { Response } from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectFailure, expectInvalid, fieldsOf, REQUEST_ID } from '../support/http-expect';

/** Every creation rule of POST /v2/debts (single mode) and of the legacy POST /debts. */

const CONTACT_ID = /^con_[A-Za-z0-9]+$/;
const PRODUCT_ID = /^prd_[1-9]\d*$/;
const GENERATED_KEY = /^[A-Za-z0-9]{24}$/;
/** A due date that stays in the future, so the effective status is PENDING. */
const DUE = '2099-01-15';
const CLIENT = 'client-1';
const RESERVED_KEYS = [
  'description', 'paymentMethods', 'productName', 'externalProductId', 'debtExpirationDate',
  'overduePayment', 'allowPartialPayments', 'recurringDebt', 'debtReference',
];
/** The keys of a creation answer without description, product, additionalData or paymentMethods. */
const BASE_KEYS = [
  'allowOverduePayment', 'allowPartialPayments', 'amount', 'amountPaid', 'autopay', 'autopayReason', 'contact',
  'createdAt', 'currency', 'debtId', 'dueDate', 'externalRequestId', 'paymentUrl', 'status',
];

type Body = Record<string, unknown>;

const sorted = (keys: string[]) => [...keys].sort();

function expectCreated(res: Response): Body {
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  expect(res.body.requestId).to.match(REQUEST_ID);
  return res.body.data;
}

describeEachDatabase('debts creation', ({ api }) => {
  const http = () => api().http;

  const postV2 = (t: Tenant, body: Body, key?: string) => {
    const req = http().post('/v2/debts').set(t.headers);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const postLegacy = (t: Tenant, body: Body, key?: string) => {
    const req = http().post('/debts').set(t.headers);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const getDebt = (t: Tenant, id: string, query: Record<string, string> = {}) =>
    http().get(`/debts/${id}`).query(query).set(t.headers);
  const listDebts = (t: Tenant, query: Record<string, string> = {}) => http().get('/debts').query(query).set(t.headers);

  async function debtTotal(t: Tenant, query: Record<string, string> = {}): Promise<number> {
    const res = await listDebts(t, query);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.meta.total;
  }

  async function createContact(t: Tenant, body: Body = {}): Promise<Body> {
    const res = await http()
      .post('/contacts')
      .set(t.headers)
      .send({ externalClientId: CLIENT, name: 'Ana Pérez', email: 'ana@example.com', ...body });
    return expectCreated(res);
  }

  async function createProduct(t: Tenant, body: Body): Promise<Body> {
    return expectCreated(await http().post('/products').set(t.headers).send(body));
  }

  async function deactivate(t: Tenant, productId: string): Promise<void> {
    const res = await http().delete(`/products/${productId}`).set(t.headers);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
  }

  /** A tenant that already has the contact `client-1`. */
  async function tenantWithContact(options: Parameters<ReturnType<typeof api>['newTenant']>[0] = {}) {
    const t = await api().newTenant(options);
    const contact = await createContact(t);
    return { t, contact };
  }

  const debt = (overrides: Body = {}): Body => ({ externalClientId: CLIENT, amount: 150.5, dueDate: DUE, ...overrides });

  describe('POST /v2/debts: the 201 answer', () => {
    it('answers exactly the Debt keys for a minimal debt, with defaults MXN, booleans true and NO_PRODUCT', async () => {
      const { t, contact } = await tenantWithContact();
      const frozen = await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-06T07:08:09.010Z' });
      expect(frozen.status).to.equal(200);
      const res = await postV2(t, debt());
      const data = expectCreated(res);
      expect(res.headers['idempotent-replayed']).to.equal(undefined);
      expect(Object.keys(data).sort()).to.deep.equal(sorted(BASE_KEYS));
      expect(data.externalRequestId).to.match(GENERATED_KEY);
      expect(data.debtId).to.equal(`debt_${data.externalRequestId}`);
      expect(data).to.deep.include({
        status: 'PENDING',
        amount: 150.5,
        amountPaid: 0,
        currency: 'MXN',
        dueDate: DUE,
        allowOverduePayment: true,
        allowPartialPayments: true,
        autopay: false,
        autopayReason: 'NO_PRODUCT',
        createdAt: '2031-05-06T07:08:09.010Z',
      });
      expect(data.contact).to.deep.equal({ contactId: contact.contactId, externalClientId: CLIENT, createdInline: false });
      expect(data.paymentUrl).to.be.a('string').and.match(/^http:\/\/localhost:3000\//);
    });

    it('carries description, product and additionalData when set, and keeps explicit values', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Gym' });
      const additionalData = { orderId: 'A-1', count: 3, vip: true, note: null };
      const data = expectCreated(
        await postV2(t, debt({
          amount: 99,
          currency: 'USD',
          description: 'March fee',
          productId: product.productId,
          allowPartialPayments: false,
          allowOverduePayment: false,
          additionalData,
        })),
      );
      expect(Object.keys(data).sort()).to.deep.equal(sorted([...BASE_KEYS, 'description', 'product', 'additionalData']));
      expect(data).to.deep.include({
        amount: 99,
        currency: 'USD',
        description: 'March fee',
        allowPartialPayments: false,
        allowOverduePayment: false,
        additionalData,
        autopay: false,
        autopayReason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY',
      });
      expect(data.product).to.deep.equal({ productId: product.productId, name: 'Gym', active: true, createdInline: false });
    });

    it('references a product by externalProductId (trimmed)', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Yoga', externalProductId: 'yoga-01' });
      const data = expectCreated(await postV2(t, debt({ externalProductId: 'yoga-01' })));
      expect(data.product).to.deep.equal({ productId: product.productId, name: 'Yoga', active: true, createdInline: false });
      expect((data.product as Body).productId).to.match(PRODUCT_ID);
      // The reference is trimmed like the product's own externalProductId.
      const padded = expectCreated(await postV2(t, debt({ externalProductId: '  yoga-01 ' })));
      expect((padded.product as Body).productId).to.equal(product.productId);
    });

    it('takes the currency from the company default when omitted (ARS), an explicit one wins', async () => {
      const { t } = await tenantWithContact({ settings: { defaultCurrency: 'ARS' } });
      expect(expectCreated(await postV2(t, debt())).currency).to.equal('ARS');
      expect(expectCreated(await postV2(t, debt({ currency: 'CLP' }))).currency).to.equal('CLP');
    });

    it('stores amounts exactly (0.01, 0.29, 1234.56, 10.1)', async () => {
      const { t } = await tenantWithContact();
      for (const amount of [0.01, 0.29, 1234.56, 10.1]) {
        const data = expectCreated(await postV2(t, debt({ amount })));
        expect(data.amount).to.equal(amount);
        expect((await getDebt(t, data.debtId as string)).body.data.amount).to.equal(amount);
      }
    });

    it('accepts a past dueDate (a leap day) and reads it as OVERDUE', async () => {
      const { t } = await tenantWithContact();
      const data = expectCreated(await postV2(t, debt({ dueDate: '2024-02-29' })));
      expect(data).to.deep.include({ dueDate: '2024-02-29', status: 'OVERDUE' });
    });

    it('uses the Idempotency-Key as externalRequestId and debtId = debt_<key>; the debt is readable', async () => {
      const { t } = await tenantWithContact();
      const key = 'order-2026.01:abc_1';
      const data = expectCreated(await postV2(t, debt(), key));
      expect(data.externalRequestId).to.equal(key);
      expect(data.debtId).to.equal(`debt_${key}`);
      const read = await getDebt(t, `debt_${key}`);
      expect(read.status, JSON.stringify(read.body)).to.equal(200);
      expect(read.body.data.debtId).to.equal(`debt_${key}`);
      // Reads do not carry the creation-only autopay fields.
      expect(read.body.data).to.not.have.any.keys('autopay', 'autopayReason');
      // 150 characters is the longest accepted key.
      const longest = `K${'x'.repeat(149)}`;
      expect(expectCreated(await postV2(t, debt(), longest)).debtId).to.equal(`debt_${longest}`);
    });

    it('generates a different externalRequestId for each request without Idempotency-Key', async () => {
      const { t } = await tenantWithContact();
      const first = expectCreated(await postV2(t, debt()));
      const second = expectCreated(await postV2(t, debt()));
      expect(second.externalRequestId).to.match(GENERATED_KEY);
      expect(second.debtId).to.not.equal(first.debtId);
      expect(await debtTotal(t)).to.equal(2);
    });
  });

  describe('POST /v2/debts: 400 INVALID_REQUEST, nothing created', () => {
    /** Sends each body and expects a 400 naming `field`; then no debt exists. */
    async function expectEachInvalid(bodies: Body[], field: string): Promise<void> {
      const { t } = await tenantWithContact();
      for (const body of bodies) expectInvalid(await postV2(t, body), field);
      expect(await debtTotal(t)).to.equal(0);
    }

    it('rejects a missing amount or dueDate naming it', async () => {
      await expectEachInvalid([{ externalClientId: CLIENT, dueDate: DUE }], 'amount');
      await expectEachInvalid([{ externalClientId: CLIENT, amount: 10 }], 'dueDate');
    });

    it('names the schema\'s problems and the rules between fields in one 400 (v2 and legacy)', async () => {
      const { t } = await tenantWithContact();
      for (const post of [postV2, postLegacy]) {
        const res = await post(t, { amount: 'x', dueDate: DUE, productId: 'prd_1', externalProductId: 'ext-1' });
        expect(res.status, JSON.stringify(res.body)).to.equal(400);
        expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['amount', 'externalClientId', 'externalProductId']);
      }
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects amounts 0, 0.001, 1.005, "10", -5: field amount', async () => {
      await expectEachInvalid([0, 0.001, 1.005, '10', -5].map((amount) => debt({ amount })), 'amount');
    });

    it('rejects dueDates 2026-02-30, 2026-2-01, 2026-01-01T00:00:00Z: field dueDate', async () => {
      await expectEachInvalid(['2026-02-30', '2026-2-01', '2026-01-01T00:00:00Z'].map((dueDate) => debt({ dueDate })), 'dueDate');
    });

    it('rejects currency "mxn" and an unlisted currency: field currency', async () => {
      await expectEachInvalid([debt({ currency: 'mxn' }), debt({ currency: 'EUR' })], 'currency');
    });

    it('rejects non-boolean allowPartialPayments / allowOverduePayment ("true", 1)', async () => {
      await expectEachInvalid([debt({ allowPartialPayments: 'true' }), debt({ allowPartialPayments: 1 })], 'allowPartialPayments');
      await expectEachInvalid([debt({ allowOverduePayment: 'true' }), debt({ allowOverduePayment: 0 })], 'allowOverduePayment');
    });

    it('rejects a non-string description: field description', async () => {
      await expectEachInvalid([debt({ description: 5 })], 'description');
    });

    it('rejects productId formats "prd_abc", "12", "prd_0": field productId', async () => {
      await expectEachInvalid(['prd_abc', '12', 'prd_0'].map((productId) => debt({ productId })), 'productId');
    });

    it("rejects ' \" \\ ; in externalProductId: field externalProductId", async () => {
      await expectEachInvalid(["'", '"', '\\', ';'].map((c) => debt({ externalProductId: `ab${c}cd` })), 'externalProductId');
    });

    it('rejects both debtor fields (field contactData) and neither (field externalClientId)', async () => {
      const contactData = { externalClientId: 'client-2', name: 'Bo', email: 'bo@example.com' };
      await expectEachInvalid([debt({ contactData })], 'contactData');
      await expectEachInvalid([{ amount: 10, dueDate: DUE }], 'externalClientId');
    });

    it('rejects productId together with externalProductId: field externalProductId', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Gym', externalProductId: 'gym-1' });
      expectInvalid(await postV2(t, debt({ productId: product.productId, externalProductId: 'gym-1' })), 'externalProductId');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects a scalar, array, nested or reserved-key additionalData with field exactly "additionalData"', async () => {
      const { t } = await tenantWithContact();
      const bad: unknown[] = [
        'text', 5, true, ['a'],
        { order: { id: 1 } },
        { tags: ['a', 'b'] },
        ...RESERVED_KEYS.map((key) => ({ ok: 1, [key]: 'x' })),
      ];
      for (const additionalData of bad) {
        const res = await postV2(t, debt({ additionalData }));
        expectInvalid(res, 'additionalData');
        expect(fieldsOf(res), JSON.stringify(additionalData)).to.deep.equal(fieldsOf(res).map(() => 'additionalData'));
      }
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects each field outside the contract naming it (productName, paymentMethods, paymentMethod, autopay, foo)', async () => {
      const { t } = await tenantWithContact();
      const extra: Body = { productName: 'Gym', paymentMethods: ['CASH'], paymentMethod: 'CASH', autopay: false, foo: 'bar' };
      for (const [field, value] of Object.entries(extra)) {
        expectInvalid(await postV2(t, debt({ [field]: value })), field);
      }
      const all = await postV2(t, debt(extra));
      for (const field of Object.keys(extra)) expectInvalid(all, field);
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects an unknown or missing field inside contactData naming its path', async () => {
      const { t } = await tenantWithContact();
      const contactData = { externalClientId: 'client-9', name: 'Bo', email: 'bo@example.com' };
      expectInvalid(await postV2(t, { amount: 10, dueDate: DUE, contactData: { ...contactData, nickname: 'b' } }), 'contactData.nickname');
      expectInvalid(await postV2(t, { amount: 10, dueDate: DUE, contactData: { ...contactData, email: undefined } }), 'contactData.email');
      expect(await debtTotal(t)).to.equal(0);
      const contacts = await http().get('/contacts').query({ externalClientId: 'client-9' }).set(t.headers);
      expect(contacts.body.meta.total).to.equal(0);
    });

    it('rejects an invalid Idempotency-Key: field Idempotency-Key', async () => {
      const { t } = await tenantWithContact();
      for (const key of ['-starts-with-dash', 'has space', 'slash/key', `K${'x'.repeat(150)}`]) {
        expectInvalid(await postV2(t, debt(), key), 'Idempotency-Key');
      }
      expect(await debtTotal(t)).to.equal(0);
    });
  });

  describe('POST /v2/debts: debtor and product resolution', () => {
    it('answers 422 BUSINESS_RULE_VIOLATION for an unknown externalClientId and creates nothing', async () => {
      const { t } = await tenantWithContact();
      expectFailure(await postV2(t, debt({ externalClientId: 'nobody' }), 'unknown-debtor-1'), 422, 'BUSINESS_RULE_VIOLATION');
      expect(await debtTotal(t)).to.equal(0);
      expect((await getDebt(t, 'debt_unknown-debtor-1')).status).to.equal(404);
    });

    it('does not let an organization use the contact of another organization (422)', async () => {
      const { t: owner } = await tenantWithContact();
      const other = await api().newTenant();
      expectFailure(await postV2(other, debt()), 422, 'BUSINESS_RULE_VIOLATION');
      expect(await debtTotal(other)).to.equal(0);
      expect(await debtTotal(owner)).to.equal(0);
    });

    it('answers 404 for a nonexistent product, creating no debt, no contact from contactData and no product', async () => {
      const t = await api().newTenant();
      const contactData = { externalClientId: 'new-client', name: 'Bo', email: 'bo@example.com' };
      for (const ref of [{ productId: 'prd_999999' }, { productId: 'prd_2848035817' }, { externalProductId: 'missing-1' }]) {
        expectFailure(await postV2(t, { amount: 10, dueDate: DUE, contactData, ...ref }), 404, 'RESOURCE_NOT_FOUND');
      }
      expect(await debtTotal(t)).to.equal(0);
      const contacts = await http().get('/contacts').query({ externalClientId: 'new-client' }).set(t.headers);
      expect(contacts.status).to.equal(200);
      expect(contacts.body.data).to.deep.equal([]);
      expect(contacts.body.meta.total).to.equal(0);
      expect((await http().get('/products').set(t.headers)).body.meta.total).to.equal(0);
    });

    it('answers 422 for an inactive product (by productId and by externalProductId) and creates nothing', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Retired', externalProductId: 'ret-1' });
      await deactivate(t, product.productId as string);
      expectFailure(await postV2(t, debt({ productId: product.productId })), 422, 'BUSINESS_RULE_VIOLATION');
      expectFailure(await postV2(t, debt({ externalProductId: 'ret-1' })), 422, 'BUSINESS_RULE_VIOLATION');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('creates the contact from contactData (createdInline true)', async () => {
      const t = await api().newTenant();
      const contactData = {
        externalClientId: 'inline-1',
        name: 'Carla Díaz',
        email: 'carla@example.com',
        phones: [{ number: '+52 55 1234 5678', type: 'MOBILE', primary: true }],
      };
      const data = expectCreated(await postV2(t, { amount: 10, dueDate: DUE, contactData }));
      const contact = data.contact as Body;
      expect(contact).to.deep.include({ externalClientId: 'inline-1', createdInline: true });
      expect(contact.contactId).to.match(CONTACT_ID);
      const read = await http().get(`/contacts/${contact.contactId}`).set(t.headers);
      expect(read.status).to.equal(200);
      expect(read.body.data).to.deep.include({ externalClientId: 'inline-1', name: 'Carla Díaz', email: 'carla@example.com' });
      expect(read.body.data.phones).to.deep.equal([{ number: '+52 55 1234 5678', type: 'MOBILE', primary: true, description: 'MOBILE' }]);
    });

    it('updates the existing contact from contactData (createdInline false, same contactId)', async () => {
      const { t, contact } = await tenantWithContact({});
      const contactData = {
        externalClientId: CLIENT,
        name: 'Ana María Pérez',
        email: 'ana.maria@example.com',
        phones: [{ number: '5550001', type: 'WORK' }],
      };
      const data = expectCreated(await postV2(t, { amount: 10, dueDate: DUE, contactData }));
      expect(data.contact).to.deep.equal({ contactId: contact.contactId, externalClientId: CLIENT, createdInline: false });
      const read = await http().get(`/contacts/${contact.contactId}`).set(t.headers);
      expect(read.body.data).to.deep.include({ name: 'Ana María Pérez', email: 'ana.maria@example.com' });
      expect(read.body.data.phones).to.deep.equal([{ number: '5550001', type: 'WORK', primary: false, description: 'WORK' }]);
      const contacts = await http().get('/contacts').query({ externalClientId: CLIENT }).set(t.headers);
      expect(contacts.body.meta.total).to.equal(1);
    });
  });

  describe('POST /v2/debts: autopay evaluation', () => {
    const cases = [
      { settings: { directDebitEnabled: true, directDebitModality: true }, product: false, reason: 'NO_PRODUCT' },
      { settings: {}, product: true, reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' },
      { settings: { directDebitModality: true }, product: true, reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' },
      { settings: { directDebitEnabled: true }, product: true, reason: 'COMPANY_WITHOUT_PRODUCT_MODALITY' },
      { settings: { directDebitEnabled: true, directDebitModality: true }, product: true, reason: 'NO_DEFAULT_PAYMENT_METHOD' },
    ];
    for (const c of cases) {
      it(`settings ${JSON.stringify(c.settings)}, ${c.product ? 'with' : 'without'} product → autopay false, ${c.reason}`, async () => {
        const { t } = await tenantWithContact({ settings: c.settings });
        const product = c.product ? await createProduct(t, { name: 'Gym' }) : null;
        const data = expectCreated(await postV2(t, debt(product ? { productId: product.productId } : {})));
        expect(data.autopay).to.equal(false);
        expect(data.autopayReason).to.equal(c.reason);
        expect(data).to.not.have.property('autopayInstrument');
      });
    }
  });

  describe('POST /v2/debts: idempotency', () => {
    it('replays the stored debt for a repeated Idempotency-Key (201, Idempotent-Replayed: true, body ignored)', async () => {
      const { t } = await tenantWithContact();
      const first = await postV2(t, debt({ amount: 100, description: 'first' }), 'order-77');
      const stored = expectCreated(first);
      const second = await postV2(t, debt({ amount: 200, description: 'second', currency: 'USD' }), 'order-77');
      const replayed = expectCreated(second);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      expect(replayed.debtId).to.equal('debt_order-77');
      expect(replayed).to.deep.equal(stored);
      expect(replayed).to.deep.include({ amount: 100, description: 'first', currency: 'MXN' });
      expect(await debtTotal(t)).to.equal(1);
    });

    it('creates exactly one debt for 20 concurrent requests with one Idempotency-Key', async () => {
      const { t } = await tenantWithContact();
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postV2(t, debt({ amount: 10 + i }), 'race-1')));
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(new Set(answers.map((r) => r.body.data.debtId))).to.deep.equal(new Set(['debt_race-1']));
      expect(new Set(answers.map((r) => r.body.data.amount)).size).to.equal(1);
      expect(answers.filter((r) => r.headers['idempotent-replayed'] === undefined)).to.have.length(1);
      const list = await listDebts(t);
      expect(list.body.meta.total).to.equal(1);
      expect(list.body.data.map((d: Body) => d.debtId)).to.deep.equal(['debt_race-1']);
    });

    it('creates one debt and one contact for 20 concurrent requests with one key and contactData of a new contact', async () => {
      const t = await api().newTenant();
      const contactData = { externalClientId: 'racer', name: 'Racer', email: 'racer@example.com' };
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => postV2(t, { amount: 10, dueDate: DUE, contactData }, 'race-2')),
      );
      for (const res of answers) expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(new Set(answers.map((r) => r.body.data.debtId))).to.deep.equal(new Set(['debt_race-2']));
      expect(await debtTotal(t)).to.equal(1);
      const contacts = await http().get('/contacts').query({ externalClientId: 'racer' }).set(t.headers);
      expect(contacts.body.meta.total).to.equal(1);
    });
  });

  describe('legacy POST /debts', () => {
    it('ignores undeclared fields and answers autopay false, NO_PRODUCT, for a debt without product (not evaluated)', async () => {
      const { t, contact } = await tenantWithContact();
      const res = await postLegacy(t, debt({ foo: 'bar', paymentMethod: 'CASH', nested: { a: 1 } }));
      const data = expectCreated(res);
      expect(Object.keys(data).sort()).to.deep.equal(sorted(BASE_KEYS));
      expect(data).to.deep.include({ status: 'PENDING', amount: 150.5, currency: 'MXN', autopay: false, autopayReason: 'NO_PRODUCT' });
      expect(data.contact).to.deep.equal({ contactId: contact.contactId, externalClientId: CLIENT, createdInline: false });
      expect(data.debtId).to.equal(`debt_${data.externalRequestId}`);
    });

    it('answers autopay false without autopayReason for autopay false, even with a product in a direct-debit company', async () => {
      const { t } = await tenantWithContact({ settings: { directDebitEnabled: true, directDebitModality: true } });
      const data = expectCreated(await postLegacy(t, debt({ autopay: false, productName: 'Gym' })));
      expect(data.autopay).to.equal(false);
      expect(data).to.not.have.property('autopayReason');
    });

    it('resolves productName to the existing active product (trimmed)', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Yoga' });
      const data = expectCreated(await postLegacy(t, debt({ productName: '  Yoga ' })));
      expect(data.product).to.deep.equal({ productId: product.productId, name: 'Yoga', active: true, createdInline: false });
      expect((await http().get('/products').set(t.headers)).body.meta.total).to.equal(1);
    });

    it('creates the product named by productName when absent; GET /products lists it', async () => {
      const { t } = await tenantWithContact();
      const data = expectCreated(await postLegacy(t, debt({ productName: 'Pilates' })));
      const product = data.product as Body;
      expect(product).to.deep.include({ name: 'Pilates', active: true, createdInline: false });
      expect(product.productId).to.match(PRODUCT_ID);
      const listed = await http().get('/products').query({ name: 'Pilates' }).set(t.headers);
      expect(listed.body.data.map((p: Body) => p.productId)).to.deep.equal([product.productId]);
    });

    it('answers 422 for the productName of an inactive product and creates no debt', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Old plan' });
      await deactivate(t, product.productId as string);
      expectFailure(await postLegacy(t, debt({ productName: 'Old plan' })), 422, 'BUSINESS_RULE_VIOLATION');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects productName with productId or externalProductId: field productName', async () => {
      const { t } = await tenantWithContact();
      const product = await createProduct(t, { name: 'Gym', externalProductId: 'gym-1' });
      expectInvalid(await postLegacy(t, debt({ productName: 'Gym', productId: product.productId })), 'productName');
      expectInvalid(await postLegacy(t, debt({ productName: 'Gym', externalProductId: 'gym-1' })), 'productName');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('echoes paymentMethods (also on GET)', async () => {
      const { t } = await tenantWithContact();
      const data = expectCreated(await postLegacy(t, debt({ paymentMethods: ['CASH', 'BANK_TRANSFER'], autopay: false })));
      expect(data.paymentMethods).to.deep.equal(['CASH', 'BANK_TRANSFER']);
      expect(Object.keys(data).sort()).to.deep.equal(sorted([...BASE_KEYS, 'paymentMethods']));
      expect(data).to.deep.include({ autopay: false, autopayReason: 'NO_PRODUCT' });
      expect((await getDebt(t, data.debtId as string)).body.data.paymentMethods).to.deep.equal(['CASH', 'BANK_TRANSFER']);
    });

    it('rejects an invalid payment method (field paymentMethods[0]), an empty or repeated list (field paymentMethods)', async () => {
      const { t } = await tenantWithContact();
      expectInvalid(await postLegacy(t, debt({ paymentMethods: ['CHEQUE'] })), 'paymentMethods[0]');
      expectInvalid(await postLegacy(t, debt({ paymentMethods: [] })), 'paymentMethods');
      expectInvalid(await postLegacy(t, debt({ paymentMethods: ['CASH', 'CASH'] })), 'paymentMethods');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('rejects autopay true with paymentMethods (field paymentMethods) and autopay "true" (field autopay)', async () => {
      const { t } = await tenantWithContact();
      expectInvalid(await postLegacy(t, debt({ autopay: true, paymentMethods: ['CARD'] })), 'paymentMethods');
      expectInvalid(await postLegacy(t, debt({ autopay: 'true' })), 'autopay');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('evaluates direct debit when autopay is true (NO_PRODUCT, then company disabled)', async () => {
      const { t } = await tenantWithContact();
      const bare = expectCreated(await postLegacy(t, debt({ autopay: true })));
      expect(bare).to.deep.include({ autopay: false, autopayReason: 'NO_PRODUCT' });
      const withProduct = expectCreated(await postLegacy(t, debt({ autopay: true, productName: 'Gym' })));
      expect(withProduct).to.deep.include({ autopay: false, autopayReason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' });
    });

    it('applies the same debtor rules: unknown externalClientId 422, both 400 contactData, neither 400 externalClientId', async () => {
      const { t } = await tenantWithContact();
      expectFailure(await postLegacy(t, debt({ externalClientId: 'nobody' })), 422, 'BUSINESS_RULE_VIOLATION');
      const contactData = { externalClientId: 'client-2', name: 'Bo', email: 'bo@example.com' };
      expectInvalid(await postLegacy(t, debt({ contactData })), 'contactData');
      expectInvalid(await postLegacy(t, { amount: 10, dueDate: DUE }), 'externalClientId');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('creates the contact from contactData, ignoring undeclared fields inside it', async () => {
      const t = await api().newTenant();
      const contactData = { externalClientId: 'legacy-inline', name: 'Lu', email: 'lu@example.com', nickname: 'lu' };
      const data = expectCreated(await postLegacy(t, { amount: 10, dueDate: DUE, contactData }));
      expect(data.contact).to.deep.include({ externalClientId: 'legacy-inline', createdInline: true });
    });

    it('validates the declared fields like v2 (amount, dueDate, productId, Idempotency-Key)', async () => {
      const { t } = await tenantWithContact();
      expectInvalid(await postLegacy(t, debt({ amount: 1.005 })), 'amount');
      expectInvalid(await postLegacy(t, debt({ dueDate: '2026-02-30' })), 'dueDate');
      expectInvalid(await postLegacy(t, debt({ productId: '12' })), 'productId');
      expectInvalid(await postLegacy(t, debt(), 'bad key'), 'Idempotency-Key');
      expect(await debtTotal(t)).to.equal(0);
    });

    it('replays the stored debt for a repeated Idempotency-Key', async () => {
      const { t } = await tenantWithContact();
      const stored = expectCreated(await postLegacy(t, debt({ amount: 5, paymentMethods: ['CASH'] }), 'legacy-1'));
      const second = await postLegacy(t, debt({ amount: 6 }), 'legacy-1');
      expect(expectCreated(second)).to.deep.equal(stored);
      expect(second.headers['idempotent-replayed']).to.equal('true');
      expect(await debtTotal(t)).to.equal(1);
    });
  });

  describe('multi-company', () => {
    it('takes companyCode in the body as context and scopes the debt to that company', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      await createContact(t, { companyCode: a });
      const created = expectCreated(await postV2(t, debt({ companyCode: a }), 'multi-1'));
      expect(created).to.not.have.property('companyCode');
      expect((await getDebt(t, 'debt_multi-1', { companyCode: a })).status).to.equal(200);
      expectFailure(await getDebt(t, 'debt_multi-1', { companyCode: b }), 404, 'RESOURCE_NOT_FOUND');
      expect(await debtTotal(t, { companyCode: a })).to.equal(1);
      expect(await debtTotal(t, { companyCode: b })).to.equal(0);
      const legacy = expectCreated(await postLegacy(t, debt({ companyCode: b })));
      expectFailure(await getDebt(t, legacy.debtId as string, { companyCode: a }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('requires companyCode from a multi-company client and does not use a product of the other company', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      await createContact(t, { companyCode: a });
      expectInvalid(await postV2(t, debt()), 'companyCode');
      const product = await createProduct(t, { name: 'Only in A', companyCode: a });
      expectFailure(await postV2(t, debt({ companyCode: b, productId: product.productId })), 404, 'RESOURCE_NOT_FOUND');
      expect(await debtTotal(t, { companyCode: b })).to.equal(0);
    });
  });
});
