import { expect } from 'chai';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { chromiumInstalled, launchPhoneBrowser } from '../support/chromium';
import { SANDBOX_CARDS } from '../../adapters/gateways/sandbox-payment-processor';
import { mysqlAvailable, redisAvailable } from '../support/databases';
import { type ApiHarness, startApi, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';

/**
 * The hosted pages in a real browser: Debian's Chromium driven by playwright-core. A debtor pays
 * a debt partially then fully, pays a single-use link (landing on its successUrl, another origin
 * the CSP's form-action allows) and a reusable one, and enrolls a bank account; the next debt of
 * the product then comes back with autopay true and the workers collect it. No page logs a CSP
 * violation or a script error. Each page is photographed (mobile width) into docs/screenshots/
 * when UPDATE_SCREENSHOTS=1 (`npm run screenshots`), else into a temporary directory.
 *
 * Without Chromium the suite skips, except under CI=true, where that is a failure.
 */

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'cf-shots-'));
const NOW = '2031-05-10T15:00:00.000Z';
const CLABE = '002010077777777771';

describe('hosted pages in Chromium (playwright-core)', function () {
  this.timeout(120_000);
  let api: ApiHarness | null = null;
  let context: BrowserContext | null = null;
  let browser: { context: BrowserContext; close(): Promise<void> } | null = null;
  let merchant: http.Server | null = null;
  let merchantUrl = '';
  const problems: string[] = [];

  before(async function () {
    if (!chromiumInstalled()) this.skip();
    const full = (await mysqlAvailable()) && (await redisAvailable());
    // The lookup limit has its own HTTP test; here one browser makes every lookup.
    api = await startApi(full ? 'mysql' : 'sqlite', { worker: full, realBaseUrl: true, pageLookupLimit: { capacity: 10_000, refillPerSecond: 100 }, identifierLookupLimit: { capacity: 10_000, refillPerSecond: 100 } });
    merchant = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html lang="es"><title>Tienda</title><h1>Gracias por tu compra</h1></html>');
    });
    merchant.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => merchant!.once('listening', () => resolve()));
    merchantUrl = `http://127.0.0.1:${(merchant.address() as AddressInfo).port}/gracias`;
    const launched = await launchPhoneBrowser();
    browser = launched;
    context = launched.context;
  });

  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (merchant ? merchant.close(() => resolve()) : resolve()));
    await api?.close();
  });

  afterEach(() => {
    const seen = problems.splice(0);
    expect(seen, 'console errors, CSP violations or script errors').to.deep.equal([]);
  });

  async function newPage(): Promise<Page> {
    const page = await context!.newPage();
    page.on('console', (message) => {
      // Pages answered with 4xx on purpose (a refused form, not found) log a failed load; nothing else may.
      if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  async function tenant(organization: string, settings: Record<string, unknown> = {}): Promise<Tenant> {
    const t = await api!.newTenant({ organization, settings });
    expectOk(await api!.http.put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    return t;
  }

  /**
   * The page as docs/screenshots shows it. Under a loaded machine headless Chromium now and then
   * answers "Unable to capture screenshot" (no frame in time); the capture is tried once more
   * after a frame, as it is an illustration and not an assertion.
   */
  async function shot(page: Page, name: string): Promise<void> {
    const capture = () => page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true, scale: 'css' });
    await capture().catch(async (error: Error) => {
      if (!/Unable to capture screenshot/.test(error.message)) throw error;
      await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => resolve(null)))');
      await capture();
    });
  }

  /** Landmarks, language, labels, and the skip link first in the tab order. */
  async function expectAccessible(page: Page): Promise<void> {
    const report = await js<{ lang: string; main: number; h1: number; unlabelled: string[]; overflow: boolean }>(
      page,
      `({
        lang: document.documentElement.lang,
        main: document.querySelectorAll('main').length,
        h1: document.querySelectorAll('h1').length,
        unlabelled: Array.from(document.querySelectorAll('input:not([type=hidden]), select')).filter((i) => !i.labels || i.labels.length === 0).map((i) => i.id),
        overflow: document.documentElement.scrollWidth > window.innerWidth,
      })`,
    );
    expect(report).to.deep.include({ main: 1, h1: 1, unlabelled: [], overflow: false });
    expect(report.lang).to.match(/^(es-(MX|AR|PE|CO|CL)|en-US)$/);
    await page.keyboard.press('Tab');
    expect(await js(page, 'document.activeElement && document.activeElement.className')).to.equal('skip-link');
  }

  /** The browser's language for this page's requests (the persistent context's own is es-MX). */
  const speaks = (page: Page, acceptLanguage: string) =>
    page.route('**/*', (route) => route.continue({ headers: { ...route.request().headers(), 'accept-language': acceptLanguage } }));

  /** Runs an expression in the page (the tests are compiled without the DOM types). */
  const js = <T = unknown>(page: Page, expression: string): Promise<T> => page.evaluate(expression) as Promise<T>;

  const debtRead = async (t: Tenant, id: unknown) => expectOk(await api!.http.get(`/debts/${id}`).set(t.headers));

  it('pays a debt partially, then fully', async () => {
    const t = await tenant('Gimnasio Central');
    const debt = expectOk(
      await api!.http.post('/v2/debts').set(t.headers).send({
        contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 1500, dueDate: '2031-06-15', description: 'Mensualidad de junio',
      }),
      201,
    );
    const page = await newPage();
    await page.goto(String(debt.paymentUrl));
    expect(await page.locator('h1').textContent()).to.equal('Mensualidad de junio');
    expect(await page.locator('#amount').isVisible(), 'the amount field shows only for another amount').to.equal(false);
    await shot(page, 'debt');
    await expectAccessible(page);

    await page.getByLabel('Pagar otro importe').check();
    await page.getByLabel('Importe a pagar').fill('99999');
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForSelector('.error-summary');
    expect(await js(page, "document.activeElement.classList.contains('error-summary')")).to.equal(true);
    await shot(page, 'debt-error');

    await page.getByLabel('Pagar otro importe').check();
    await page.getByLabel('Importe a pagar').fill('500');
    await page.getByLabel('Tarjeta', { exact: true }).check();
    await page.getByLabel('Número de tarjeta').fill('4242 4242 4242 4242');
    await page.getByLabel('Vencimiento (MM/AA)').fill('12/34');
    await page.getByLabel('Código de seguridad (CVC)').fill('123');
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/receipts\//);
    expect(await page.locator('h1').textContent()).to.equal('Pago recibido');
    expect(await page.locator('main').textContent()).to.include('$500.00').and.include('$1,000.00');
    await shot(page, 'receipt');
    expect(await debtRead(t, debt.debtId)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 500 });

    await page.getByRole('link', { name: 'Pagar lo pendiente' }).click();
    expect(await page.locator('main').textContent()).to.include('Pagada en parte');
    await shot(page, 'debt-partially-paid');
    await page.getByLabel('Transferencia', { exact: true }).check();
    expect(await page.locator('[data-card-fields]').isVisible(), 'card fields only for cards').to.equal(false);
    await page.getByLabel('Billetera digital').check();
    expect(await page.locator('[data-card-fields]').isVisible(), 'card fields only for cards').to.equal(false);
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/receipts\//);
    expect(await debtRead(t, debt.debtId)).to.deep.include({ status: 'PAID', amountPaid: 1500 });
    await page.goto(String(debt.paymentUrl));
    expect(await page.locator('.notice h2').textContent()).to.equal('Esta cuenta ya está pagada');
    await shot(page, 'debt-paid');

    await page.setViewportSize({ width: 1024, height: 768 });
    await page.goto(String(debt.paymentUrl).replace(/\/[^/]+$/, '/AAAAAAAAAAAAAAAAAAAAAA'));
    expect(await page.locator('h1').textContent()).to.equal('No encontramos esta página');
    await shot(page, 'not-found');
    await page.close();
  });

  it('pays a single-use link and lands on its successUrl; the link is PAID', async () => {
    const t = await tenant('Teatro Sur', { privateLinks: true });
    const link = expectOk(
      await api!.http.post('/payment-links').set(t.headers).send({ amount: 350, description: 'Entrada platea', expiresAt: '2031-05-30T23:00:00Z', successUrl: merchantUrl }),
      201,
    );
    const page = await newPage();
    await page.goto(String(link.paymentUrl));
    expect(String(link.paymentUrl)).to.match(/\/l\/[A-Za-z0-9]{16}$/);
    await shot(page, 'link');
    await expectAccessible(page);
    await page.getByLabel('Billetera digital').check();
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(merchantUrl);
    expect(await page.locator('h1').textContent()).to.equal('Gracias por tu compra');
    expect(expectOk(await api!.http.get(`/payment-links/${link.paymentLinkId}`).set(t.headers))).to.deep.include({ status: 'PAID' });
    await page.goto(String(link.paymentUrl));
    expect(await page.locator('.notice h2').textContent()).to.equal('Este enlace de pago ya fue pagado');
    await shot(page, 'link-paid');

    const expiring = expectOk(await api!.http.post('/payment-links').set(t.headers).send({ amount: 90, description: 'Preventa', expiresAt: '2031-05-11T00:00:00Z' }), 201);
    expectOk(await api!.http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-12T00:00:00.000Z' }));
    await page.goto(String(expiring.paymentUrl));
    expect(await page.locator('.notice h2').textContent()).to.equal('Este enlace de pago venció');
    await shot(page, 'link-expired');
    await page.close();
  });

  it('pays a reusable link twice; each payment is a record and the link stays ACTIVE', async () => {
    const t = await tenant('Fundación Andina');
    const link = expectOk(
      await api!.http.post('/payment-links').set(t.headers).send({ amount: 200, currency: 'ARS', description: 'Donación mensual', expiresAt: '2031-12-31T23:00:00Z', singleUse: false, identifierValue: 'donar' }),
      201,
    );
    const page = await newPage();
    await page.goto(String(link.paymentUrl));
    expect(await js(page, 'document.documentElement.lang')).to.equal('es-MX');
    expect(await page.locator('main').textContent()).to.include('ARS');
    for (let i = 0; i < 2; i++) {
      await page.goto(String(link.paymentUrl));
      await page.getByLabel('Billetera digital').check();
      await page.getByRole('button', { name: 'Pagar' }).click();
      await page.waitForURL(/\/receipts\//);
    }
    await page.goto(String(link.paymentUrl));
    expect(await page.locator('main').textContent()).to.include('Pagos recibidos2');
    await shot(page, 'link-reusable');
    expect(expectOk(await api!.http.get(`/payment-links/${link.paymentLinkId}`).set(t.headers))).to.deep.include({ status: 'ACTIVE' });
    const payments = expectOk<Record<string, unknown>[]>(await api!.http.get(`/payment-links/${link.paymentLinkId}/payments`).set(t.headers));
    expect(payments.filter((p) => p.status === 'PAID')).to.have.length(2);

    const argentine = await newPage();
    await speaks(argentine, 'es-AR');
    await argentine.goto(String(link.paymentUrl));
    expect(await argentine.locator('main').textContent()).to.match(/\$\s200,00/);
    await argentine.close();
    await page.close();
  });

  it('shows a subscription\'s cycles in order and takes the earliest unpaid one', async () => {
    const t = await tenant('Club Deportivo');
    const sub = expectOk(
      await api!.http.post('/subscriptions').set(t.headers).send({
        externalSubscriptionId: 'club-ana', contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 450,
        intervalUnit: 'month', intervalCount: 1, startDate: '2031-05-15', totalCycles: 4, productName: 'Membresía', description: 'Membresía mensual', enforcePaymentOrder: true,
      }),
      201,
    );
    await api!.drainJobs();
    const page = await newPage();
    await page.goto(String(sub.paymentUrl));
    expect(await page.locator('tbody tr').count()).to.equal(4);
    await expectAccessible(page);
    // The cycles table fits a 390 px phone: nothing to scroll sideways.
    expect(await js(page, "(() => { const r = document.querySelector('.table-scroll'); return r.scrollWidth <= r.clientWidth; })()"), 'cycles table fits 390 px').to.equal(true);
    await page.getByLabel('Billetera digital').check();
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/receipts\//);
    await page.goto(String(sub.paymentUrl));
    expect(await page.locator('main').textContent()).to.include('Próxima cuota a pagar: vence el 15 de junio de 2031');
    await shot(page, 'subscription');
    await page.close();
  });

  it('pays by transfer and in cash: the account with copy buttons, the voucher with its barcode and PDF, waiting, then paid when the money arrives', async () => {
    const t = await tenant('Colegio Las Lomas');
    const debt = expectOk(
      await api!.http.post('/v2/debts').set(t.headers).send({
        contactData: { externalClientId: 'luis', name: 'Luis', email: 'luis@example.com' }, amount: 2350, dueDate: '2031-06-05', description: 'Colegiatura de junio',
      }),
      201,
    );
    const page = await newPage();
    await page.goto(String(debt.paymentUrl));
    expect(await page.locator('input[name=method]').evaluateAll((inputs) => inputs.map((i) => (i as unknown as { value: string }).value))).to.deep.equal(['CARD', 'TRANSFER', 'CASH', 'WALLET']);
    await page.getByLabel('Transferencia', { exact: true }).check();
    expect(await page.locator('[data-card-fields]').isVisible(), 'card fields only for cards').to.equal(false);
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/instructions\/pin_/);
    const transferUrl = page.url();
    const [transfer] = expectOk<Record<string, any>[]>(await api!.http.get(`/debts/${debt.debtId}/payment-instructions`).set(t.headers));
    expect(await page.locator('h1').textContent()).to.equal('Datos para tu transferencia');
    expect(await page.locator('main').textContent()).to.include(transfer!.transfer.accountNumber).and.include('Esperando tu pago');
    await expectAccessible(page);
    const copy = page.getByRole('button', { name: 'Copiar CLABE' });
    expect(await copy.isVisible(), 'copy buttons shown by the script').to.equal(true);
    await context!.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(transferUrl).origin });
    await copy.click();
    await page.waitForSelector('.copied:has-text("Copiado")');
    await shot(page, 'instruction-transfer');

    // Back on the debt's page: waiting for the payment, with the way to the account.
    await page.goto(String(debt.paymentUrl));
    expect(await page.locator('#pending-title').textContent()).to.equal('Esperando tu pago');
    await shot(page, 'instruction-waiting');

    // Cash: the voucher, its barcode, and the printable PDF.
    await page.getByLabel('Efectivo').check();
    await page.getByRole('button', { name: 'Pagar' }).click();
    await page.waitForURL(/\/instructions\/pin_/);
    expect(await page.locator('h1').textContent()).to.equal('Tu ficha de pago en efectivo');
    expect(await js(page, "document.querySelector('figure.barcode img').naturalWidth > 0"), 'the barcode loads (same origin, CSP img-src self)').to.equal(true);
    await shot(page, 'instruction-cash');
    const pdfHref = await page.getByRole('link', { name: 'Descargar la ficha para imprimir (PDF)' }).getAttribute('href');
    expect(pdfHref).to.match(/\/voucher\.pdf\?locale=es-MX$/);
    const viewer = await newPage();
    try {
      await viewer.goto(new URL(pdfHref!, page.url()).toString());
      await viewer.waitForTimeout(1500);
      await shot(viewer, 'voucher');
    } catch (error) {
      // Some Chromium builds download PDFs instead of showing them: the HTTP suite reads the file itself.
      if (!/Download is starting/.test((error as Error).message)) throw error;
    }
    await viewer.close();

    // The money arrives while the transfer page is open: it updates by itself.
    await page.goto(transferUrl);
    expectOk(await api!.http.post(`/test-helpers/payment-instructions/${transfer!.paymentInstructionId}/receive`).set(t.headers).send({}), 202);
    await page.waitForSelector('text=Recibimos tu pago', { timeout: 15_000 });
    expect(await page.locator('.notice h2').textContent()).to.equal('Recibimos tu pago');
    await shot(page, 'instruction-paid');
    expect(await debtRead(t, debt.debtId)).to.deep.include({ status: 'PAID', amountPaid: 2350 });
    await page.close();
  });

  it('enrolls a bank account; the next debt of the product comes back with autopay true and is collected', async () => {
    const t = await tenant('Seguros Norte', { directDebitEnabled: true, directDebitModality: true });
    expectOk(await api!.http.post('/contacts').set(t.headers).send({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }), 201);
    const product = expectOk(await api!.http.post('/products').set(t.headers).send({ name: 'Seguro de auto' }), 201);
    const link = expectOk(await api!.http.post('/enrollment-links').set(t.headers).send({ externalClientId: 'ana' }), 201);
    const page = await newPage();
    await page.goto(String(link.url));
    await shot(page, 'enrollment');
    await expectAccessible(page);
    await page.getByLabel('CLABE', { exact: true }).fill('002010077777777772');
    await page.getByRole('button', { name: 'Registrar' }).click();
    await page.waitForSelector('.error-summary');
    await page.getByLabel('CLABE', { exact: true }).fill(CLABE);
    await page.getByRole('button', { name: 'Registrar' }).click();
    await page.waitForURL(/\/done\/pm_/);
    expect(await page.locator('main').textContent()).to.include('CLABE •••• 7771');
    await shot(page, 'enrollment-done');
    await page.close();

    const debt = expectOk(await api!.http.post('/v2/debts').set(t.headers).send({ externalClientId: 'ana', amount: 820, dueDate: '2031-05-10', productId: product.productId }), 201);
    expect(debt).to.deep.include({ autopay: true });
    const deadline = Date.now() + 20_000;
    let read = await debtRead(t, debt.debtId);
    while (read.status !== 'PAID' && Date.now() < deadline) {
      await api!.drainJobs();
      await new Promise((resolve) => setTimeout(resolve, 50));
      read = await debtRead(t, debt.debtId);
    }
    expect(read).to.deep.include({ status: 'PAID', amountPaid: 820 });
  });

  it('declines a refused card without charging, in English for an English browser', async () => {
    const t = await tenant('Acme Learning');
    const debt = expectOk(
      await api!.http.post('/v2/debts').set(t.headers).send({ contactData: { externalClientId: 'bo', name: 'Bo', email: 'bo@example.com' }, amount: 75, currency: 'USD', dueDate: '2031-06-01', description: 'Course fee' }),
      201,
    );
    const page = await newPage();
    await speaks(page, 'en-US,en;q=0.9');
    await page.goto(String(debt.paymentUrl));
    expect(await js(page, 'document.documentElement.lang')).to.equal('en-US');
    await page.getByLabel('Card number').fill(SANDBOX_CARDS.declined);
    await page.getByLabel('Expiry (MM/YY)').fill('12/34');
    await page.getByLabel('Security code (CVC)').fill('123');
    await page.getByRole('button', { name: 'Pay' }).click();
    await page.waitForSelector('.error-summary');
    expect(await page.locator('.error-summary').textContent()).to.include('declined (CARD_DECLINED)');
    expect(await page.getByLabel('Card number').inputValue(), 'the card number is not written back').to.equal('');
    await shot(page, 'debt-declined-en');
    expect(await debtRead(t, debt.debtId)).to.deep.include({ amountPaid: 0 });
    await page.close();
  });
});
