import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { expectHtmlPage, expectPageHeaders, pageClient, pathOf, textOf } from '../support/pages';
import { pdfText, pdfTitle } from '../support/pdf-text';

/**
 * Cash and transfer on the hosted pages: "Transferencia" and "Efectivo" give the debtor a payment
 * instruction through the same use case as the API, its page shows the account (with copy
 * buttons) or the barcode and a printable voucher, and says what became of it; the public voucher
 * URLs show the voucher and nothing else; tampered URLs are the 404 page.
 */

const NOW = '2031-05-10T15:00:00.000Z';
type Body = Record<string, any>;

describeEachDatabase('hosted pages: cash and transfer', ({ api }) => {
  const http = () => api().http;
  async function tenant(organization = `Gimnasio ${Math.random().toString(36).slice(2, 8)}`): Promise<Tenant> {
    const t = await api().newTenant({ organization });
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    return t;
  }
  const debtOf = async (t: Tenant, body: Body = {}) =>
    expectOk(await http().post('/v2/debts').set(t.headers).send({
      contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 1500, dueDate: '2031-06-15', description: 'Mensualidad', ...body,
    }), 201);
  const instructionsOf = async (t: Tenant, debtId: string) => expectOk<Body[]>(await http().get(`/debts/${debtId}/payment-instructions`).set(t.headers));

  it('"Transferencia": the debt gets a TRANSFER instruction and its page shows the account, bank, beneficiary, amount and reference with copy buttons', async () => {
    const t = await tenant('Gimnasio Central');
    const d = await debtOf(t);
    const client = pageClient(api());
    const res = await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'TRANSFER' });
    expect(res.status, textOf(res.text)).to.equal(303);
    expectPageHeaders(res);
    const [instruction] = await instructionsOf(t, d.debtId);
    expect(instruction).to.deep.include({ method: 'TRANSFER', status: 'PENDING', amount: 1500 });
    expect(res.headers.location).to.match(new RegExp(`^/pay/[A-Z0-9-]+/instructions/${instruction!.paymentInstructionId}/[A-Za-z0-9_-]{22}$`));

    const page = await client.open(res.headers.location);
    const text = expectHtmlPage(page.res, 200);
    expect(text).to.include('Datos para tu transferencia').and.include('Esperando tu pago').and.include('Gimnasio Central').and.include('Mensualidad');
    for (const value of [instruction!.transfer.accountNumber, instruction!.transfer.bankName, 'Beneficiario', '$1,500.00', instruction!.reference]) expect(text).to.include(value);
    expect(page.html).to.include(`data-copy="${instruction!.transfer.accountNumber}"`).and.include('data-copy="1500.00"').and.include(`data-copy="${instruction!.reference}"`);
    expect(page.html.match(/<button type="button" class="copy"[^>]*hidden>/g), 'five copy buttons, shown by the script').to.have.length(5);
    expect(page.html).to.include('data-instruction-status="PENDING"');
    const status = await client.agent.get(`${res.headers.location}/status`);
    expect(status.status).to.equal(200);
    expect(status.headers['cache-control']).to.equal('no-store');
    expect(status.body).to.deep.equal({ status: 'PENDING', amountReceived: 0 });

    // Sent again (a refresh, a second click): the same instruction.
    const again = await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'TRANSFER' });
    expect(again.headers.location).to.equal(res.headers.location);
    expect(await instructionsOf(t, d.debtId)).to.have.length(1);

    // The debt's page says it is waiting, with the way to the account.
    const debtPage = await client.open(String(d.paymentUrl));
    expect(textOf(debtPage.html)).to.include('Esperando tu pago').and.include('Transferencia de $1,500.00');
    expect(debtPage.html).to.include(`href="${res.headers.location}"`);

    // The money arrives: the status changes, and the page says so.
    expectOk(await http().post(`/test-helpers/payment-instructions/${instruction!.paymentInstructionId}/receive`).set(t.headers).send({}), 202);
    expect((await client.agent.get(`${res.headers.location}/status`)).body).to.deep.equal({ status: 'PAID', amountReceived: 1500 });
    const paid = expectHtmlPage((await client.open(res.headers.location)).res, 200);
    expect(paid).to.include('Recibimos tu pago');
    expect(textOf((await client.open(String(d.paymentUrl))).html)).to.include('Esta cuenta ya está pagada');
  });

  it('"Efectivo": a voucher with its barcode (SVG) and a printable PDF in the page\'s locale, public by signed URL; a partial amount where allowed', async () => {
    const t = await tenant('Farmacia Sur');
    const d = await debtOf(t, { description: 'Pedido 7' });
    const client = pageClient(api());
    const res = await client.submit(String(d.paymentUrl), { amountChoice: 'partial', amount: '500', method: 'CASH' });
    expect(res.status, textOf(res.text)).to.equal(303);
    const [voucher] = await instructionsOf(t, d.debtId);
    expect(voucher).to.deep.include({ method: 'CASH', amount: 500 });
    const page = await client.open(res.headers.location, { 'accept-language': 'en-US' });
    const text = expectHtmlPage(page.res, 200);
    expect(text).to.include('Your cash payment voucher').and.include('Waiting for your payment').and.include(voucher!.cash.barcodeValue).and.include('OXXO');
    const barcodePath = pathOf(voucher!.cash.barcodeUrl);
    expect(page.html).to.include(`<img src="${barcodePath}" alt="Barcode of reference ${voucher!.cash.barcodeValue}"`);
    expect(page.html).to.include(`href="${pathOf(voucher!.cash.voucherUrl)}?locale=en-US"`);

    const svg = await client.agent.get(barcodePath);
    expect(svg.status).to.equal(200);
    expect(svg.headers['content-type']).to.match(/^image\/svg\+xml/);
    expectPageHeaders(svg);
    expect(String(svg.body ?? svg.text)).to.match(/^<svg/);

    const pdf = await client.agent.get(`${pathOf(voucher!.cash.voucherUrl)}?locale=en-US`).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(pdf.status).to.equal(200);
    expect(pdf.headers['content-type']).to.equal('application/pdf');
    expect(pdf.headers['content-disposition']).to.match(/^inline; filename="voucher-\d{16}\.pdf"$/);
    const body = pdf.body as Buffer;
    expect(body.subarray(0, 5).toString()).to.equal('%PDF-');
    expect(pdfTitle(body)).to.equal('Cash payment voucher · Farmacia Sur');
    const shown = pdfText(body);
    expect(shown).to.include('Payment to Farmacia Sur').and.include('Pedido 7').and.include('MX$500.00').and.include(voucher!.cash.barcodeValue).and.include('OXXO');
    expect(shown).to.include('Sandbox: this voucher moves no real money.');
    // Nothing of the debtor or the debt's id.
    expect(shown).to.not.include('ana').and.not.include(d.debtId);
    // The voucher's own language by default: es-MX for MXN.
    const spanish = await client.agent.get(pathOf(voucher!.cash.voucherUrl)).buffer(true).parse((r, done) => {
      const chunks: Buffer[] = [];
      r.on('data', (c: Buffer) => chunks.push(c));
      r.on('end', () => done(null, Buffer.concat(chunks)));
    });
    expect(pdfTitle(spanish.body as Buffer)).to.equal('Ficha de pago en efectivo · Farmacia Sur');
  });

  it('tampered, swapped or foreign URLs are the 404 page; a transfer has no voucher', async () => {
    const t = await tenant();
    const d = await debtOf(t);
    const client = pageClient(api());
    const transfer = (await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'TRANSFER' })).headers.location as string;
    const cash = (await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'CASH' })).headers.location as string;
    const [cashInstruction] = (await instructionsOf(t, d.debtId)).filter((i) => i.method === 'CASH');
    const voucherPath = pathOf(cashInstruction!.cash.voucherUrl);
    expectHtmlPage((await client.open(transfer.replace(/[A-Za-z0-9_-]{22}$/, 'A'.repeat(22)))).res, 404);
    // A voucher's signature does not open the instruction page, nor the other way round.
    const voucherSignature = voucherPath.split('/')[4]!;
    expectHtmlPage((await client.open(cash.replace(/[A-Za-z0-9_-]{22}$/, voucherSignature))).res, 404);
    expectHtmlPage((await client.open(voucherPath.replace(voucherSignature, cash.split('/').pop()!))).res, 404);
    // A transfer's id signed as a voucher has nothing to show.
    const transferId = transfer.split('/')[4]!;
    const transferVoucher = (await api().infra.paymentPortal.voucherUrls({ companyCode: transfer.split('/')[2]!, paymentInstructionId: transferId })).voucherUrl;
    expectHtmlPage((await client.open(pathOf(transferVoucher))).res, 404);
    expectHtmlPage((await client.open('/vouchers/NOPE/pin_x/abc/voucher.pdf')).res, 404);
  });

  it('says when an instruction expired or was cancelled, with the way back to the payment page', async () => {
    const t = await tenant();
    const d = await debtOf(t);
    const client = pageClient(api());
    const cash = (await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'CASH' })).headers.location as string;
    const transfer = (await client.submit(String(d.paymentUrl), { amountChoice: 'full', method: 'TRANSFER' })).headers.location as string;
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-14T00:00:00.000Z' }));
    const expired = await client.open(cash);
    expect(expectHtmlPage(expired.res, 200)).to.include('Esta ficha de pago venció');
    expect(expired.html).to.include(`href="${d.paymentUrl}"`);
    expect((await client.agent.get(`${cash}/status`)).body.status).to.equal('EXPIRED');
    expectOk(await http().post(`/debts/${d.debtId}/cancel`).set(t.headers));
    expect(expectHtmlPage((await client.open(transfer)).res, 200)).to.include('Ya no necesitas pagar con estas instrucciones');
  });

  it('a subscription cycle and a link\'s debt take instructions from their pages; the payment order decides which cycle', async () => {
    const t = await tenant();
    const sub = expectOk(await http().post('/subscriptions').set(t.headers).send({
      externalSubscriptionId: 'gym', contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 300, intervalUnit: 'month',
      intervalCount: 1, startDate: '2031-06-01', totalCycles: 3, productName: 'Gym', enforcePaymentOrder: true,
    }), 201);
    await api().drainJobs();
    const client = pageClient(api());
    const res = await client.submit(String(sub.paymentUrl), { amountChoice: 'full', method: 'TRANSFER' });
    expect(res.status, textOf(res.text)).to.equal(303);
    expect((await instructionsOf(t, 'gym-cycle-0'))[0]).to.deep.include({ method: 'TRANSFER', amount: 300 });
    const subPage = await client.open(String(sub.paymentUrl));
    expect(textOf(subPage.html)).to.include('Esperando tu pago');
    expect(expectHtmlPage((await client.open(res.headers.location)).res, 200)).to.include('Datos para tu transferencia');
    expect((await client.open(res.headers.location)).html).to.include(`href="${sub.paymentUrl}"`);

    const link = expectOk(await http().post('/payment-links').set(t.headers).send({ amount: 90, description: 'Entrada', expiresAt: '2031-05-30T00:00:00Z' }), 201);
    const viaLink = await client.submit(String(link.paymentUrl), { method: 'CASH' });
    expect(viaLink.status, textOf(viaLink.text)).to.equal(303);
    const [onLink] = await instructionsOf(t, link.debtId);
    expect(onLink).to.deep.include({ method: 'CASH', amount: 90, expiresAt: '2031-05-13T15:00:00.000Z' });
    expectOk(await http().post(`/test-helpers/payment-instructions/${onLink!.paymentInstructionId}/receive`).set(t.headers).send({}), 202);
    expect(expectOk(await http().get(`/payment-links/${link.paymentLinkId}`).set(t.headers)).status).to.equal('PAID');
  });
});
