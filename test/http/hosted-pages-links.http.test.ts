import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { expectHtmlPage, pageClient, pathOf, textOf } from '../support/pages';

/**
 * The hosted page of a payment link: a private link by its opaque short code, a public one by
 * its identifier URL; single-use and reusable payments (shown by the API afterwards), the
 * successUrl redirect (allowed by the CSP's form-action), and every final state.
 */

type Body = Record<string, unknown>;
const NOW = '2031-03-10T12:00:00.000Z';
const EXPIRES = '2031-03-20T12:00:00.000Z';
const PAY = { method: 'WALLET' };

describeEachDatabase('hosted pages: payment links', ({ api }) => {
  const http = () => api().http;

  async function tenant(settings: Body = {}): Promise<Tenant> {
    const t = await api().newTenant({ settings });
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    return t;
  }
  async function link(t: Tenant, fields: Body = {}): Promise<Body> {
    const body = { amount: 250, description: 'Entrada al concierto', expiresAt: EXPIRES, ...fields };
    return expectOk(await http().post('/payment-links').set(t.headers).send(body), 201);
  }
  const readLink = async (t: Tenant, id: string) => expectOk(await http().get(`/payment-links/${id}`).set(t.headers));

  it('a private single-use link: opaque short code, paid once, then a clear page', async () => {
    const t = await tenant({ privateLinks: true });
    const l = await link(t, { identifierValue: 'concierto-ana' });
    const url = String(l.paymentUrl);
    expect(url).to.match(/^http:\/\/localhost:3000\/l\/[A-Za-z0-9]{16}$/);
    expect(url).to.not.include('concierto').and.not.include(String(l.paymentLinkId));
    const client = pageClient(api());
    const page = await client.open(url);
    const text = expectHtmlPage(page.res, 200);
    expect(text).to.include('Entrada al concierto').and.include('$250.00').and.include('Activo').and.include('Por pagar $250.00');
    expect(page.html, 'a single-use link takes its whole amount').to.not.include('name="amount"');
    // A private link is not reachable by its identifier.
    expect((await client.open(`/pay/${t.companyCodes[0]}/concierto-ana`)).res.status).to.equal(404);

    const paid = await client.submit(url, PAY);
    expect(paid.status, textOf(paid.text)).to.equal(303);
    expect(paid.headers.location).to.match(/^\/receipts\//);
    expect(await readLink(t, String(l.paymentLinkId))).to.deep.include({ status: 'PAID' });
    const debt = expectOk(await http().get(`/debts/${l.debtId}`).set(t.headers));
    expect(debt).to.deep.include({ status: 'PAID', amountPaid: 250 });
    const after = await client.open(url);
    expect(expectHtmlPage(after.res, 200)).to.include('Este enlace de pago ya fue pagado').and.include('Pagado');
    expect(after.form).to.equal(null);
    expect(textOf((await client.open(paid.headers.location)).html)).to.include('Entrada al concierto').and.include('$250.00');
  });

  it('a public reusable link by its identifier URL: each payment is a paid record, the link stays ACTIVE', async () => {
    const t = await tenant();
    const l = await link(t, { singleUse: false, identifierValue: 'Donaciones 2031', amount: 100 });
    const url = String(l.paymentUrl);
    expect(url).to.equal(`http://localhost:3000/pay/${t.companyCodes[0]}/donaciones-2031`);
    const client = pageClient(api());
    const page = await client.open(url);
    expect(expectHtmlPage(page.res, 200)).to.include('Este enlace admite varios pagos').and.include('Pagos recibidos 0');
    for (let i = 0; i < 2; i++) expect((await client.submit(url, PAY)).status).to.equal(303);
    expect(await readLink(t, String(l.paymentLinkId))).to.deep.include({ status: 'ACTIVE' });
    const payments = expectOk<Body[]>(await http().get(`/payment-links/${l.paymentLinkId}/payments`).set(t.headers));
    expect(payments.filter((p) => p.status === 'PAID').map((p) => p.amountPaid)).to.deep.equal([100, 100]);
    expect(textOf((await client.open(url)).html)).to.include('Pagos recibidos 2');
  });

  it('redirects to the successUrl after payment (the CSP lets the form reach its origin)', async () => {
    const t = await tenant({ privateLinks: true });
    const l = await link(t, { successUrl: 'https://shop.example.com/thanks?order=9' });
    const client = pageClient(api());
    const page = await client.open(String(l.paymentUrl));
    expect(String(page.res.headers['content-security-policy'])).to.include("form-action 'self' https://shop.example.com;");
    const res = await client.post(page.form!.action, { ...page.form!.fields, ...PAY });
    expect(res.status).to.equal(303);
    expect(res.headers.location).to.equal('https://shop.example.com/thanks?order=9');
    expect(await readLink(t, String(l.paymentLinkId))).to.deep.include({ status: 'PAID' });
    // Its debt's own page names the same successUrl.
    const debt = expectOk(await http().get(`/debts/${l.debtId}`).set(t.headers));
    expect(textOf((await client.open(String(debt.paymentUrl))).html)).to.include('Este enlace de pago ya fue pagado');
  });

  it('shows expired and cancelled links as clear pages, and refuses their forms', async () => {
    const t = await tenant({ privateLinks: true });
    const client = pageClient(api());
    const expiring = await link(t);
    const stale = await client.open(String(expiring.paymentUrl));
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-03-21T00:00:00.000Z' }));
    const expired = await client.open(String(expiring.paymentUrl));
    expect(expectHtmlPage(expired.res, 200)).to.include('Este enlace de pago venció').and.include('Vencido');
    expect(expired.form).to.equal(null);
    const late = await client.post(stale.form!.action, { ...stale.form!.fields, ...PAY });
    expect(expectHtmlPage(late, 422)).to.include('Este enlace de pago venció');

    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    const cancelled = await link(t);
    expectOk(await http().post(`/payment-links/${cancelled.paymentLinkId}/cancel`).set(t.headers));
    const page = await client.open(String(cancelled.paymentUrl));
    expect(expectHtmlPage(page.res, 200)).to.include('Este enlace de pago fue cancelado');
    expect(page.form).to.equal(null);
  });

  it('lets the debtor choose among several ACTIVE links sharing an identifier', async () => {
    const t = await tenant();
    await expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: 'ana-7', name: 'Ana', email: 'ana@example.com' }), 201);
    const a = await link(t, { externalClientId: 'ana-7', description: 'Primera cuota' });
    const b = await link(t, { externalClientId: 'ana-7', description: 'Segunda cuota', amount: 300 });
    expect(a.paymentUrl).to.equal(b.paymentUrl);
    const client = pageClient(api());
    const choice = await client.open(String(a.paymentUrl));
    const text = expectHtmlPage(choice.res, 200);
    expect(text).to.include('Elige qué pagar').and.include('Primera cuota').and.include('Segunda cuota');
    const href = new RegExp(`href="(${pathOf(String(a.paymentUrl))}/${b.paymentLinkId})"`).exec(choice.html);
    expect(href, choice.html).to.not.equal(null);
    const res = await client.submit(href![1]!, PAY);
    expect(res.status).to.equal(303);
    expect(await readLink(t, String(b.paymentLinkId))).to.deep.include({ status: 'PAID' });
    // With one ACTIVE link left, the identifier URL opens it directly.
    expect(textOf((await client.open(String(a.paymentUrl))).html)).to.include('Primera cuota').and.not.include('Elige qué pagar');
    expect((await client.open(`${pathOf(String(a.paymentUrl))}/plk_unknown`)).res.status).to.equal(404);
  });

  it('unknown short codes, identifiers and receipts are clean 404 pages', async () => {
    const t = await tenant();
    const client = pageClient(api());
    for (const path of ['/l/AAAAAAAAAAAAAAAA', '/l/short', `/pay/${t.companyCodes[0]}/nadie`, `/pay/${t.companyCodes[0]}/NOT_AN_ID`, '/receipts/AAAAAAAAAAAAAAAAAAAAAA', '/receipts/x', '/enroll/abc']) {
      const res = (await client.open(path)).res;
      expect(expectHtmlPage(res, 404), path).to.include('No encontramos esta página');
    }
  });

  it('shows the debtor\'s name whole behind a private code or a signed URL, and only partially on a page found by identifier', async () => {
    const contact = { externalClientId: 'ana-9', name: 'Ana María Registro', email: 'ana@example.com' };
    const open = await tenant();
    expectOk(await http().post('/contacts').set(open.headers).send(contact), 201);
    const byIdentifier = await link(open, { externalClientId: 'ana-9', description: 'Cuota de marzo' });
    expect(pathOf(String(byIdentifier.paymentUrl))).to.equal(`/pay/${open.companyCodes[0]}/ana-9`);
    const client = pageClient(api());
    const partial = expectHtmlPage((await client.open(String(byIdentifier.paymentUrl))).res, 200);
    expect(partial).to.include('A nombre de A••• M••• R•••');
    expect(partial).to.not.include('Registro').and.not.include('María');
    // The link's debt by its signed paymentUrl: the whole name.
    const debt = expectOk(await http().get(`/debts/${byIdentifier.debtId}`).set(open.headers));
    expect(expectHtmlPage((await client.open(String(debt.paymentUrl))).res, 200)).to.include('A nombre de Ana María Registro');

    const privateLinks = await tenant({ privateLinks: true });
    expectOk(await http().post('/contacts').set(privateLinks.headers).send(contact), 201);
    const byCode = await link(privateLinks, { externalClientId: 'ana-9' });
    expect(expectHtmlPage((await client.open(String(byCode.paymentUrl))).res, 200)).to.include('A nombre de Ana María Registro');
    // A link without a debtor has no such row.
    const anonymous = await link(open, { identifierValue: 'sin-deudor' });
    expect(expectHtmlPage((await client.open(String(anonymous.paymentUrl))).res, 200)).to.not.include('A nombre de');
  });

  it('limits lookups by identifier to 10 per client address, then one every 6 s (429 page), beside the general lookup limit', async () => {
    const t = await tenant();
    const l = await link(t, { identifierValue: 'entrada-general' });
    const client = pageClient(api());
    const statuses: number[] = [];
    // Guessing: identifiers that exist and identifiers that do not both count.
    for (let i = 0; i < 10; i++) statuses.push((await client.open(i % 2 ? String(l.paymentUrl) : `/pay/${t.companyCodes[0]}/cliente-${i}`)).res.status);
    expect(statuses).to.deep.equal([404, 200, 404, 200, 404, 200, 404, 200, 404, 200]);
    const limited = await client.open(String(l.paymentUrl));
    expect(expectHtmlPage(limited.res, 429)).to.include('Demasiados intentos');
    expect(Number(limited.res.headers['retry-after'])).to.be.within(1, 6);
    // Pages by private code or signature from the same address go on (their codes are not guessable), and so does another address.
    expect((await client.open('/l/AAAAAAAAAAAAAAAA')).res.status).to.equal(404);
    expect((await pageClient(api()).open(String(l.paymentUrl))).res.status).to.equal(200);
  });
});
