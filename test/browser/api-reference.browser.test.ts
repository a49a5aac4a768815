import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Browser, type BrowserContext, chromium, type Locator, type Page } from 'playwright-core';
import { REQUIRE_SERVICES } from '../support/databases';
import { type ApiHarness, startApi, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';

/**
 * The interactive reference (GET /docs, Scalar) in a real browser: Debian's Chromium driven by
 * playwright-core. A reader finds the createDebt operation by its path, opens its "try it",
 * pastes the two credentials of a tenant and sends POST /v2/debts; the answer (201) shows in the
 * page and the debt exists. Logging in from "try it" sends the login key the reader adds as a
 * header, and no resource credential. The page is opened on another host name than PUBLIC_BASE_URL (the
 * document's server): "try it" must still send to the page's own origin. Every request the page
 * makes stays on that origin, and no CSP violation, console error or script error happens.
 * Screenshots go to docs/screenshots/ when UPDATE_SCREENSHOTS=1, else to a temporary directory.
 *
 * Without Chromium the suite skips, except under CI=true, where that is a failure.
 */

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'cf-shots-'));

describe('API reference in Chromium (playwright-core)', function () {
  this.timeout(120_000);
  let api: ApiHarness | null = null;
  let browser: Browser | null = null;
  let context: BrowserContext | null = null;
  /** Where the reader opens /docs: the API's port on `localhost`, while PUBLIC_BASE_URL names 127.0.0.1. */
  let pageOrigin = '';
  const problems: string[] = [];
  const requests: string[] = [];

  before(async function () {
    if (!fs.existsSync(CHROMIUM)) {
      if (REQUIRE_SERVICES) throw new Error(`CI=true and Chromium is missing at ${CHROMIUM} (apt-get install -y chromium)`);
      this.skip();
    }
    api = await startApi('sqlite', { realBaseUrl: true });
    pageOrigin = api.baseUrl.replace('//127.0.0.1:', '//localhost:');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'],
    });
    context = await browser.newContext({ locale: 'en-US', viewport: { width: 1280, height: 900 } });
    // A CSP violation is not always logged (a blocked probe that the page catches is silent): listen to the event itself.
    await context.addInitScript(
      "document.addEventListener('securitypolicyviolation', function (e) { console.error('CSP violation: ' + e.violatedDirective + ' ' + e.blockedURI + ' at ' + e.sourceFile + ':' + e.lineNumber); });",
    );
    context.on('request', (request) => requests.push(request.url()));
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await api?.close();
  });

  afterEach(() => {
    const seen = problems.splice(0);
    expect(seen, 'console errors, CSP violations or script errors').to.deep.equal([]);
    // data: URLs (the favicon) never leave the browser; every other request goes to the page's origin.
    const elsewhere = requests.splice(0).filter((url) => !url.startsWith('data:') && new URL(url).origin !== pageOrigin);
    expect(elsewhere, 'requests to another origin').to.deep.equal([]);
  });

  async function newPage(): Promise<Page> {
    const page = await context!.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: path.join(SHOTS, `${name}.png`), scale: 'css' });
  }

  /** Opens /docs and waits for Scalar to render the document. */
  async function openReference(page: Page): Promise<void> {
    await page.goto(`${pageOrigin}/docs`);
    await page.getByRole('heading', { name: 'Collections Facade API', level: 1 }).waitFor({ timeout: 30_000 });
  }

  /** Searches the reference like a reader (its search box, the path typed) and opens the operation. */
  async function findOperation(page: Page, method: string, operationPath: string) {
    await page.getByRole('button', { name: /Search/ }).first().click();
    await page.keyboard.type(operationPath);
    // A result shows the summary, then the method and the path.
    const result = page.getByRole('option').filter({ hasText: operationPath }).filter({ hasText: new RegExp(method, 'i') });
    await result.first().click();
  }

  /** Opens "try it" of the operation whose section shows `operationId`: the request client. */
  async function tryIt(page: Page, operationId: string) {
    const operation = page.locator('section').filter({ has: page.getByText(operationId, { exact: true }) });
    await operation.getByRole('button', { name: 'Test Request' }).click();
    return page.getByRole('dialog');
  }

  /** Pastes `value` into the client's field of the security scheme whose header is `header`. */
  async function fillScheme(page: Page, client: Locator, header: string, value: string): Promise<void> {
    const authentication = client.getByRole('button', { name: /^Authentication\s*Required/ });
    if ((await authentication.getAttribute('aria-expanded')) !== 'true') await authentication.click();
    // The value field is the row after the scheme's name.
    const name = page.locator('.code-input-lite__editor', { hasText: new RegExp(`^${header}$`) });
    await client.locator('tr', { has: name }).locator('xpath=following-sibling::tr[1]').locator('input').fill(value);
  }

  /** Replaces the request body (the example Scalar fills in) with `body`, typed into its editor. */
  async function typeBody(page: Page, client: Locator, body: unknown): Promise<void> {
    await client.locator('.cm-content').last().click();
    await page.keyboard.press('Control+A');
    await page.keyboard.press('Backspace');
    await page.keyboard.insertText(JSON.stringify(body, null, 2));
  }

  it('shows the document: its title, its operations by summary, the page origin as the server', async () => {
    const page = await newPage();
    await openReference(page);
    const document = (await api!.http.get('/openapi.json')).body;
    expect(document).to.have.nested.property('servers[0].url', api!.baseUrl);
    // The server Scalar offers (and puts in every curl snippet) is the page's own origin, not PUBLIC_BASE_URL.
    await page.getByText(pageOrigin, { exact: true }).first().waitFor();
    // The download link is the document this server serves, nothing generated elsewhere.
    const download = await page.getByRole('link', { name: /Download OpenAPI Document/i }).first().getAttribute('href');
    expect(new URL(download!, pageOrigin).href).to.equal(`${pageOrigin}/openapi.json`);
    await page.getByRole('link', { name: 'Debts' }).or(page.getByRole('button', { name: /^Debts/ })).first().click();
    await page.getByText('List debts, newest first, cancelled excluded').first().waitFor();
  });

  it('logs in from "try it" with the login key, and no resource credential', async () => {
    const tenant: Tenant = await api!.newTenant({ organization: 'Docs Login' });
    const login = (await api!.http.get('/openapi.json')).body.paths['/auth/login'].post;
    const page = await newPage();
    await openReference(page);
    await findOperation(page, 'POST', '/auth/login');
    const client = await tryIt(page, 'login');
    await client.getByText('/auth/login').first().waitFor();
    if ((login.security ?? []).some((requirement: object) => Object.keys(requirement).length > 0)) {
      // The document declares the login key as the operation's scheme: it is pasted there.
      await fillScheme(page, client, 'x-api-key', tenant.loginApiKey);
    } else {
      expect(await client.getByRole('button', { name: /^Authentication\s*Required/ }).count(), 'login requires no scheme').to.equal(0);
      // A new header row: its key and value editors are the last empty ones of the Headers table;
      // the client includes the row once it has taken the values (its checkbox then shows it).
      const headers = client.getByRole('region', { name: /^Headers/ });
      await headers.locator('[contenteditable=true]').nth(-2).click();
      await page.keyboard.insertText('x-api-key');
      await headers.locator('[contenteditable=true]').nth(-1).click();
      await page.keyboard.insertText(tenant.loginApiKey);
      const row = headers.locator('tr', { has: page.locator('.code-input-lite__editor', { hasText: /^x-api-key$/ }) });
      await row.locator('input[type=checkbox]:checked').waitFor();
    }
    await typeBody(page, client, { clientUsername: tenant.clientUsername, password: tenant.password });

    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/auth/login'));
    await client.getByRole('button', { name: 'Send' }).first().click();
    const request = await sent;
    expect(request.headers()['x-api-key']).to.equal(tenant.loginApiKey);
    expect(request.headers()).to.not.have.property('x-authorization-token');
    expect((await request.response())!.status()).to.equal(200);
    await client.getByText(/^\s*200 OK\s*$/).first().waitFor();
    await client.getByText('"accessToken"').first().waitFor();
  });

  it('finds createDebt, shows its curl snippet, and "try it" creates a debt with the credentials the reader pastes', async () => {
    const tenant: Tenant = await api!.newTenant({ organization: 'Docs Reader' });
    const page = await newPage();
    await openReference(page);
    await findOperation(page, 'POST', '/v2/debts');

    // The operation, with its id (the SDK's method name) and a curl snippet on this origin.
    const operation = page.locator('section').filter({ has: page.getByText('createDebt', { exact: true }) });
    await operation.getByText('createDebt', { exact: true }).waitFor();
    await operation.getByText(`curl ${pageOrigin}/v2/debts`).waitFor();
    expect(await operation.textContent()).to.include('x-api-key').and.include('x-authorization-token');
    await shot(page, 'api-reference');

    // "Try it": the request client, with the operation's two security schemes selected.
    const client = await tryIt(page, 'createDebt');
    await client.getByText(`${pageOrigin}`).first().waitFor();
    await fillScheme(page, client, 'x-api-key', tenant.apiKey);
    await fillScheme(page, client, 'x-authorization-token', tenant.accessToken);
    // The body: the example replaced by a real debt.
    const body = { contactData: { externalClientId: 'docs-ana', name: 'Ana', email: 'ana@example.com' }, amount: 1500, dueDate: '2031-06-15', description: 'Created from the API reference' };
    await typeBody(page, client, body);

    const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/v2/debts'));
    await client.getByRole('button', { name: 'Send' }).first().click();
    const request = await sent;
    expect(new URL(request.url()).origin, 'sent to the page origin, not PUBLIC_BASE_URL').to.equal(pageOrigin);
    expect(request.headers()).to.include({ 'x-api-key': tenant.apiKey, 'x-authorization-token': tenant.accessToken });
    expect(JSON.parse(request.postData()!)).to.deep.equal(body);
    const answer = await request.response();
    expect(answer!.status()).to.equal(201);

    // The page shows the answer: its status and the created debt.
    await client.getByText(/^\s*201 Created\s*$/).first().waitFor();
    const created = (await answer!.json()).data;
    await client.getByText(`"${created.debtId}"`).first().waitFor();
    await shot(page, 'api-reference-try-it');

    const listed = expectOk(await api!.http.get('/debts').set(tenant.headers)) as { debtId: string; description: string }[];
    expect(listed.map((d) => [d.debtId, d.description])).to.deep.include([created.debtId, body.description]);
  });
});
