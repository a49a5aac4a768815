import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { chromiumInstalled, launchPhoneBrowser } from '../support/chromium';
import { type ApiHarness, startApi } from '../support/harness';
import { expectOk } from '../support/http-expect';

/**
 * The one-click unsubscribe of a reminder email in a real browser (Debian's Chromium through
 * playwright-core): the debtor opens the link the email carried (the sandbox sender's message),
 * sees the confirmation page, presses the button, and the company's next email reminder is
 * SKIPPED because the contact turned email off. No CSP violation or script error. The pages are
 * photographed into docs/screenshots/ with UPDATE_SCREENSHOTS=1, else into a temporary directory.
 */

const SHOTS = process.env.UPDATE_SCREENSHOTS === '1' ? path.resolve(__dirname, '../../docs/screenshots') : fs.mkdtempSync(path.join(os.tmpdir(), 'cf-shots-'));

describe('one-click unsubscribe in Chromium (playwright-core)', function () {
  this.timeout(120_000);
  let api: ApiHarness | null = null;
  let context: BrowserContext | null = null;
  let browser: { context: BrowserContext; close(): Promise<void> } | null = null;

  before(async function () {
    if (!chromiumInstalled()) this.skip();
    api = await startApi('sqlite', { realBaseUrl: true });
    const launched = await launchPhoneBrowser();
    browser = launched;
    context = launched.context;
  });

  after(async () => {
    await browser?.close();
    await api?.close();
  });

  it('opens the link of a received email, confirms, and the next email reminder is SKIPPED', async () => {
    const http = api!.http;
    const t = await api!.newTenant({ organization: `Gimnasio ${Date.now().toString(36)}` });
    const run = async (now: string) => {
      expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now }));
      await api!.app.jobs.scheduleReminders.execute();
      await api!.drainJobs();
    };
    expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-06-01T12:00:00.000Z' }));
    expectOk(await http.put(`/reminder-policies/${t.companyCodes[0]}`).set(t.headers).send({
      enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' },
      steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: 0, channels: ['email'] }],
    }));
    const debt = expectOk(await http.post('/v2/debts').set(t.headers).send({
      amount: 990, dueDate: '2031-06-15', contactData: { externalClientId: 'ana', name: 'Ana López', email: 'ana@example.com' },
    }), 201);
    await run('2031-06-12T15:00:00.000Z');
    const [email] = expectOk<Record<string, any>[]>(await http.get('/test-helpers/messages').query({ debtId: debt.debtId }).set(t.headers));
    expect(email!.unsubscribeUrl).to.be.a('string');

    const problems: string[] = [];
    const page = await context!.newPage();
    page.on('console', (message) => {
      // The browser's own favicon request is a 404 (the pages link none); nothing else may fail.
      if (message.type() === 'error' && !/^Failed to load resource: the server responded with a status of 404/.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(email!.unsubscribeUrl);
    expect(await page.locator('h1').textContent()).to.equal('Cancelar recordatorios');
    expect(await page.locator('main, body').first().textContent()).to.include('por email');
    await page.screenshot({ path: path.join(SHOTS, 'unsubscribe.png'), fullPage: true });
    await Promise.all([page.waitForNavigation(), page.getByRole('button', { name: 'Cancelar suscripción' }).click()]);
    expect(await page.locator('h1').textContent()).to.equal('Suscripción cancelada');
    await page.screenshot({ path: path.join(SHOTS, 'unsubscribe-done.png'), fullPage: true });
    expect(problems, 'console errors, CSP violations or script errors').to.deep.equal([]);

    await run('2031-06-15T15:00:00.000Z');
    const reminders = expectOk<Record<string, any>[]>(await http.get(`/debts/${debt.debtId}/reminders`).set(t.headers));
    expect(reminders.map((r) => [r.offsetDays, r.status, r.failureReason])).to.deep.equal([[-3, 'SENT', null], [0, 'SKIPPED', 'the contact turned email off']]);
  });
});
