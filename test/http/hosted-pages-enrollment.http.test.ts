import { expect } from 'chai';
import { SANDBOX_CARDS } from '../../adapters/gateways/sandbox-payment-processor';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectInvalid, expectOk } from '../support/http-expect';
import { expectHtmlPage, pageClient, pathOf, textOf } from '../support/pages';

/**
 * The direct-debit enrollment page: its signed, expiring URL (POST /enrollment-links), bank
 * account validation per currency (CLABE and CBU check digits, CCI, account numbers), card
 * tokenization, the default choice, masked references only, resubmission, tampering, expiry,
 * and the next debt of a product coming back with autopay true and being collected by the workers.
 */

type Body = Record<string, unknown>;
const NOW = '2031-05-10T15:00:00.000Z';
const CLABE = '002010077777777771';
const CBU = '2850590940090418135201';
const CCI = '00219300123456789012';
const DIRECT_DEBIT = { directDebitEnabled: true, directDebitModality: true };

describeEachDatabase(
  'hosted pages: enrollment',
  ({ api }) => {
    const http = () => api().http;

    async function tenant(settings: Body = DIRECT_DEBIT): Promise<Tenant> {
      const t = await api().newTenant({ settings });
      expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
      return t;
    }
    const issue = (t: Tenant, body: Body) => http().post('/enrollment-links').set(t.headers).send(body);
    async function enrollmentUrl(t: Tenant, body: Body = {}): Promise<string> {
      return String(expectOk(await issue(t, { externalClientId: 'ana', ...body }), 201).url);
    }
    const methods = async (t: Tenant, user = 'ana') => {
      const res = await http().get('/payment-methods').query({ externalClientId: user }).set(t.headers);
      return expectOk<Body[]>(res);
    };

    describe('POST /enrollment-links', () => {
      it('answers a signed URL bound to the company and user, with its expiry (default 7 days)', async () => {
        const t = await tenant();
        const data = expectOk(await issue(t, { externalClientId: 'ana' }), 201);
        expect(Object.keys(data).sort()).to.deep.equal(['currency', 'expiresAt', 'externalClientId', 'url']);
        expect(data).to.deep.include({ externalClientId: 'ana', currency: 'MXN', expiresAt: '2031-05-17T15:00:00.000Z' });
        expect(String(data.url)).to.match(/^http:\/\/localhost:3000\/enroll\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{22}$/);
        const short = expectOk(await issue(t, { externalClientId: 'ana', expiresInSeconds: 600, currency: 'ARS' }), 201);
        expect(short).to.deep.include({ currency: 'ARS', expiresAt: '2031-05-10T15:10:00.000Z' });
      });

      it('validates its body, needs credentials, and direct debit on the company', async () => {
        const t = await tenant();
        expectInvalid(await issue(t, {}), 'externalClientId');
        expectInvalid(await issue(t, { externalClientId: "a'b" }), 'externalClientId');
        expectInvalid(await issue(t, { externalClientId: 'ana', expiresInSeconds: 10 }), 'expiresInSeconds');
        expectInvalid(await issue(t, { externalClientId: 'ana', expiresInSeconds: 31 * 24 * 3600 }), 'expiresInSeconds');
        expectInvalid(await issue(t, { externalClientId: 'ana', currency: 'EUR' }), 'currency');
        expectInvalid(await issue(t, { externalClientId: 'ana', extra: 1 }), 'extra');
        expectError(await http().post('/enrollment-links').send({ externalClientId: 'ana' }), 401, 'AUTHENTICATION_FAILED');
        expectError(await issue(await tenant({}), { externalClientId: 'ana' }), 422, 'BUSINESS_RULE_VIOLATION');
      });
    });

    describe('the page', () => {
      it('asks for the bank account of the currency, registers a CLABE and keeps only its masked reference', async () => {
        const t = await tenant();
        const url = await enrollmentUrl(t);
        const client = pageClient(api());
        const page = await client.open(url);
        const text = expectHtmlPage(page.res, 200);
        expect(text).to.include('Registra tu medio de pago').and.include('Cuenta bancaria (CLABE)').and.include('18 dígitos');
        expect(page.html).to.include('<label for="accountNumber">');

        const bad = await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: CLABE.replace(/1$/, '2') });
        expect(expectHtmlPage(bad, 400)).to.include('Revisa el número de cuenta');
        expect(bad.text, 'the number is never written back').to.not.include(CLABE.slice(0, 17));
        const short = await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: '12345' });
        expect(short.status).to.equal(400);
        expect(await methods(t)).to.deep.equal([]);

        const res = await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: '002 010 07777777777 1' });
        expect(res.status, textOf(res.text)).to.equal(303);
        expect(res.headers.location).to.match(new RegExp(`^${pathOf(url)}/done/pm_[A-Za-z0-9]{20}$`));
        const done = await client.open(res.headers.location);
        expect(expectHtmlPage(done.res, 200)).to.include('Medio de pago registrado').and.include('CLABE •••• 7771').and.include('predeterminado');
        const [method] = await methods(t);
        expect(method).to.deep.include({ paymentMethodType: 'BANK_ACCOUNT', isDefault: true, maskedReference: 'CLABE •••• 7771', status: 'ACTIVE' });
        const stored = await api().infra.ports.repos.paymentMethods.listOfClient((await api().infra.ports.repos.tenancy.findCompanyByCode(t.companyCodes[0]!))!.id, 'ana');
        expect(JSON.stringify(stored)).to.not.include(CLABE.slice(4));
        // The page now lists it.
        expect(textOf((await client.open(url)).html)).to.include('Tus medios de pago registrados').and.include('CLABE •••• 7771 (predeterminado)');
      });

      it('validates a CBU (ARS), a CCI (PEN) and an account number (COP) by the link\'s currency', async () => {
        const t = await tenant();
        const client = pageClient(api());
        const cases: [string, string, string, string][] = [
          ['ARS', CBU, '2850590940090418135202', 'CBU •••• 5201'],
          ['PEN', CCI, '0021930012345678901', 'CCI •••• 9012'],
          ['COP', '123456789', '12-ab', 'Account •••• 6789'],
        ];
        for (const [currency, good, bad, masked] of cases) {
          const url = await enrollmentUrl(t, { currency, externalClientId: `user-${currency}` });
          expect((await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: bad })).status, currency).to.equal(400);
          const res = await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: good });
          expect(res.status, textOf(res.text)).to.equal(303);
          expect((await methods(t, `user-${currency}`)).map((m) => m.maskedReference)).to.deep.equal([masked]);
        }
        expect(textOf((await client.open(await enrollmentUrl(t, { currency: 'PEN' }))).html)).to.include('Cuenta bancaria (CCI)');
      });

      it('tokenizes a card; a later method becomes the default only when asked; a declined card registers nothing', async () => {
        const t = await tenant();
        const url = await enrollmentUrl(t);
        const client = pageClient(api());
        expect((await client.submit(url, { type: 'BANK_ACCOUNT', accountNumber: CLABE })).status).to.equal(303);
        const declined = await client.submit(url, { type: 'CARD_TOKENIZED', cardNumber: SANDBOX_CARDS.declined, cardExpiry: '10/34' });
        expect(expectHtmlPage(declined, 402)).to.include('CARD_DECLINED');
        const page = await client.open(url);
        const { makeDefault: _ignored, ...unchecked } = page.form!.fields;
        const notDefault = await client.post(page.form!.action, { ...unchecked, type: 'CARD_TOKENIZED', cardNumber: '4242 4242 4242 4242', cardExpiry: '10/34' });
        expect(notDefault.status, textOf(notDefault.text)).to.equal(303);
        const asDefault = await client.submit(url, { type: 'CARD_TOKENIZED', cardNumber: '5555555555554444', cardExpiry: '10/34', makeDefault: 'on' });
        expect(asDefault.status).to.equal(303);
        const listed = await methods(t);
        expect(listed.map((m) => [m.paymentMethodType, m.maskedReference, m.isDefault])).to.deep.equal([
          ['BANK_ACCOUNT', 'CLABE •••• 7771', false],
          ['CARD_TOKENIZED', 'VISA •••• 4242', false],
          ['CARD_TOKENIZED', 'MASTERCARD •••• 4444', true],
        ]);
        const bad = await client.submit(url, { type: 'CARD_TOKENIZED', cardNumber: '1234', cardExpiry: '13/20' });
        expect(expectHtmlPage(bad, 400)).to.include('número de tarjeta válido').and.include('fecha de vencimiento válida');
        expect((await client.submit(url, { type: 'PAYPAL' })).status).to.equal(400);
      });

      it('registers once when the same form is sent twice', async () => {
        const t = await tenant();
        const url = await enrollmentUrl(t);
        const client = pageClient(api());
        const page = await client.open(url);
        const fields = { ...page.form!.fields, type: 'BANK_ACCOUNT', accountNumber: CLABE };
        const [a, b] = await Promise.all([client.post(page.form!.action, fields), client.post(page.form!.action, fields)]);
        const c = await client.post(page.form!.action, fields);
        expect([a.status, b.status, c.status]).to.deep.equal([303, 303, 303]);
        expect(new Set([a.headers.location, b.headers.location, c.headers.location]).size).to.equal(1);
        expect(await methods(t)).to.have.length(1);
      });

      it('is 404 for a tampered or foreign token, 410 once expired, and refuses forged posts', async () => {
        const t = await tenant();
        const other = await tenant();
        const url = await enrollmentUrl(t, { expiresInSeconds: 3600 });
        const client = pageClient(api());
        const [payload, signature] = pathOf(url).replace('/enroll/', '').split('.') as [string, string];
        const claims = JSON.parse(Buffer.from(payload, 'base64url').toString());
        const forge = (changes: Body) => `/enroll/${Buffer.from(JSON.stringify({ ...claims, ...changes })).toString('base64url')}.${signature}`;
        for (const bad of [forge({ cl: 'bob' }), forge({ co: other.companyCodes[0] }), forge({ exp: claims.exp + 86400 }), `${pathOf(url)}x`, '/enroll/not-a-token']) {
          expect(expectHtmlPage((await client.open(bad)).res, 404), bad).to.include('No encontramos esta página');
        }
        const stale = await client.open(url);
        const forged = await pageClient(api()).post(stale.form!.action, { ...stale.form!.fields, type: 'BANK_ACCOUNT', accountNumber: CLABE });
        expect(forged.status).to.equal(403);

        expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-10T16:00:00.000Z' }));
        const expired = await client.open(url);
        expect(expectHtmlPage(expired.res, 410)).to.include('Este enlace de registro venció');
        expect(expired.form).to.equal(null);
        const late = await client.post(stale.form!.action, { ...stale.form!.fields, type: 'BANK_ACCOUNT', accountNumber: CLABE });
        expect(expectHtmlPage(late, 410)).to.include('Este enlace de registro venció');
        expect(await methods(t)).to.deep.equal([]);
      });
    });

    it('after enrolling a bank account, the next debt of the product comes back with autopay true and the workers collect it', async () => {
      const t = await tenant();
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }), 201);
      const product = expectOk(await http().post('/products').set(t.headers).send({ name: 'Seguro' }), 201);
      const before = expectOk(await http().post('/v2/debts').set(t.headers).send({ externalClientId: 'ana', amount: 80, dueDate: '2031-05-10', productId: product.productId }), 201);
      expect(before).to.deep.include({ autopay: false, autopayReason: 'NO_DEFAULT_PAYMENT_METHOD' });

      const res = await pageClient(api()).submit(await enrollmentUrl(t), { type: 'BANK_ACCOUNT', accountNumber: CLABE });
      expect(res.status).to.equal(303);
      const [method] = await methods(t);
      const next = expectOk(await http().post('/v2/debts').set(t.headers).send({ externalClientId: 'ana', amount: 120, dueDate: '2031-05-10', productId: product.productId }), 201);
      expect(next).to.deep.include({ autopay: true });
      expect(next).to.not.have.property('autopayReason');
      expect((next.autopayInstrument as Body).paymentMethodId).to.equal(method!.paymentMethodId);
      await api().drainJobs();
      const deadline = Date.now() + 15_000;
      let collected = expectOk(await http().get(`/debts/${next.debtId}`).set(t.headers));
      while (collected.status !== 'PAID' && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        await api().drainJobs();
        collected = expectOk(await http().get(`/debts/${next.debtId}`).set(t.headers));
      }
      expect(collected).to.deep.include({ status: 'PAID', amountPaid: 120 });
      expect(expectOk(await http().get(`/debts/${before.debtId}`).set(t.headers))).to.deep.include({ status: 'PENDING', amountPaid: 0 });
    });
  },
  { withWorker: true },
);
