import { expect } from 'chai';
import type { Response } from 'supertest';
import { describeEachDatabase, type Tenant } from '../support/harness';

const REQUEST_ID = /^req_[A-Za-z0-9]+$/;
const BATCH_ID = /^bat_[A-Za-z0-9]+$/;
const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const DUE = '2099-12-31';
/** A batch item without description, product or additionalData carries exactly these keys. */
const ITEM_KEYS = [
  'allowOverduePayment', 'allowPartialPayments', 'amount', 'amountPaid', 'autopay', 'autopayReason', 'batchId', 'contact',
  'createdAt', 'currency', 'debtId', 'dueDate', 'externalRequestId', 'paymentUrl', 'status',
];
const ITEM_ERROR_KEYS = ['code', 'externalRequestId', 'index', 'message'];
const ITEM_DETAIL_KEYS = ['externalRequestId', 'field', 'index', 'issue'];

interface Debt {
  debtId: string;
  externalRequestId: string;
  amount: number;
  batchId?: string;
  autopay: boolean;
  autopayReason?: string;
  contact: { contactId: string; externalClientId: string; createdInline: boolean };
  product?: { productId: string };
}
interface ItemError { index: number; externalRequestId: string; code: string; message: string }
interface ItemDetail { index?: number; externalRequestId?: string | null; field: string; issue: string }

/** One v2 batch item: a known debtor by externalClientId unless overridden. */
function item(externalRequestId: string, debtor: string, overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { externalRequestId, externalClientId: debtor, amount: 10.5, dueDate: DUE, ...overrides };
}

function contactData(externalClientId: string, name = 'Inline Debtor'): Record<string, unknown> {
  return { externalClientId, name, email: `${externalClientId}@example.com` };
}

/** `ids('a', 3)` → ['a-0', 'a-1', 'a-2']. */
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}`);

/** 400 INVALID_REQUEST; returns its details. */
function expectInvalid(res: Response): ItemDetail[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body.error.code).to.equal('INVALID_REQUEST');
  expect(res.body.error.message).to.be.a('string');
  expect(res.body.requestId).to.match(REQUEST_ID);
  expect(res.body.error.details, JSON.stringify(res.body)).to.be.an('array').that.is.not.empty;
  return res.body.error.details;
}

/** Every detail is an item detail (index, externalRequestId, field, issue and nothing else). */
function expectItemDetails(details: ItemDetail[]): void {
  for (const d of details) expect(Object.keys(d).sort(), JSON.stringify(d)).to.deep.equal(ITEM_DETAIL_KEYS);
}

function expectBatchEnvelope(res: Response, status: number): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.body.batchId).to.match(BATCH_ID);
  expect(res.body.requestId).to.match(REQUEST_ID);
  expect(res.body.data).to.be.an('array');
}

function expectItemErrors(res: Response, expected: { index: number; externalRequestId: string; code: string }[]): void {
  const errors: ItemError[] = res.body.errors;
  expect(errors, JSON.stringify(res.body)).to.be.an('array').with.lengthOf(expected.length);
  for (const e of errors) {
    expect(Object.keys(e).sort()).to.deep.equal(ITEM_ERROR_KEYS);
    expect(e.message).to.be.a('string').that.is.not.empty;
  }
  expect(errors.map(({ index, externalRequestId, code }) => ({ index, externalRequestId, code }))).to.deep.equal(expected);
}

describeEachDatabase('POST /v2/debts batch', ({ api }) => {
  const http = () => api().http;
  const postBatch = (t: Tenant, body: unknown) => http().post('/v2/debts').set(t.headers).send(body as object);
  const listDebts = (t: Tenant, query: Record<string, string> = {}) => http().get('/debts').set(t.headers).query(query);

  async function totalDebts(t: Tenant, query: Record<string, string> = {}): Promise<number> {
    const res = await listDebts(t, query);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.meta.total;
  }

  async function totalContacts(t: Tenant, externalClientId: string): Promise<number> {
    const res = await http().get('/contacts').set(t.headers).query({ externalClientId });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.meta.total;
  }

  async function newContact(t: Tenant, externalClientId = 'client-1'): Promise<string> {
    const res = await http().post('/contacts').set(t.headers).send(contactData(externalClientId, 'Known Debtor'));
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return externalClientId;
  }

  async function newProduct(t: Tenant, name: string, externalProductId?: string): Promise<string> {
    const res = await http().post('/products').set(t.headers).send({ name, externalProductId });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data.productId;
  }

  async function inactiveProduct(t: Tenant, name: string): Promise<string> {
    const productId = await newProduct(t, name);
    const res = await http().delete(`/products/${productId}`).set(t.headers);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return productId;
  }

  /** A tenant with one known contact; the batch must be rejected with 400 and create nothing. */
  async function expectRejected(build: (debtor: string) => unknown): Promise<ItemDetail[]> {
    const t = await api().newTenant();
    const debtor = await newContact(t);
    const details = expectInvalid(await postBatch(t, build(debtor)));
    expect(await totalDebts(t)).to.equal(0);
    return details;
  }

  describe('all created', () => {
    it('201: data in the order sent, each with the top-level batchId and the autopay fields', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const productId = await newProduct(t, 'Gym');
      const keys = ['zz-3', 'aa-1', 'mm-2'];
      const res = await postBatch(t, {
        debts: [
          item(keys[0]!, debtor, { amount: 1 }),
          item(keys[1]!, debtor, { amount: 2, productId }),
          item(keys[2]!, debtor, { amount: 3 }),
        ],
      });
      expectBatchEnvelope(res, 201);
      expect(res.body).to.not.have.property('errors');
      const data: Debt[] = res.body.data;
      expect(data.map((d) => d.externalRequestId)).to.deep.equal(keys);
      expect(data.map((d) => d.debtId)).to.deep.equal(keys.map((k) => `debt_${k}`));
      expect(data.map((d) => d.amount)).to.deep.equal([1, 2, 3]);
      for (const d of data) {
        expect(d.batchId).to.equal(res.body.batchId);
        expect(d.autopay).to.equal(false);
        expect(d.contact.externalClientId).to.equal(debtor);
        expect(d.contact.createdInline).to.equal(false);
      }
      expect(data[0]!.autopayReason).to.equal('NO_PRODUCT');
      expect(data[1]!.autopayReason).to.equal('DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY');
      expect(data[1]!.product!.productId).to.equal(productId);
      expect(Object.keys(data[0]!).sort()).to.deep.equal(ITEM_KEYS);
      expect((data[0] as unknown as { createdAt: string }).createdAt).to.match(ISO_MS);
      expect(await totalDebts(t)).to.equal(3);
    });

    it('GET /debts?batchId= lists exactly the debts the batch created', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const first = await postBatch(t, { debts: ids('first', 2).map((k) => item(k, debtor)) });
      expectBatchEnvelope(first, 201);
      const second = await postBatch(t, { debts: ids('second', 3).map((k) => item(k, debtor)) });
      expectBatchEnvelope(second, 201);
      expect(second.body.batchId).to.not.equal(first.body.batchId);

      const res = await listDebts(t, { batchId: second.body.batchId });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.meta.total).to.equal(3);
      expect(res.body.data.map((d: Debt) => d.externalRequestId).sort()).to.deep.equal(ids('second', 3));
      for (const d of res.body.data as Debt[]) expect(d.batchId).to.equal(second.body.batchId);
      expect(await totalDebts(t, { batchId: 'bat_doesnotexist' })).to.equal(0);
    });

    it('accepts 50 items in one batch', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const keys = ids('fifty', 50);
      const res = await postBatch(t, { debts: keys.map((k, i) => item(k, debtor, { amount: i + 1 })) });
      expectBatchEnvelope(res, 201);
      expect(res.body.data.map((d: Debt) => d.externalRequestId)).to.deep.equal(keys);
      expect(await totalDebts(t, { batchId: res.body.batchId })).to.equal(50);
    });

    it('the same contactData in several items creates one contact, shared by every debt', async () => {
      const t = await api().newTenant();
      const data = contactData('inline-1');
      const res = await postBatch(t, {
        debts: ids('inline', 3).map((k) => ({ externalRequestId: k, contactData: data, amount: 5, dueDate: DUE })),
      });
      expectBatchEnvelope(res, 201);
      const debts: Debt[] = res.body.data;
      expect(new Set(debts.map((d) => d.contact.contactId)).size).to.equal(1);
      for (const d of debts) expect(d.contact).to.deep.include({ externalClientId: 'inline-1', createdInline: true });
      expect(await totalContacts(t, 'inline-1')).to.equal(1);
    });
  });

  describe('existing externalRequestId', () => {
    it('returns the debt created by single mode (Idempotency-Key) and creates nothing new for it', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const single = await http().post('/v2/debts').set(t.headers).set('Idempotency-Key', 'key-1')
        .send({ externalClientId: debtor, amount: 99.99, dueDate: DUE });
      expect(single.status, JSON.stringify(single.body)).to.equal(201);

      const res = await postBatch(t, { debts: [item('key-1', debtor, { amount: 1 }), item('key-2', debtor, { amount: 2 })] });
      expectBatchEnvelope(res, 201);
      const [stored, fresh] = res.body.data as Debt[];
      expect(stored).to.deep.include({ debtId: 'debt_key-1', externalRequestId: 'key-1', amount: 99.99 });
      expect(stored).to.not.have.property('batchId');
      expect(fresh).to.deep.include({ debtId: 'debt_key-2', amount: 2, batchId: res.body.batchId });
      expect(await totalDebts(t)).to.equal(2);
      expect(await totalDebts(t, { batchId: res.body.batchId })).to.equal(1);
    });

    it('returns the debt created by an earlier batch, keeping its batchId', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const first = await postBatch(t, { debts: [item('a', debtor, { amount: 1 }), item('b', debtor, { amount: 2 })] });
      expectBatchEnvelope(first, 201);

      const second = await postBatch(t, { debts: [item('b', debtor, { amount: 20 }), item('c', debtor, { amount: 3 })] });
      expectBatchEnvelope(second, 201);
      const [b, c] = second.body.data as Debt[];
      expect(b).to.deep.include({ debtId: 'debt_b', amount: 2, batchId: first.body.batchId });
      expect(c).to.deep.include({ debtId: 'debt_c', amount: 3, batchId: second.body.batchId });
      expect(await totalDebts(t)).to.equal(3);

      const listed = await listDebts(t, { batchId: second.body.batchId });
      expect(listed.body.data.map((d: Debt) => d.externalRequestId)).to.deep.equal(['c']);
    });
  });

  describe('per-item failures', () => {
    it('207: data holds the created debts in order, errors[] the failed items', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const inactive = await inactiveProduct(t, 'Old plan');
      const res = await postBatch(t, {
        debts: [
          item('ok-0', debtor, { amount: 1 }),
          item('unknown-debtor', 'nobody-here'),
          item('missing-product', debtor, { productId: 'prd_999999' }),
          item('inactive-product', debtor, { productId: inactive }),
          item('missing-external-product', debtor, { externalProductId: 'no-such-product' }),
          item('ok-5', debtor, { amount: 5 }),
        ],
      });
      expectBatchEnvelope(res, 207);
      expect(res.body.data.map((d: Debt) => d.externalRequestId)).to.deep.equal(['ok-0', 'ok-5']);
      for (const d of res.body.data as Debt[]) expect(d.batchId).to.equal(res.body.batchId);
      expectItemErrors(res, [
        { index: 1, externalRequestId: 'unknown-debtor', code: 'BUSINESS_RULE_VIOLATION' },
        { index: 2, externalRequestId: 'missing-product', code: 'RESOURCE_NOT_FOUND' },
        { index: 3, externalRequestId: 'inactive-product', code: 'BUSINESS_RULE_VIOLATION' },
        { index: 4, externalRequestId: 'missing-external-product', code: 'RESOURCE_NOT_FOUND' },
      ]);
      expect(await totalDebts(t)).to.equal(2);
      const failed = await http().get('/debts/debt_unknown-debtor').set(t.headers);
      expect(failed.status).to.equal(404);
    });

    it('422: every item failed, data is empty and every item is in errors[]', async () => {
      const t = await api().newTenant();
      const debtor = await newContact(t);
      const res = await postBatch(t, {
        debts: [item('x-0', 'ghost-1'), item('x-1', debtor, { productId: 'prd_424242' }), item('x-2', 'ghost-2')],
      });
      expectBatchEnvelope(res, 422);
      expect(res.body.data).to.deep.equal([]);
      expectItemErrors(res, [
        { index: 0, externalRequestId: 'x-0', code: 'BUSINESS_RULE_VIOLATION' },
        { index: 1, externalRequestId: 'x-1', code: 'RESOURCE_NOT_FOUND' },
        { index: 2, externalRequestId: 'x-2', code: 'BUSINESS_RULE_VIOLATION' },
      ]);
      expect(await totalDebts(t)).to.equal(0);
    });
  });

  describe('invalid items: 400, nothing created', () => {
    it('a missing externalRequestId: detail with externalRequestId null', async () => {
      const details = await expectRejected((debtor) => ({
        debts: [item('fine-0', debtor), { externalClientId: debtor, amount: 1, dueDate: DUE }],
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 1, externalRequestId: null, field: 'externalRequestId' },
      ]);
      expect(details[0]!.issue).to.be.a('string').that.is.not.empty;
    });

    it('a repeated externalRequestId: detail on the later index', async () => {
      const details = await expectRejected((debtor) => ({
        debts: [item('dup', debtor), item('other', debtor), item('dup', debtor)],
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 2, externalRequestId: 'dup', field: 'externalRequestId' },
      ]);
    });

    it('fields outside the v2 contract inside an item (productName, paymentMethods) are named', async () => {
      const details = await expectRejected((debtor) => ({
        debts: [item('p-0', debtor), item('p-1', debtor, { productName: 'Gym' }), item('p-2', debtor, { paymentMethods: ['CASH'] })],
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 1, externalRequestId: 'p-1', field: 'productName' },
        { index: 2, externalRequestId: 'p-2', field: 'paymentMethods' },
      ]);
    });

    it('an invalid amount in one item of five names that index and field amount', async () => {
      const details = await expectRejected((debtor) => ({
        debts: ids('amt', 5).map((k, i) => item(k, debtor, i === 3 ? { amount: 1.005 } : {})),
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 3, externalRequestId: 'amt-3', field: 'amount' },
      ]);
    });

    it('both externalClientId and contactData in an item: field contactData', async () => {
      const details = await expectRejected((debtor) => ({
        debts: [item('both-0', debtor), item('both-1', debtor, { contactData: contactData('inline-x') })],
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 1, externalRequestId: 'both-1', field: 'contactData' },
      ]);
    });
    it('two primary phones in an item\'s contactData: detail with its index, field contactData.phones', async () => {
      const phones = [{ number: '5512345678', type: 'MAIN', primary: true }, { number: '5587654321', type: 'WORK', primary: true }];
      const details = await expectRejected((debtor) => ({
        debts: [item('ph-0', debtor), { externalRequestId: 'ph-1', contactData: { ...contactData('inline-ph'), phones }, amount: 1, dueDate: DUE }],
      }));
      expectItemDetails(details);
      expect(details).to.deep.equal([{ index: 1, externalRequestId: 'ph-1', field: 'contactData.phones', issue: 'at most one phone can be primary' }]);
    });

    it('names every invalid item in item order, whether the schema or a rule between fields refuses it', async () => {
      const details = await expectRejected((debtor) => ({
        debts: [
          item('all-0', debtor, { amount: 'x' }),
          { externalRequestId: 'all-1', amount: 1, dueDate: DUE },
          item('all-0', debtor),
          item('all-3', debtor),
          item('all-4', debtor, { productId: 'prd_1', externalProductId: 'ext-1' }),
          item('all-5', debtor, { dueDate: '2099-02-30', productName: 'Gym' }),
          { externalRequestId: 'all-6', amount: 'y', dueDate: DUE },
        ],
      }));
      expectItemDetails(details);
      expect(details.map(({ index, externalRequestId, field }) => ({ index, externalRequestId, field }))).to.deep.equal([
        { index: 0, externalRequestId: 'all-0', field: 'amount' },
        { index: 1, externalRequestId: 'all-1', field: 'externalClientId' },
        { index: 2, externalRequestId: 'all-0', field: 'externalRequestId' },
        { index: 4, externalRequestId: 'all-4', field: 'externalProductId' },
        { index: 5, externalRequestId: 'all-5', field: 'productName' },
        { index: 5, externalRequestId: 'all-5', field: 'dueDate' },
        { index: 6, externalRequestId: 'all-6', field: 'amount' },
        { index: 6, externalRequestId: 'all-6', field: 'externalClientId' },
      ]);
    });
  });

  describe('invalid envelope: 400, nothing created', () => {
    it('an empty debts array: field debts', async () => {
      const details = await expectRejected(() => ({ debts: [] }));
      expect(details.map((d) => d.field)).to.deep.equal(['debts']);
      expect(details[0]).to.not.have.property('index');
    });

    it('51 items: field debts', async () => {
      const details = await expectRejected((debtor) => ({ debts: ids('many', 51).map((k) => item(k, debtor)) }));
      expect(details.map((d) => d.field)).to.deep.equal(['debts']);
    });

    it('a root JSON array', async () => {
      await expectRejected((debtor) => [item('arr-0', debtor)]);
    });

    it('a root field beside debts is named', async () => {
      const details = await expectRejected((debtor) => ({ debts: [item('root-0', debtor)], batchName: 'march' }));
      expect(details.map((d) => d.field)).to.deep.equal(['batchName']);
      expect(details[0]).to.not.have.property('index');
    });
  });
});

describeEachDatabase('POST /v2/debts concurrency', ({ api }) => {
  const http = () => api().http;

  function expectNo5xx(responses: Response[]): void {
    const failures = responses.filter((r) => r.status >= 500).map((r) => `${r.status} ${JSON.stringify(r.body)}`);
    expect(failures).to.deep.equal([]);
  }

  async function total(t: Tenant, path: string, query: Record<string, string>): Promise<number> {
    const res = await http().get(path).set(t.headers).query(query);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.meta.total;
  }

  it('50 parallel single POSTs with one Idempotency-Key create the debt (and its inline contact) once', async () => {
    const t = await api().newTenant();
    const body = { contactData: { externalClientId: 'race-1', name: 'Racer', email: 'race@example.com' }, amount: 12.34, dueDate: DUE };
    const responses = await Promise.all(
      Array.from({ length: 50 }, () => http().post('/v2/debts').set(t.headers).set('Idempotency-Key', 'same-key').send(body)),
    );
    expectNo5xx(responses);
    expect(responses.map((r) => r.status)).to.deep.equal(Array(50).fill(201));
    expect(new Set(responses.map((r) => r.body.data.debtId))).to.deep.equal(new Set(['debt_same-key']));
    expect(responses.filter((r) => r.headers['idempotent-replayed'] !== 'true')).to.have.lengthOf(1);
    expect(await total(t, '/debts', {})).to.equal(1);
    expect(await total(t, '/contacts', { externalClientId: 'race-1' })).to.equal(1);
  });

  it('50 parallel single POSTs with distinct keys (written together in groups) each create their own debt once', async () => {
    const t = await api().newTenant();
    const contact = { externalClientId: 'many', name: 'Many', email: 'many@example.com' };
    expect((await http().post('/contacts').set(t.headers).send(contact)).status).to.equal(201);
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        http().post('/v2/debts').set(t.headers).set('Idempotency-Key', `distinct-${i}`).send({ externalClientId: 'many', amount: 1 + i, dueDate: DUE }),
      ),
    );
    expectNo5xx(responses);
    expect(responses.map((r) => r.status)).to.deep.equal(Array(50).fill(201));
    expect(responses.map((r) => [r.body.data.debtId, r.body.data.amount, r.headers['idempotent-replayed'] ?? null])).to.deep.equal(
      Array.from({ length: 50 }, (_, i) => [`debt_distinct-${i}`, 1 + i, null]),
    );
    expect(new Set(responses.map((r) => r.body.requestId)).size).to.equal(50);
    expect(await total(t, '/debts', {})).to.equal(50);
  });

  it('50 parallel batches sharing 10 externalRequestIds and a new inline contact create each once', async () => {
    const t = await api().newTenant();
    const keys = ids('shared', 10);
    const debts = keys.map((k) => ({
      externalRequestId: k,
      contactData: { externalClientId: 'race-batch', name: 'Batch Racer', email: 'batch@example.com' },
      amount: 7,
      dueDate: DUE,
    }));
    const responses = await Promise.all(Array.from({ length: 50 }, () => http().post('/v2/debts').set(t.headers).send({ debts })));
    expectNo5xx(responses);
    expect(responses.map((r) => r.status), JSON.stringify(responses.map((r) => r.body.errors ?? null))).to.deep.equal(Array(50).fill(201));
    const batchIds = new Set(responses.map((r) => r.body.batchId as string));
    expect(batchIds.size).to.equal(50);
    for (const r of responses) {
      expect(r.body).to.not.have.property('errors');
      const data: Debt[] = r.body.data;
      expect(data.map((d) => d.externalRequestId)).to.deep.equal(keys);
      for (const d of data) expect(batchIds.has(d.batchId!)).to.equal(true);
    }
    // Every answer shows the same stored debt per key.
    for (let i = 0; i < keys.length; i++) {
      expect(new Set(responses.map((r) => r.body.data[i].batchId)).size, keys[i]).to.equal(1);
      expect(new Set(responses.map((r) => r.body.data[i].contact.contactId)).size).to.equal(1);
    }
    expect(await total(t, '/debts', {})).to.equal(10);
    expect(await total(t, '/contacts', { externalClientId: 'race-batch' })).to.equal(1);
  });
});
