/**
 * Payment reminders driven by the sandbox clock in real processes (docs/reminders.md): the
 * embedded default (`npm start` on SQLite, jobs in-process on timers) and MySQL + Redis with a
 * separate worker process (its BullMQ job scheduler). Moving the clock to a step's send time makes
 * the reminder go out within a few seconds, once.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { startFakeTwilio } from '../support/fake-twilio';
import { killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { mysqlAvailable, redisAvailable } from '../support/databases';
import { type ApiHarness, startApi } from '../support/harness';

type Body = Record<string, any>;
const POLICY = { enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: -1, channels: ['email', 'sms'] }] };
const DEBT = {
  amount: 250, dueDate: '2031-06-16',
  contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com', phones: [{ number: '+52 55 1234 5678', type: 'MOBILE' }] },
};
// 09:00 in Mexico City on 2031-06-15, the day before the due date.
const SEND_TIME = '2031-06-15T15:00:00.000Z';

async function call(base: string, method: string, route: string, headers: Record<string, string>, body?: unknown): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${base}${route}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: body === undefined ? undefined : JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as Body };
}

/** Sets the policy, creates the debt, moves the clock to the send time; returns how long until both messages were there, and the messages 4 s later. */
async function clockMoveSends(base: string, headers: Record<string, string>, companyCode: string): Promise<{ ms: number; messages: Body[]; reminders: Body[] }> {
  const ok = (res: { status: number; body: Body }, status = 200) => {
    expect(res.status, JSON.stringify(res.body)).to.equal(status);
    return res.body.data;
  };
  ok(await call(base, 'PUT', '/test-helpers/clock', headers, { now: '2031-06-14T12:00:00.000Z' }));
  ok(await call(base, 'PUT', `/reminder-policies/${companyCode}`, headers, POLICY));
  const debt = ok(await call(base, 'POST', '/v2/debts', headers, DEBT), 201);
  const messages = async () => ok(await call(base, 'GET', `/test-helpers/messages?debtId=${debt.debtId}`, headers)) as Body[];
  expect(await messages(), 'before the send time').to.deep.equal([]);
  ok(await call(base, 'PUT', '/test-helpers/clock', headers, { now: SEND_TIME }));
  const started = Date.now();
  await waitFor(async () => ((await messages()).length >= 2 ? true : null), 'both messages', { timeoutMs: 15_000 });
  const ms = Date.now() - started;
  await new Promise((resolve) => setTimeout(resolve, 4000)); // more scheduler ticks
  const reminders = ok(await call(base, 'GET', `/debts/${debt.debtId}/reminders`, headers)) as Body[];
  return { ms, messages: await messages(), reminders };
}

describe('payment reminders in real processes', function () {
  this.timeout(90_000);

  describe('embedded default [sqlite, npm start, in-process jobs]', () => {
    let dir = '';
    let proc: Proc | null = null;
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-reminders-'));
    });
    after(() => {
      if (proc) killIfAlive(proc);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('sends the step within seconds of the clock reaching its send time, once per channel', async () => {
      proc = startProcess('cmd/api/main.ts', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, DATA_DIR: dir });
      const listening = await waitFor(() => proc!.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc, timeoutMs: 20_000 });
      const output = await waitFor(() => (proc!.output().includes('companyCode') ? proc!.output() : null), 'the demo banner', { proc, timeoutMs: 20_000 });
      const value = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(output)![1]!;
      const base = `http://127.0.0.1:${listening.port}`;
      const login = await call(base, 'POST', '/auth/login', { 'x-api-key': value('loginApiKey') }, { clientUsername: value('clientUsername'), password: value('password') });
      expect(login.status).to.equal(200);
      const headers = { 'x-api-key': value('apiKey'), 'x-authorization-token': login.body.accessToken as string };
      const { ms, messages, reminders } = await clockMoveSends(base, headers, value('companyCode').replace(/,$/, ''));
      expect(ms, 'within a few seconds').to.be.below(10_000);
      expect(messages.map((m) => m.channel)).to.have.members(['email', 'sms']);
      expect(reminders.map((r) => [r.channel, r.status, r.scheduledFor])).to.have.deep.members([['email', 'SENT', SEND_TIME], ['sms', 'SENT', SEND_TIME]]);
    });
  });

  describe('embedded default with the real channels [SMTP server and a Twilio stand-in run by the test]', () => {
    const ACCOUNT = `AC${'1'.repeat(32)}`;
    const TOKEN = 'twilio-auth-token-of-the-test';
    let dir = '';
    let proc: Proc | null = null;
    let smtp: SMTPServer | null = null;
    const received: { from: string; to: string; subject: string; unsubscribe: string; unsubscribePost: string; text: string; html: string }[] = [];
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-reminders-channels-'));
    });
    after(async () => {
      if (proc) killIfAlive(proc);
      await new Promise<void>((resolve) => (smtp ? smtp.close(() => resolve()) : resolve()));
      fs.rmSync(dir, { recursive: true, force: true });
    });

    it('sends the email over SMTP (with the one-click unsubscribe) and the SMS through Twilio, once each, and nothing to the sandbox', async () => {
      smtp = new SMTPServer({
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, _session, callback) {
          simpleParser(stream).then((mail) => {
            received.push({
              from: mail.from?.text ?? '', to: Array.isArray(mail.to) ? '' : (mail.to?.text ?? ''), subject: mail.subject ?? '',
              unsubscribe: mail.headerLines.find((h) => h.key === 'list-unsubscribe')?.line ?? '',
              unsubscribePost: mail.headerLines.find((h) => h.key === 'list-unsubscribe-post')?.line.replace(/^[^:]+:\s*/, '') ?? '', text: mail.text ?? '', html: String(mail.html || ''),
            });
            callback();
          }, callback);
        },
      });
      await new Promise<void>((resolve) => smtp!.listen(0, '127.0.0.1', resolve));
      const smtpPort = (smtp.server.address() as { port: number }).port;
      const twilio = await startFakeTwilio(ACCOUNT, TOKEN);
      try {
        proc = startProcess('cmd/api/main.ts', {
          PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, DATA_DIR: dir,
          SMTP_URL: `smtp://127.0.0.1:${smtpPort}`, REMINDERS_FROM_EMAIL: 'cobranza@example.com',
          SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: ACCOUNT, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15005550006', TWILIO_API_BASE_URL: twilio.baseUrl,
        });
        const listening = await waitFor(() => proc!.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc, timeoutMs: 20_000 });
        const output = await waitFor(() => (proc!.output().includes('companyCode') ? proc!.output() : null), 'the demo banner', { proc, timeoutMs: 20_000 });
        const value = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(output)![1]!;
        const base = `http://127.0.0.1:${listening.port}`;
        const login = await call(base, 'POST', '/auth/login', { 'x-api-key': value('loginApiKey') }, { clientUsername: value('clientUsername'), password: value('password') });
        const headers = { 'x-api-key': value('apiKey'), 'x-authorization-token': login.body.accessToken as string };
        const companyCode = value('companyCode').replace(/,$/, '');
        const ok = (res: { status: number; body: Body }, status = 200) => {
          expect(res.status, JSON.stringify(res.body)).to.equal(status);
          return res.body.data;
        };
        ok(await call(base, 'PUT', '/test-helpers/clock', headers, { now: '2031-06-14T12:00:00.000Z' }));
        ok(await call(base, 'PUT', `/reminder-policies/${companyCode}`, headers, POLICY));
        const debt = ok(await call(base, 'POST', '/v2/debts', headers, DEBT), 201);
        ok(await call(base, 'PUT', '/test-helpers/clock', headers, { now: SEND_TIME }));
        const reminders = async () => ok(await call(base, 'GET', `/debts/${debt.debtId}/reminders`, headers)) as Body[];
        await waitFor(async () => ((await reminders()).filter((r) => r.status === 'SENT').length === 2 ? true : null), 'both reminders SENT', { timeoutMs: 15_000 });
        await new Promise((resolve) => setTimeout(resolve, 4000)); // more scheduler ticks: nothing twice
        const sent = await reminders();
        expect(received, 'emails at the SMTP server').to.have.length(1);
        const [email] = received;
        expect(email!.to).to.equal('ana@example.com');
        expect(email!.from).to.contain('cobranza@example.com');
        expect(email!.unsubscribe).to.match(/^List-Unsubscribe: <http:\/\/[^>]+\/unsubscribe\/[^>]+>$/i);
        expect(email!.unsubscribePost).to.equal('List-Unsubscribe=One-Click');
        expect(email!.text).to.contain(debt.paymentUrl);
        expect(twilio.requests, 'SMS at the Twilio stand-in').to.have.length(1);
        expect(twilio.requests[0]!.problems).to.deep.equal([]);
        expect(twilio.requests[0]!.form.get('To')).to.equal('+525512345678');
        expect(twilio.requests[0]!.form.get('Body')).to.contain(debt.paymentUrl);
        const bySid = sent.find((r) => r.channel === 'sms')!;
        expect(bySid.providerMessageId).to.equal(twilio.sids[0]);
        expect(sent.find((r) => r.channel === 'email')!.providerMessageId).to.be.a('string').and.not.empty;
        expect(ok(await call(base, 'GET', `/test-helpers/messages?debtId=${debt.debtId}`, headers)), 'the sandbox sender').to.deep.equal([]);
        expect(proc.output(), 'the Twilio token in the logs').to.not.contain(TOKEN);
      } finally {
        await twilio.close();
      }
    });
  });

  describe('MySQL + Redis + worker process', () => {
    let api: ApiHarness | null = null;
    before(async function () {
      this.timeout(120_000);
      if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
      api = await startApi('mysql', { worker: true, realBaseUrl: true });
    });
    after(async () => {
      await api?.close();
    });

    it('the worker process sends the step within seconds of the clock reaching its send time, once per channel', async () => {
      const t = await api!.newTenant();
      const { ms, messages, reminders } = await clockMoveSends(api!.baseUrl, t.headers, t.companyCodes[0]!);
      expect(ms, 'within a few seconds').to.be.below(10_000);
      expect(messages.map((m) => m.channel)).to.have.members(['email', 'sms']);
      expect(reminders.map((r) => [r.channel, r.status])).to.have.deep.members([['email', 'SENT'], ['sms', 'SENT']]);
      const counted = await api!.infra.db!('sandbox_messages').whereIn('reference', reminders.map((r) => r.reminderId)).count({ n: '*' });
      expect(Number(counted[0]!.n), 'counted at the sandbox table').to.equal(2);
    });
  });
});
