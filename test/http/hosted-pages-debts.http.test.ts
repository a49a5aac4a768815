import { expect } from 'chai';
import { SANDBOX_CARDS } from '../../adapters/gateways/sandbox-payment-processor';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { expectHtmlPage, expectPageHeaders, pageClient, pathOf, textOf } from '../support/pages';

/**
 * The hosted payment page of a debt (its signed paymentUrl): every state, paying partially then
 * fully through the same payment use case (the API then shows it), form validation, declines,
 * resubmission, CSRF refusal, signature tampering, locale formatting, headers and rate limit.
 */

type Body = Record<string, unknown>;
const NOW = '2031-03-10T12:00:00.000Z';
const CARD = { method: 'CARD', cardNumber: SANDBOX_CARDS.approved, cardExpiry: '12/33', cardCvc: '123' };

describeEachDatabase('hosted pages: debts', ({ api }) => {
  const http = () => api().http;

  async function tenant(settings: Body = {}): Promise<Tenant> {
    const t = await api().newTenant({ settings });
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    return t;
  }

  async function debt(t: Tenant, fields: Body = {}, key?: string): Promise<Body> {
    const body = {
      contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 1500, dueDate: '2031-04-15', description: 'Cuota de abril', ...fields,
    };
    const req = http().post('/v2/debts').set(t.headers);
    if (key) req.set('Idempotency-Key', key);
    return expectOk(await req.send(body), 201);
  }
  const read = async (t: Tenant, id: string) => expectOk(await http().get(`/debts/${id}`).set(t.headers));

  describe('the page', () => {
    it('shows the creditor, description, amount, due date, status, paid and remaining, in the currency\'s locale', async () => {
      const t = await tenant();
      const d = await debt(t);
      const url = String(d.paymentUrl);
      expect(url).to.match(/^http:\/\/localhost:3000\/pay\/[A-Z0-9-]+\/debts\/debt_[A-Za-z0-9]+\/[A-Za-z0-9_-]{22}$/);
      const page = await pageClient(api()).open(url);
      const text = expectHtmlPage(page.res, 200);
      expect(page.res.headers['cache-control']).to.equal('no-store');
      expect(page.html).to.include('<html lang="es-MX">');
      for (const part of [t.clientUsername.replace('user_', 'Org '), 'Cuota de abril', '$1,500.00', '15 de abril de 2031', 'Pendiente', 'Pagado $0.00', 'Por pagar $1,500.00']) {
        expect(text).to.include(part);
      }
      expect(page.form!.fields).to.include.keys('_csrf', 'submission', 'amountChoice', 'method');
      // No inline script or style anywhere: the CSP would refuse them.
      expect(page.html).to.not.match(/<script(?![^>]*\bsrc=)[^>]*>/);
      expect(page.html).to.not.match(/\sstyle=/);
      expect(page.html).to.include('<main id="main"');
      expect(page.html).to.match(/<label for="amount">/);
    });

    it('formats for the Accept-Language (en-US, es-AR) and falls back to the currency\'s locale', async () => {
      const t = await tenant();
      const mxn = String((await debt(t, { amount: 1234.5 })).paymentUrl);
      const ars = String((await debt(t, { amount: 1234.5, currency: 'ARS' })).paymentUrl);
      const client = pageClient(api());
      const en = textOf((await client.open(mxn, { 'Accept-Language': 'en-US,en;q=0.8' })).html);
      expect(en).to.include('MX$1,234.50').and.include('April 15, 2031').and.include('Pending');
      const ar = await client.open(ars, { 'Accept-Language': 'es-ES,es;q=0.9' });
      expect(ar.html).to.include('<html lang="es-AR">');
      expect(textOf(ar.html)).to.include('$ 1.234,50');
      const fallback = await client.open(ars, { 'Accept-Language': 'de-DE' });
      expect(fallback.html).to.include('<html lang="es-AR">');
      const clp = String((await debt(t, { amount: 15000, currency: 'CLP' })).paymentUrl);
      expect(textOf((await client.open(clp)).html)).to.include('$15.000');
    });

    it('is a clean 404 page for a tampered signature, another company\'s code or an unknown debt', async () => {
      const t = await tenant();
      const other = await tenant();
      const d = await debt(t, {}, 'order-77');
      const url = String(d.paymentUrl);
      const client = pageClient(api());
      const tampered = url.replace(/.$/, (c) => (c === 'A' ? 'B' : 'A'));
      for (const bad of [
        tampered,
        url.replace(`/pay/${t.companyCodes[0]}/`, `/pay/${other.companyCodes[0]}/`),
        url.replace('order-77', 'order-78'),
        '/pay/NOPE/debts/debt_x/AAAAAAAAAAAAAAAAAAAAAA',
        '/pay/x',
      ]) {
        const text = expectHtmlPage((await client.open(bad)).res, 404);
        expect(text).to.include('No encontramos esta página');
        expect(text).to.not.include('Cuota de abril');
      }
      expect(String((await debt(other, {}, 'order-77')).paymentUrl)).to.not.equal(url);
    });

    it('shows paid, cancelled and overdue-without-late-payment states as pages, without a form', async () => {
      const t = await tenant();
      const client = pageClient(api());
      const paid = await debt(t);
      expectOk(await http().post(`/test-helpers/debts/${paid.debtId}/pay`).set(t.headers).send({}), 201);
      const paidPage = await client.open(String(paid.paymentUrl));
      expect(expectHtmlPage(paidPage.res, 200)).to.include('Esta cuenta ya está pagada').and.include('Pagada');
      expect(paidPage.form).to.equal(null);

      const cancelled = await debt(t);
      expectOk(await http().post(`/debts/${cancelled.debtId}/cancel`).set(t.headers));
      const cancelledPage = await client.open(String(cancelled.paymentUrl));
      expect(expectHtmlPage(cancelledPage.res, 200)).to.include('Este cobro fue cancelado');
      expect(cancelledPage.form).to.equal(null);

      const late = await debt(t, { dueDate: '2031-03-01', allowOverduePayment: false });
      const latePage = await client.open(String(late.paymentUrl));
      expect(expectHtmlPage(latePage.res, 200)).to.include('Este cobro venció').and.include('Vencida');
      expect(latePage.form).to.equal(null);

      const lateButAllowed = await debt(t, { dueDate: '2031-03-01' });
      const allowed = await client.open(String(lateButAllowed.paymentUrl));
      expect(textOf(allowed.html)).to.include('Vencida');
      expect(allowed.form).to.not.equal(null);
      // An OVERDUE debt is paid in full only: no choice of amount.
      expect(allowed.form!.fields).to.not.have.property('amountChoice');
      expect(allowed.html).to.not.match(/<label for="amount">/);
    });

    it('offers the methods the debt allows (legacy paymentMethods): TRANSFER and BANK_TRANSFER are one choice, cash gets a voucher, card fields only with cards', async () => {
      const t = await tenant();
      const client = pageClient(api());
      const legacy = async (paymentMethods: string[]) =>
        expectOk(
          await http().post('/debts').set(t.headers).send({
            contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 10, dueDate: '2031-04-15', paymentMethods,
          }),
          201,
        );
      const transfer = await client.open(String((await legacy(['CASH', 'TRANSFER'])).paymentUrl));
      expect(transfer.html).to.include('value="TRANSFER"').and.include('value="CASH"');
      expect(transfer.html).to.not.include('value="CARD"');
      expect(transfer.html).to.not.include('name="cardNumber"');
      const both = await client.open(String((await legacy(['TRANSFER', 'BANK_TRANSFER', 'CARD'])).paymentUrl));
      expect(both.html.match(/name="method"/g), 'one transfer choice').to.have.length(2);
      expect(both.html).to.include('value="TRANSFER"').and.include('name="cardNumber"');
      expect(both.html).to.not.include('value="BANK_TRANSFER"');
      const bank = await client.open(String((await legacy(['BANK_TRANSFER'])).paymentUrl));
      expect(bank.html).to.include('value="TRANSFER"').and.not.include('value="BANK_TRANSFER"');
      const cash = await client.open(String((await legacy(['CASH'])).paymentUrl));
      expect(cash.form!.fields.method).to.equal('CASH');
      expect(textOf(cash.html)).to.include('Efectivo');
    });
  });

  describe('paying', () => {
    it('pays partially then fully through the portal; the API shows both payments; receipts link back', async () => {
      const t = await tenant();
      const d = await debt(t);
      const client = pageClient(api());
      const first = await client.submit(String(d.paymentUrl), { amountChoice: 'partial', amount: '500,25', ...CARD });
      expect(first.status, textOf(first.text)).to.equal(303);
      expect(first.headers.location).to.match(/^\/receipts\/[A-Za-z0-9]{22}$/);
      expectPageHeaders(first);
      const receipt = await client.open(first.headers.location);
      const receiptText = expectHtmlPage(receipt.res, 200);
      expect(receiptText).to.include('Pago recibido').and.include('$500.25').and.include('Tarjeta').and.include('Por pagar $999.75');
      expect(receipt.html).to.include(`href="${d.paymentUrl}"`);
      expect(await read(t, String(d.debtId))).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 500.25 });

      const page = await client.open(String(d.paymentUrl));
      expect(textOf(page.html)).to.include('Pagada en parte').and.include('Pagado $500.25').and.include('Por pagar $999.75');
      const second = await client.post(page.form!.action, { ...page.form!.fields, amountChoice: 'full', method: 'WALLET' });
      expect(second.status, textOf(second.text)).to.equal(303);
      expect(await read(t, String(d.debtId))).to.deep.include({ status: 'PAID', amountPaid: 1500 });
      const done = await client.open(String(d.paymentUrl));
      expect(textOf(done.html)).to.include('Esta cuenta ya está pagada');
      expect(textOf((await client.open(second.headers.location)).html)).to.include('Billetera digital').and.include('Por pagar $0.00');
    });

    it('pays once when the same form is sent twice, and answers the same receipt', async () => {
      const t = await tenant();
      const d = await debt(t);
      const client = pageClient(api());
      const page = await client.open(String(d.paymentUrl));
      const fields = { ...page.form!.fields, amountChoice: 'partial', amount: '100', method: 'WALLET' };
      const [a, b] = await Promise.all([client.post(page.form!.action, fields), client.post(page.form!.action, fields)]);
      const again = await client.post(page.form!.action, fields);
      expect([a.status, b.status, again.status]).to.deep.equal([303, 303, 303]);
      expect(new Set([a.headers.location, b.headers.location, again.headers.location]).size).to.equal(1);
      expect(await read(t, String(d.debtId))).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 100 });
    });

    it('refuses bad amounts, methods and cards with the form again (400), and declined cards (402); nothing is paid', async () => {
      const t = await tenant();
      const d = await debt(t);
      const noPartial = await debt(t, { allowPartialPayments: false });
      const client = pageClient(api());
      const url = String(d.paymentUrl);
      const cases: [string, Record<string, string>, number, string][] = [
        [url, { amountChoice: 'partial', amount: '2000', method: 'WALLET' }, 400, 'no mayor que lo pendiente'],
        [url, { amountChoice: 'partial', amount: 'abc', method: 'WALLET' }, 400, 'Escribe un importe válido'],
        [url, { amountChoice: 'partial', amount: '0', method: 'WALLET' }, 400, 'Escribe un importe válido'],
        [url, { amountChoice: 'full', method: 'CHEQUE' }, 400, 'Elige un medio de pago'],
        [url, { amountChoice: 'full', method: 'CARD', cardNumber: '4242424242424241', cardExpiry: '01/20', cardCvc: '1' }, 400, 'número de tarjeta válido'],
        [url, { amountChoice: 'full', ...CARD, cardNumber: SANDBOX_CARDS.declined }, 402, 'El pago fue rechazado (CARD_DECLINED)'],
        [url, { amountChoice: 'full', ...CARD, cardNumber: SANDBOX_CARDS.insufficientFunds }, 402, 'INSUFFICIENT_FUNDS'],
        [String(noPartial.paymentUrl), { amountChoice: 'partial', amount: '10', method: 'WALLET' }, 400, 'Escribe un importe válido'],
      ];
      for (const [target, values, status, message] of cases.slice(0, -1)) {
        const res = await client.submit(target, values);
        const text = expectHtmlPage(res, status);
        expect(text, JSON.stringify(values)).to.include(message);
        expect(res.text).to.include('class="error-summary" role="alert"');
        expect(res.text, 'card data is never written back').to.not.include(SANDBOX_CARDS.declined);
      }
      expect(await read(t, String(d.debtId))).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      const last = cases.at(-1)!;
      const res = await client.submit(last[0], last[1]);
      expect(expectHtmlPage(res, 400)).to.include(last[3]);
      // The amount field of a debt without partial payments is not even offered.
      expect((await client.open(String(noPartial.paymentUrl))).html).to.not.include('name="amount"');
      expect(await read(t, String(noPartial.debtId))).to.deep.include({ amountPaid: 0 });
    });

    it('answers 503 and charges nothing when the processor is unavailable', async () => {
      const t = await tenant();
      const d = await debt(t);
      const res = await pageClient(api()).submit(String(d.paymentUrl), { amountChoice: 'full', ...CARD, cardNumber: SANDBOX_CARDS.unavailable });
      expect(expectHtmlPage(res, 503)).to.include('Servicio de pagos no disponible');
      expect(await read(t, String(d.debtId))).to.deep.include({ amountPaid: 0 });
    });

    it('refuses forged posts: no cookie, a wrong token, a token of another page (403, nothing paid)', async () => {
      const t = await tenant();
      const d = await debt(t);
      const other = await debt(t);
      const client = pageClient(api());
      const page = await client.open(String(d.paymentUrl));
      const otherPage = await client.open(String(other.paymentUrl));
      const values = { amountChoice: 'full', method: 'WALLET' };
      const stranger = pageClient(api());
      const forged: [ReturnType<typeof pageClient>, Record<string, string>][] = [
        [stranger, { ...page.form!.fields, ...values }],
        [client, { ...page.form!.fields, ...values, _csrf: 'A'.repeat(22) }],
        [client, { ...otherPage.form!.fields, ...values }],
        [client, { ...page.form!.fields, ...values, submission: 'x'.repeat(24) }],
        [client, { amountChoice: 'full', method: 'WALLET' }],
      ];
      for (const [who, fields] of forged) {
        const res = await who.post(page.form!.action, fields);
        expect(expectHtmlPage(res, 403)).to.include('El formulario venció');
      }
      const json = await client.agent.post(page.form!.action).set('X-Forwarded-For', client.ip).send({ ...page.form!.fields, ...values });
      expect(json.status).to.equal(415);
      const huge = await client.post(page.form!.action, { ...page.form!.fields, ...values, padding: 'x'.repeat(20_000) });
      expect(expectHtmlPage(huge, 413)).to.include('El formulario venció');
      expect(await read(t, String(d.debtId))).to.deep.include({ amountPaid: 0 });
    });

    it('refuses a payment the rules forbid by the time the form arrives (422, the page shows the new state)', async () => {
      const t = await tenant();
      const d = await debt(t);
      const client = pageClient(api());
      const page = await client.open(String(d.paymentUrl));
      expectOk(await http().post(`/test-helpers/debts/${d.debtId}/pay`).set(t.headers).send({ amount: 1400 }), 201);
      const res = await client.post(page.form!.action, { ...page.form!.fields, amountChoice: 'partial', amount: '500', method: 'WALLET' });
      expect(expectHtmlPage(res, 400)).to.include('no mayor que lo pendiente');
      expectOk(await http().post(`/debts/${d.debtId}/cancel`).set(t.headers));
      const late = await client.post(page.form!.action, { ...page.form!.fields, amountChoice: 'full', method: 'WALLET' });
      expect(expectHtmlPage(late, 422)).to.include('El pago no se pudo aplicar').and.include('Este cobro fue cancelado');
      expect(await read(t, String(d.debtId))).to.deep.include({ status: 'CANCELLED', amountPaid: 1400 });
    });
  });

  describe('rate limit on code lookups', () => {
    it('answers 429 with Retry-After once a client address has made its lookups, others go on', async () => {
      const t = await tenant();
      const d = await debt(t);
      const client = pageClient(api());
      const statuses: number[] = [];
      for (let i = 0; i < 30; i++) statuses.push((await client.open(i % 2 ? String(d.paymentUrl) : '/l/unknownunknown12')).res.status);
      expect(statuses.filter((s) => s === 429)).to.deep.equal([]);
      const limited = await client.open(String(d.paymentUrl));
      expect(expectHtmlPage(limited.res, 429)).to.include('Demasiados intentos');
      expect(Number(limited.res.headers['retry-after'])).to.be.at.least(1);
      expect((await client.open(String(d.paymentUrl))).res.status).to.equal(429);
      expect((await pageClient(api()).open(String(d.paymentUrl))).res.status).to.equal(200);
      // Assets are not lookups.
      expect((await client.agent.get('/assets/portal.css').set('X-Forwarded-For', client.ip)).status).to.equal(200);
    });
  });

  it('serves its assets with the same headers; the API itself still answers JSON', async () => {
    const css = await http().get('/assets/portal.css');
    expect(css.status).to.equal(200);
    expect(css.headers['content-type']).to.match(/^text\/css/);
    expectPageHeaders(css);
    const js = await http().get('/assets/portal.js');
    expect(js.headers['content-type']).to.match(/^text\/javascript/);
    expect((await http().get('/assets/portal.js').set('If-None-Match', String(js.headers.etag))).status).to.equal(304);
    expect((await http().get('/assets/nope.css')).status).to.equal(404);
    // Names every object inherits are not assets either (the table is a Map: no 500, no stack trace).
    for (const name of ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf']) {
      const res = await http().get(`/assets/${name}`);
      expect(res.status, name).to.equal(404);
      expect(res.headers['content-type'], name).to.match(/^text\/plain/);
    }
    const api404 = await http().get('/nothing-here');
    expect(api404.body.error.code).to.equal('RESOURCE_NOT_FOUND');
    expect(pathOf('http://x/pay/A/b?c=1')).to.equal('/pay/A/b?c=1');
  });
});
