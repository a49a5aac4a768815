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
