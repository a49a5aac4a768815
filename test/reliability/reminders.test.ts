/**
 * Payment reminders under stress (docs/reminders.md, docs/reliability.md), on MySQL: every
 * reminder goes out exactly once or is SKIPPED, counted at the sandbox sender's table, whatever
 * happens around it:
 *
 * - two schedulers (two processes' applications over the same database) racing, several rounds,
 *   while the queue is away: each (debt, step, channel) inserted once, with one send job in the
 *   outbox each;
 * - payments arriving between scheduling and sending: those reminders SKIPPED before they go out;
 * - both processes handing the same outbox entries to their own queues at once (a replayed job):
 *   the claim under the reminder's row lock lets one send, the other finds nothing to do;
 * - a send job replayed after the message went out: still one message per reference.
 */
import { expect } from 'chai';
import crypto from 'node:crypto';
import { jobHandlers } from '../../adapters/queue/job-handlers';
import { bindInProcessJobs, type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../internal/application';
import { mysqlAvailable } from '../support/databases';
import { type ApiHarness, JWT_TEST_SECRET, startApi, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { TEST_SECRETS_KEYS } from '../support/secrets';
import { SwitchableJobQueue } from '../support/switchable-queue';

const DEBTS = 120;
const PAID = 40;

describe('payment reminders: exactly once or SKIPPED [mysql]', function () {
  this.timeout(180_000);
  let api: ApiHarness;
  let other: { infra: Infrastructure; app: Application; queue: SwitchableJobQueue };
  let t: Tenant;

  before(async function () {
    if (!(await mysqlAvailable())) this.skip();
    api = await startApi('mysql');
    // A second process over the same database: its own application, its own in-process queue.
    const infra = await openInfrastructure({
      databaseUrl: api.databaseUrl, redisUrl: null, queuePrefix: `test-${crypto.randomBytes(4).toString('hex')}`, jwtSecret: JWT_TEST_SECRET,
      secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000',
    });
    const queue = new SwitchableJobQueue(infra.ports.queue);
    const app = buildApplication({ ...infra.ports, queue });
    bindInProcessJobs(infra, jobHandlers(app));
    other = { infra, app, queue };
  });

  after(async () => {
    await other?.infra.close();
    await api?.close();
  });

  it('two schedulers racing, payments between scheduling and sending, both processes dispatching: each reminder once or SKIPPED', async () => {
    t = await api.newTenant();
    const http = api.http;
    expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-06-15T14:00:00.000Z' }));
    expectOk(await http.put(`/reminder-policies/${t.companyCodes[0]}`).set(t.headers).send({
      enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: 0, channels: ['email', 'sms'] }],
    }));
    const debts: string[] = [];
    for (let i = 0; i < DEBTS; i += 50) {
      const batch = Array.from({ length: Math.min(50, DEBTS - i) }, (_, j) => ({
        externalRequestId: `rel-${i + j}`, amount: 100, dueDate: '2031-06-15',
        contactData: { externalClientId: `c-${i + j}`, name: `Debtor ${i + j}`, email: `d${i + j}@example.com`, phones: [{ number: `+52 55 1000 ${String(1000 + i + j)}`, type: 'MOBILE' }] },
      }));
      const res = await http.post('/v2/debts').set(t.headers).send({ debts: batch });
      expect(res.status, JSON.stringify(res.body).slice(0, 500)).to.equal(201);
      debts.push(...res.body.data.map((d: { debtId: string }) => d.debtId));
    }

    // The window opens; both schedulers race for three rounds while neither can reach its queue.
    expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-06-15T15:00:00.000Z' }));
    api.queue.down = true;
    other.queue.down = true;
    const runs = [];
    for (let round = 0; round < 3; round++) {
      runs.push(...(await Promise.all([api.app.jobs.scheduleReminders.execute(), other.app.jobs.scheduleReminders.execute()])));
    }
    expect(runs.reduce((sum, r) => sum + r.scheduled, 0), 'each (debt, step, channel) inserted by one scheduler').to.equal(DEBTS * 2);
    const db = api.infra.db!;
    const rows = await db('reminders').where({ company_id: db('companies').where({ code: t.companyCodes[0] }).select('id') });
    expect(rows).to.have.length(DEBTS * 2);
    expect(rows.every((r: { status: string }) => r.status === 'SCHEDULED')).to.equal(true);
    const jobs = await db('job_outbox').where({ job_name: 'reminders.send' }).whereNull('dispatched_at');
    expect(jobs, 'one send job per reminder').to.have.length(DEBTS * 2);

    // Payments arrive between scheduling and sending.
    const paid = debts.slice(0, PAID);
    for (const debtId of paid) expectOk(await http.post(`/test-helpers/debts/${debtId}/pay`).set(t.headers).send({}), 201);

    // The queues come back; both processes hand the same pending entries to their own queue at once.
    api.queue.down = false;
    other.queue.down = false;
    await Promise.all([api.app.jobs.dispatchOutbox.execute(1000), other.app.jobs.dispatchOutbox.execute(1000)]);
    await Promise.all([api.drainJobs(), other.infra.inProcessQueue!.drain()]);
    // A job replayed after its message went out changes nothing.
    for (const r of rows.slice(-10)) await other.app.jobs.sendReminder.execute({ reminderId: Number(r.id) });

    const after = await db('reminders').whereIn('id', rows.map((r: { id: number }) => r.id)).select('id', 'code', 'debt_id', 'status', 'failure_reason');
    const messages = await db('sandbox_messages').whereIn('reference', after.map((r: { code: string }) => `rem_${r.code}`)).select('reference');
    const perReference = new Map<string, number>();
    for (const m of messages) perReference.set(m.reference, (perReference.get(m.reference) ?? 0) + 1);
    expect([...perReference.values()].every((n) => n === 1), 'never twice at the sender').to.equal(true);

    const paidIds = new Set((await db('debts').whereIn('external_request_id', paid.map((d) => d.slice('debt_'.length))).select('id')).map((d: { id: number }) => Number(d.id)));
    const summary = { sent: 0, skipped: 0, other: 0 };
    for (const r of after) {
      const wasPaid = paidIds.has(Number(r.debt_id));
      const delivered = perReference.has(`rem_${r.code}`);
      if (wasPaid) {
        expect([r.status, r.failure_reason, delivered], `reminder ${r.id} of a paid debt`).to.deep.equal(['SKIPPED', 'the debt is PAID', false]);
        summary.skipped++;
      } else if (r.status === 'SENT' && delivered) summary.sent++;
      else summary.other++;
    }
    expect(summary).to.deep.equal({ sent: (DEBTS - PAID) * 2, skipped: PAID * 2, other: 0 });
    expect(messages).to.have.length((DEBTS - PAID) * 2);
  });
});
