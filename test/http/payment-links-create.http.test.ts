import crypto from 'node:crypto';
import { expect } from 'chai';
import type { Response } from 'supertest';
import type { CompanySettings } from '../../internal/tenancy/company';
import { describeEachDatabase } from '../support/harness';
import { expectFailure, expectInvalid, expectOk, REQUEST_ID } from '../support/http-expect';

/** Every creation rule of POST /payment-links, through HTTP. */

const LINK_ID = /^plk_[A-Za-z0-9]{20}$/;
const PRODUCT_ID = /^prd_[1-9]\d*$/;
const CONTACT_ID = /^con_[A-Za-z0-9]+$/;
const SYNTHETIC = /^[a-z0-9]{3}-[a-z0-9]{8,}$/;
const PRIVATE_URL = /^http:\/\/localhost:3000\/l\/[A-Za-z0-9]{16}$/;
/** Far enough ahead to stay in the future whatever the real clock says. */
const FUTURE = '2099-06-15T10:00:00Z';
const FUTURE_UTC = '2099-06-15T10:00:00.000Z';
/** Every PaymentLink answer carries exactly these keys. */
const LINK_KEYS = [
  'amount', 'contact', 'createdAt', 'currency', 'debtId', 'description', 'expiresAt', 'externalPaymentLinkId',
  'identifierValue', 'metadata', 'paymentLinkId', 'paymentUrl', 'product', 'singleUse', 'status', 'successUrl',
].sort();

type Body = Record<string, unknown>;
/** What a request needs of a tenant: its credential headers (and its company codes). */
interface Caller {
  headers: Record<string, string>;
  companyCodes: string[];
}

const link = (overrides: Body = {}): Body => ({ amount: 250.75, description: 'Cuota mensual', expiresAt: FUTURE, ...overrides });

function expectCreated(res: Response): Body {
  expect(res.status, JSON.stringify(res.body)).to.equal(201);
  expect(res.body.requestId).to.match(REQUEST_ID);
  expect(Object.keys(res.body.data).sort(), 'PaymentLink keys').to.deep.equal(LINK_KEYS);
  return res.body.data;
}

describeEachDatabase('payment links creation', ({ api }) => {
  const http = () => api().http;

  const post = (t: Caller, body: Body, key?: string) => {
    const req = http().post('/payment-links').set(t.headers);
    if (key !== undefined) req.set('Idempotency-Key', key);
    return req.send(body);
  };
  const create = async (t: Caller, overrides: Body = {}, key?: string) => expectCreated(await post(t, link(overrides), key));
  const getDebt = (t: Caller, debtId: unknown) => http().get(`/debts/${String(debtId)}`).set(t.headers);

  async function total(t: Caller, path: string, query: Record<string, string> = {}): Promise<number> {
    const res = await http().get(path).query(query).set(t.headers);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.meta.total;
  }
  const linkTotal = (t: Caller, query: Record<string, string> = {}) => total(t, '/payment-links', query);
  const debtTotal = (t: Caller) => total(t, '/debts');

  async function freeze(t: Caller, now: string): Promise<void> {
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
  }

  async function createContact(t: Caller, externalClientId: string): Promise<Body> {
    const res = await http().post('/contacts').set(t.headers).send({ externalClientId, name: 'Ana Pérez', email: 'ana@example.com' });
    expect(res.status, JSON.stringify(res.body)).to.equal(201);
    return res.body.data;
  }

  const tenant = (settings?: Partial<CompanySettings>) => api().newTenant({ settings });

  /** A client of an organization whose name the test chooses (newTenant always names it `Org <hex>`). */
  async function tenantOf(organization: string): Promise<Caller> {
    const suffix = crypto.randomBytes(6).toString('hex');
    const password = `pw-${suffix}-secret`;
    const created = await api().app.commands.createClient.execute({
      organization, username: `user_${suffix}`, password, companies: [], settings: {},
    });
    const login = await http().post('/auth/login').set('x-api-key', created.loginApiKey).send({ clientUsername: created.clientUsername, password });
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    return {
      headers: { 'x-api-key': created.apiKey, 'x-authorization-token': login.body.accessToken },
      companyCodes: created.companies.map((c) => c.companyCode),
    };
  }

  describe('the 201 answer', () => {
    it('answers exactly the PaymentLink keys with the defaults of a minimal link', async () => {
      const t = await tenant();
      await freeze(t, '2031-05-06T07:08:09.010Z');
      const data = await create(t);
      expect(data.paymentLinkId).to.match(LINK_ID);
      const code = String(data.paymentLinkId).slice('plk_'.length);
      expect(data).to.deep.equal({
        paymentLinkId: data.paymentLinkId,
        externalPaymentLinkId: null,
        debtId: `debt_plk_${code}`,
        status: 'ACTIVE',
        amount: 250.75,
        currency: 'MXN',
        description: 'Cuota mensual',
        singleUse: true,
        expiresAt: FUTURE_UTC,
        successUrl: null,
        metadata: null,
        paymentUrl: data.paymentUrl,
        identifierValue: data.identifierValue,
        contact: null,
        product: null,
        createdAt: '2031-05-06T07:08:09.010Z',
      });
      expect(data.identifierValue).to.match(SYNTHETIC);
      expect(data.paymentUrl).to.be.a('string');
    });

    it('returns every optional field as sent, and GET /payment-links/{id} answers the same link', async () => {
      const t = await tenant();
      const metadata = { plan: 'gold', seats: 3, vip: true, note: null };
      const data = await create(t, {
        amount: 0.01,
        currency: 'USD',
        singleUse: false,
        successUrl: 'https://shop.example.com/thanks?order=1',
        metadata,
        externalPaymentLinkId: 'order-0001',
      });
      expect(data).to.deep.include({
        amount: 0.01, currency: 'USD', singleUse: false, successUrl: 'https://shop.example.com/thanks?order=1',
        metadata, externalPaymentLinkId: 'order-0001', status: 'ACTIVE',
      });
      const got = expectOk(await http().get(`/payment-links/${String(data.paymentLinkId)}`).set(t.headers));
      expect(got).to.deep.equal(data);
    });

    it('takes the currency default from the company settings', async () => {
      const t = await tenant({ defaultCurrency: 'CLP' });
      expect((await create(t)).currency).to.equal('CLP');
      expect((await create(t, { currency: 'PEN' })).currency).to.equal('PEN');
    });

    it('ignores undeclared fields', async () => {
      const t = await tenant();
      const data = await create(t, { foo: 'bar', status: 'PAID', contact: { x: 1 } });
      expect(data.status).to.equal('ACTIVE');
      expect(data.contact).to.equal(null);
      expect(data).to.not.have.property('foo');
    });
  });

  describe('400 INVALID_REQUEST', () => {
    /** Per field, the bad inputs (label → body overrides; undefined removes the key). */
    const cases: Record<string, [string, Body][]> = {
      amount: [
        ['missing', { amount: undefined }], ['0', { amount: 0 }], ['below 0.01', { amount: 0.009 }],
        ['negative', { amount: -5 }], ['3 decimals', { amount: 10.005 }], ['a string', { amount: '10.00' }],
      ],
      description: [
        ['missing', { description: undefined }], ['empty', { description: '' }], ['blank', { description: '   ' }],
        ['not a string', { description: 12 }],
      ],
      expiresAt: [
        ['missing', { expiresAt: undefined }],
        ['a bare date', { expiresAt: '2030-01-01' }],
        ['"YYYY-MM-DD HH:mm"', { expiresAt: '2030-01-01 10:00' }],
        ['no seconds, no zone', { expiresAt: '2030-01-01T10:00' }],
        ['no zone', { expiresAt: '2030-01-01T10:00:00' }],
        ['an impossible date', { expiresAt: '2030-02-30T10:00:00Z' }],
        ['a space instead of T', { expiresAt: '2030-01-01 10:00:00Z' }],
        ['a number', { expiresAt: 1893492000000 }],
        // Once a link expiring "+010000-01-01T…" whose debt was due "+010000-01".
        ['past 9999-12-31 in UTC through its offset', { expiresAt: '9999-12-31T23:59:59-23:59' }],
      ],
      currency: [['unknown', { currency: 'EUR' }], ['lowercase', { currency: 'mxn' }]],
      singleUse: [['"true"', { singleUse: 'true' }], ['1', { singleUse: 1 }]],
      successUrl: [['"ftp://x"', { successUrl: 'ftp://x' }], ['"not a url"', { successUrl: 'not a url' }]],
      metadata: [
        ['nested object', { metadata: { customer: { tier: 'gold' } } }], ['nested array', { metadata: { tags: ['a'] } }],
        ['an array', { metadata: ['a'] }], ['a scalar', { metadata: 'x' }],
      ],
      additionalData: [
        ['the reserved key debtReference', { additionalData: { debtReference: 'r-1' } }],
        ['the reserved key description', { additionalData: { description: 'x' } }],
        ['nested', { additionalData: { a: { b: 1 } } }], ['a scalar', { additionalData: 'x' }],
      ],
      contactData: [
        ['sent with externalClientId', {
          externalClientId: 'client-1', contactData: { externalClientId: 'client-1', name: 'Ana', email: 'ana@example.com' },
        }],
      ],
      'contactData.email': [['a bad email', { contactData: { externalClientId: 'c-2', name: 'Ana', email: 'nope' } }]],
      identifierValue: [
        ['"!!!"', { identifierValue: '!!!' }], ['only hyphens', { identifierValue: '---' }],
        ['blank', { identifierValue: '   ' }], ['not a string', { identifierValue: 42 }],
      ],
      externalPaymentLinkId: [['with spaces', { externalPaymentLinkId: 'has space' }]],
      productName: [['blank', { productName: '  ' }]],
    };
    for (const [field, inputs] of Object.entries(cases)) {
      it(`${field}: ${inputs.map(([label]) => label).join(', ')}`, async () => {
        const t = await tenant();
        for (const [label, overrides] of inputs) {
          const body = link(overrides);
          for (const k of Object.keys(overrides)) if (overrides[k] === undefined) delete body[k];
          expectInvalid(await post(t, body), field, `${field} ${label}:`);
        }
      });
    }

    it('a rejected body creates no link and no debt', async () => {
      const t = await tenant();
      expectInvalid(await post(t, link({ identifierValue: '!!!', productName: 'Never' })), 'identifierValue');
      expect(await linkTotal(t)).to.equal(0);
      expect(await debtTotal(t)).to.equal(0);
      expect(await total(t, '/products', { name: 'Never' })).to.equal(0);
    });
  });

  describe('expiresAt and the organization clock', () => {
    const NOW = '2031-03-10T12:00:00.000Z';

    it('rejects an expiresAt before the frozen now', async () => {
      const t = await tenant();
      await freeze(t, NOW);
      const res = await post(t, link({ expiresAt: '2031-03-10T11:59:59Z' }));
      expectInvalid(res, 'expiresAt');
      expect(res.body.error.details[0].issue).to.match(/future/);
    });

    it('rejects an expiresAt equal to the frozen now, also written with an offset', async () => {
      const t = await tenant();
      await freeze(t, NOW);
      expectInvalid(await post(t, link({ expiresAt: '2031-03-10T12:00:00Z' })), 'expiresAt');
      expectInvalid(await post(t, link({ expiresAt: '2031-03-10T06:00:00-06:00' })), 'expiresAt');
      expect(await linkTotal(t)).to.equal(0);
    });

    it('accepts one millisecond after the frozen now, and stamps createdAt with it', async () => {
      const t = await tenant();
      await freeze(t, NOW);
      const data = await create(t, { expiresAt: '2031-03-10T12:00:00.001Z' });
      expect(data.expiresAt).to.equal('2031-03-10T12:00:00.001Z');
      expect(data.createdAt).to.equal(NOW);
      expect(data.status).to.equal('ACTIVE');
    });

    it('judges "future" by the organization clock, not the real one', async () => {
      const t = await tenant();
      await freeze(t, '2020-01-01T00:00:00Z');
      const data = await create(t, { expiresAt: '2021-01-01T00:00:00Z' });
      expect(data.expiresAt).to.equal('2021-01-01T00:00:00.000Z');
      expect(data.status).to.equal('ACTIVE');
    });

    it('stores and returns an offset expiresAt in UTC with milliseconds', async () => {
      const t = await tenant();
      const data = await create(t, { expiresAt: '2030-06-15T23:30:00-05:00' });
      expect(data.expiresAt).to.equal('2030-06-16T04:30:00.000Z');
      const got = expectOk(await http().get(`/payment-links/${String(data.paymentLinkId)}`).set(t.headers));
      expect(got.expiresAt).to.equal('2030-06-16T04:30:00.000Z');
      expect((await create(t, { expiresAt: '2030-06-16T01:00:00.25+03:00' })).expiresAt).to.equal('2030-06-15T22:00:00.250Z');
    });
  });

  describe('debtor: externalClientId or contactData', () => {
    it('unknown externalClientId → 422 and nothing created: no link, no debt, no inline product', async () => {
      const t = await tenant();
      const res = await post(t, link({ externalClientId: 'ghost', productName: 'Ghost Plan', externalPaymentLinkId: 'ghost-1' }));
      expectFailure(res, 422, 'BUSINESS_RULE_VIOLATION');
      expect(await linkTotal(t)).to.equal(0);
      expect(await debtTotal(t)).to.equal(0);
      expect(await total(t, '/products', { name: 'Ghost Plan' })).to.equal(0);
      // The key was not consumed either: once the contact exists the same request succeeds.
      await createContact(t, 'ghost');
      const data = await create(t, { externalClientId: 'ghost', productName: 'Ghost Plan', externalPaymentLinkId: 'ghost-1' });
      expect((data.product as Body).createdInline).to.equal(true);
    });

    it('an existing contact: contact stays null, identifierValue null even when sent, debt linked to the contact', async () => {
      const t = await tenant();
      const contact = await createContact(t, 'client-1');
      const data = await create(t, { externalClientId: 'client-1', identifierValue: 'mi-link' });
      expect(data.contact).to.equal(null);
      expect(data.identifierValue).to.equal(null);
      const debt = expectOk(await getDebt(t, data.debtId));
      expect(debt.contact).to.deep.equal({ contactId: contact.contactId, externalClientId: 'client-1', createdInline: false });
    });

    it('contactData creates the contact inline; identifierValue null even when sent', async () => {
      const t = await tenant();
      const data = await create(t, {
        contactData: { externalClientId: 'inline-1', name: 'Luis Gómez', email: 'luis@example.com' },
        identifierValue: 'sent-anyway',
      });
      expect(data.contact).to.equal(null);
      expect(data.identifierValue).to.equal(null);
      const debt = expectOk(await getDebt(t, data.debtId));
      const contact = debt.contact as Body;
      expect(contact.contactId).to.match(CONTACT_ID);
      expect(contact).to.deep.include({ externalClientId: 'inline-1', createdInline: true });
      expect(await total(t, '/contacts', { externalClientId: 'inline-1' })).to.equal(1);
    });
  });

  describe('productName', () => {
    it('resolves an existing product by name: createdInline false', async () => {
      const t = await tenant();
      const made = await http().post('/products').set(t.headers).send({ name: 'Gym' });
      expect(made.status, JSON.stringify(made.body)).to.equal(201);
      const data = await create(t, { productName: 'Gym' });
      expect(data.product).to.deep.equal({ productId: made.body.data.productId, name: 'Gym', active: true, createdInline: false });
      expect(await total(t, '/products')).to.equal(1);
    });

    it('creates an unknown product inline (createdInline true), then resolves it (false)', async () => {
      const t = await tenant();
      const first = await create(t, { productName: 'Yoga' });
      const product = first.product as Body;
      expect(product.productId).to.match(PRODUCT_ID);
      expect(product).to.deep.include({ name: 'Yoga', active: true, createdInline: true });
      const listed = await http().get('/products').query({ name: 'Yoga' }).set(t.headers);
      expect(listed.status).to.equal(200);
      expect(listed.body.data.map((p: Body) => p.productId)).to.deep.equal([product.productId]);
      const second = await create(t, { productName: 'Yoga' });
      expect(second.product).to.deep.equal({ ...product, createdInline: false });
      const got = expectOk(await http().get(`/payment-links/${String(first.paymentLinkId)}`).set(t.headers));
      expect((got.product as Body).createdInline).to.equal(true);
    });
  });

  describe('the associated debt (GET /debts/{debtId})', () => {
    it('carries the amount, the UTC date of expiresAt, the description and the additionalData the link does not show', async () => {
      const t = await tenant();
      const additionalData = { invoice: 'F-001', seats: 2, paid: false };
      const data = await create(t, { amount: 99.9, description: 'Inscripción', expiresAt: '2030-06-15T23:30:00-05:00', additionalData });
      expect(data).to.not.have.property('additionalData');
      const debt = expectOk(await getDebt(t, data.debtId));
      expect(debt).to.deep.include({
        debtId: data.debtId,
        externalRequestId: String(data.paymentLinkId),
        status: 'PENDING',
        amount: 99.9,
        amountPaid: 0,
        currency: 'MXN',
        dueDate: '2030-06-16',
        description: 'Inscripción',
        additionalData,
        contact: null,
        allowPartialPayments: false,
        allowOverduePayment: false,
      });
      const got = expectOk(await http().get(`/payment-links/${String(data.paymentLinkId)}`).set(t.headers));
      expect(got).to.not.have.property('additionalData');
      expect(await debtTotal(t)).to.equal(1);
    });

    it('is due on the UTC date also when a positive offset moves the date back', async () => {
      const t = await tenant();
      const data = await create(t, { expiresAt: '2030-06-16T01:00:00+03:00' });
      expect(expectOk(await getDebt(t, data.debtId)).dueDate).to.equal('2030-06-15');
    });

    it('takes the link currency', async () => {
      const t = await tenant();
      const data = await create(t, { currency: 'COP' });
      expect(expectOk(await getDebt(t, data.debtId)).currency).to.equal('COP');
    });
  });

  describe('identifierValue', () => {
    async function expectSanitized(t: Caller, input: string, expected: string): Promise<void> {
      const data = await create(t, { identifierValue: input });
      expect(data.identifierValue, JSON.stringify(input)).to.equal(expected);
      expect(String(data.paymentUrl).endsWith(`/${expected}`), String(data.paymentUrl)).to.equal(true);
    }

    it('sanitizes: accents folded, lowercase, spaces/underscores → hyphen, others dropped, hyphens collapsed and trimmed', async () => {
      const t = await tenant();
      await expectSanitized(t, 'Cuota Enero Ñandú', 'cuota-enero-nandu');
      await expectSanitized(t, '  --Mi_Link  ##2024!! ', 'mi-link-2024');
      await expectSanitized(t, 'ABC___def', 'abc-def');
    });

    it('cuts at 64 characters, then drops a trailing hyphen', async () => {
      const t = await tenant();
      await expectSanitized(t, 'a'.repeat(70), 'a'.repeat(64));
      await expectSanitized(t, `${'a'.repeat(63)}-${'b'.repeat(6)}`, 'a'.repeat(63));
    });

    it('an explicit identifier wins over the synthetic one', async () => {
      const t = await tenantOf(`Ñoño Gym ${crypto.randomBytes(4).toString('hex')}`);
      const data = await create(t, { identifierValue: 'promo-verano' });
      expect(data.identifierValue).to.equal('promo-verano');
    });

    it('synthetic from the organization name with diacritics folded: "Ñoño Gym" → non-…', async () => {
      const t = await tenantOf(`Ñoño Gym ${crypto.randomBytes(4).toString('hex')}`);
      const a = await create(t);
      const b = await create(t);
      for (const data of [a, b]) {
        expect(data.identifierValue).to.match(SYNTHETIC);
        expect(String(data.identifierValue).startsWith('non-'), String(data.identifierValue)).to.equal(true);
      }
      expect(a.identifierValue).to.not.equal(b.identifierValue);
    });

    it('synthetic skips non-alphanumerics of the name: "¡¿A.b-C d?!" → abc-…', async () => {
      const t = await tenantOf(`¡¿A.b-C d?! ${crypto.randomBytes(4).toString('hex')}`);
      const data = await create(t);
      expect(data.identifierValue).to.match(SYNTHETIC);
      expect(String(data.identifierValue).startsWith('abc-'), String(data.identifierValue)).to.equal(true);
    });

    it('synthetic falls back to lnk-… with fewer than 3 letters: "Él"', async () => {
      const t = await tenantOf('Él');
      const data = await create(t);
      expect(data.identifierValue).to.match(SYNTHETIC);
      expect(String(data.identifierValue).startsWith('lnk-'), String(data.identifierValue)).to.equal(true);
    });
  });

  describe('paymentUrl', () => {
    it('private links: /l/<code>, never the identifier, a different code per link', async () => {
      const t = await tenant({ privateLinks: true });
      const a = await create(t, { identifierValue: 'secret-ident' });
      const b = await create(t, { identifierValue: 'secret-ident' });
      const c = await create(t);
      for (const data of [a, b, c]) {
        expect(data.paymentUrl).to.match(PRIVATE_URL);
        expect(String(data.paymentUrl)).to.not.include(String(data.identifierValue));
      }
      expect(a.identifierValue).to.equal('secret-ident');
      expect(new Set([a.paymentUrl, b.paymentUrl, c.paymentUrl]).size).to.equal(3);
    });

    it('private links with a debtor: no externalClientId in the URL', async () => {
      const t = await tenant({ privateLinks: true });
      await createContact(t, 'client-77');
      const data = await create(t, { externalClientId: 'client-77' });
      expect(data.paymentUrl).to.match(PRIVATE_URL);
      expect(String(data.paymentUrl)).to.not.include('client-77');
    });

    it('a configured portal URL: <portalUrl>/<identifier>', async () => {
      const portalUrl = 'https://portal.example.com/acme';
      const t = await tenant({ portalUrl });
      const explicit = await create(t, { identifierValue: 'Cuota Enero' });
      expect(explicit.paymentUrl).to.equal(`${portalUrl}/cuota-enero`);
      const synthetic = await create(t);
      expect(String(synthetic.paymentUrl).startsWith(`${portalUrl}/`), String(synthetic.paymentUrl)).to.equal(true);
      expect(String(synthetic.paymentUrl).endsWith(`/${String(synthetic.identifierValue)}`)).to.equal(true);
    });

    it('the default portal: http://localhost:3000/pay/<companyCode>/<identifier>', async () => {
      const t = await tenant();
      const data = await create(t, { identifierValue: 'plan-basico' });
      expect(data.paymentUrl).to.equal(`http://localhost:3000/pay/${encodeURIComponent(t.companyCodes[0]!)}/plan-basico`);
    });

    it('with a debtor: ends with the sanitized externalClientId, whatever identifierValue says', async () => {
      const t = await tenant();
      await createContact(t, 'ACME_Cliente Ñ7');
      const data = await create(t, { externalClientId: 'ACME_Cliente Ñ7', identifierValue: 'ignored-one' });
      expect(data.identifierValue).to.equal(null);
      expect(data.paymentUrl).to.equal(`http://localhost:3000/pay/${encodeURIComponent(t.companyCodes[0]!)}/acme-cliente-n7`);
      const inline = await create(t, { contactData: { externalClientId: 'Nuevo_Cliente', name: 'Nuevo', email: 'n@example.com' } });
      expect(String(inline.paymentUrl).endsWith('/nuevo-cliente'), String(inline.paymentUrl)).to.equal(true);
    });
  });

  describe('idempotency', () => {
    it('a body externalPaymentLinkId: repeat → 409 RESOURCE_CONFLICT, no second debt', async () => {
      const t = await tenant();
      const first = await create(t, { externalPaymentLinkId: 'order-1' });
      expect(first.externalPaymentLinkId).to.equal('order-1');
      expect(await debtTotal(t)).to.equal(1);
      expectFailure(await post(t, link({ externalPaymentLinkId: 'order-1', amount: 1 })), 409, 'RESOURCE_CONFLICT');
      expect(await debtTotal(t)).to.equal(1);
      expect(await linkTotal(t)).to.equal(1);
    });

    it('the Idempotency-Key header: used as externalPaymentLinkId; repeat → 409, no second debt', async () => {
      const t = await tenant();
      const first = await create(t, {}, 'hdr-1');
      expect(first.externalPaymentLinkId).to.equal('hdr-1');
      expectFailure(await post(t, link(), 'hdr-1'), 409, 'RESOURCE_CONFLICT');
      // The header and the body key share one namespace.
      expectFailure(await post(t, link({ externalPaymentLinkId: 'hdr-1' })), 409, 'RESOURCE_CONFLICT');
      expect(await debtTotal(t)).to.equal(1);
      expect(await linkTotal(t, { externalPaymentLinkId: 'hdr-1' })).to.equal(1);
    });

    it('the body key wins: the header is ignored when both are sent', async () => {
      const t = await tenant();
      const first = await create(t, { externalPaymentLinkId: 'body-1' }, 'hdr-x');
      expect(first.externalPaymentLinkId).to.equal('body-1');
      const second = await create(t, { externalPaymentLinkId: 'body-2' }, 'hdr-x');
      expect(second.externalPaymentLinkId).to.equal('body-2');
      // hdr-x was never stored: a header-only request with it creates.
      expect((await create(t, {}, 'hdr-x')).externalPaymentLinkId).to.equal('hdr-x');
      expect(await linkTotal(t)).to.equal(3);
      expect(await debtTotal(t)).to.equal(3);
    });

    it('neither: every request creates a new link with externalPaymentLinkId null', async () => {
      const t = await tenant();
      const a = await create(t);
      const b = await create(t);
      expect(a.externalPaymentLinkId).to.equal(null);
      expect(b.externalPaymentLinkId).to.equal(null);
      expect(a.paymentLinkId).to.not.equal(b.paymentLinkId);
      expect(a.debtId).to.not.equal(b.debtId);
      expect(await linkTotal(t)).to.equal(2);
      expect(await debtTotal(t)).to.equal(2);
    });

    it('the same key in another organization is allowed', async () => {
      const first = await tenant();
      const second = await tenant();
      const a = await create(first, { externalPaymentLinkId: 'shared-key' });
      const b = await create(second, { externalPaymentLinkId: 'shared-key' });
      expect(b.externalPaymentLinkId).to.equal('shared-key');
      expect(b.paymentLinkId).to.not.equal(a.paymentLinkId);
    });

    it('20 concurrent creations with one key: exactly one 201 and 19 × 409, one link, one debt, no 5xx', async function () {
      this.timeout(20_000);
      const t = await tenant();
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => post(t, link({ amount: 10 + i, productName: 'Race Plan' }), 'race-1')),
      );
      const statuses = answers.map((r) => r.status);
      expect(statuses.filter((s) => s >= 500), JSON.stringify(answers.map((r) => r.body))).to.deep.equal([]);
      expect(statuses.filter((s) => s === 201)).to.have.length(1);
      expect(statuses.filter((s) => s === 409)).to.have.length(19);
      for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error.code).to.equal('RESOURCE_CONFLICT');
      const winner = expectCreated(answers.find((r) => r.status === 201)!);
      expect(winner.externalPaymentLinkId).to.equal('race-1');
      expect(await linkTotal(t)).to.equal(1);
      expect(await debtTotal(t)).to.equal(1);
      expect(await total(t, '/products', { name: 'Race Plan' })).to.equal(1);
      expectOk(await getDebt(t, winner.debtId));
    });
  });
});
