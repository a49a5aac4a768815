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
 * - a send job replayed after the message went out: still one message per reference;
 * - a worker process SIGKILLed while its scheduler's transaction is mid-batch (held on a debt's
 *   row lock): nothing of the batch is kept, and a new worker schedules and sends each once.
 */
import { expect } from 'chai';
import crypto from 'node:crypto';
import { jobHandlers } from '../../adapters/queue/job-handlers';
import { type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../internal/application';
import { mysqlAvailable, redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { waitFor } from '../support/child-process';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';
import { TEST_SECRETS_KEY } from '../support/secrets';
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
    await infra.jobs.consumer.start(jobHandlers(app), []);
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
    await Promise.all([api.drainJobs(), other.infra.jobs.inProcess!.drain()]);
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

  it("two jobs of one reminder at one moment in one process (the claims' group shares a transaction): one sends, the other has nothing to do", async () => {
    const tenant = await api.newTenant();
    const http = api.http;
    expectOk(await http.put('/test-helpers/clock').set(tenant.headers).send({ now: '2031-06-15T15:00:00.000Z' }));
    expectOk(await http.put(`/reminder-policies/${tenant.companyCodes[0]}`).set(tenant.headers).send({
      enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: 0, channels: ['email'] }],
    }));
    const debts = Array.from({ length: 3 }, (_, i) => ({ externalRequestId: `twice-${i}`, amount: 100, dueDate: '2031-06-15', contactData: { externalClientId: `tw-${i}`, name: `Debtor ${i}`, email: `tw${i}@example.com` } }));
    expect((await http.post('/v2/debts').set(tenant.headers).send({ debts })).status).to.equal(201);
    // Scheduled with the queue away: the send jobs stay in the outbox, and the sends run here.
    other.queue.down = true;
    try {
      await other.app.jobs.scheduleReminders.execute();
    } finally {
      other.queue.down = false;
    }
    const db = api.infra.db!;
    const ids: number[] = (await db('reminders').where({ company_id: db('companies').where({ code: tenant.companyCodes[0] }).select('id') }).select('id')).map((r: { id: number }) => Number(r.id));
    expect(ids).to.have.length(3);
    const sent: string[] = [];
    const counting = { ...other.infra.ports.senders, email: { send: async (m: { reference: string }) => (sent.push(m.reference), { providerMessageId: `<${m.reference}@test>` }) } };
    const app = buildApplication({ ...other.infra.ports, queue: other.queue, senders: counting as typeof other.infra.ports.senders });
    // Each reminder's job twice, and all at once: the claims meet in one group.
    const outcomes = await Promise.all([...ids, ...ids].map((id) => app.jobs.sendReminder.execute({ reminderId: id })));
    expect(outcomes.map((o) => o.outcome).sort()).to.deep.equal([...Array(3).fill('NOTHING_TO_DO'), ...Array(3).fill('SENT')]);
    expect(sent.sort()).to.deep.equal([...new Set(sent)].sort());
    expect(sent).to.have.length(3);
    const rows = await db('reminders').whereIn('id', ids).select('status', 'attempts');
    expect(rows.map((r: { status: string; attempts: number }) => [r.status, Number(r.attempts)])).to.deep.equal(Array(3).fill(['SENT', 1]));
  });
});

describe('payment reminders: a worker killed mid-batch [mysql + redis + worker processes]', function () {
  this.timeout(180_000);
  let api: ApiHarness;
  const workers: WorkerProcess[] = [];
  const startWorker = async () => {
    const worker = await startWorkerProcess({ DATABASE_URL: api.databaseUrl, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: api.queuePrefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY });
    workers.push(worker);
    return worker;
  };

  before(async function () {
    if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
    // The API enqueues on Redis; the test starts and kills the worker processes itself.
    api = await startApi('mysql', { redisUrl: TEST_REDIS_URL });
  });

  after(async () => {
    for (const worker of workers.splice(0)) await worker.stop();
    await api?.close();
  });

  it('the scheduler killed inside its transaction keeps nothing; a new worker schedules and sends each reminder once', async () => {
    const t = await api.newTenant();
    const http = api.http;
    const db = api.infra.db!;
    expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-06-15T14:00:00.000Z' }));
    expectOk(await http.put(`/reminder-policies/${t.companyCodes[0]}`).set(t.headers).send({
      enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: 0, channels: ['email'] }],
    }));
    const debts = expectOk<{ debtId: string }[]>(await http.post('/v2/debts').set(t.headers).send({
      debts: Array.from({ length: 20 }, (_, i) => ({
        externalRequestId: `kill-${i}`, amount: 50, dueDate: '2031-06-15', contactData: { externalClientId: `k-${i}`, name: `K ${i}`, email: `k${i}@example.com` },
      })),
    }), 201);
    const ids = (await db('debts').whereIn('external_request_id', debts.map((d) => d.debtId.slice('debt_'.length))).select('id')).map((r: { id: number }) => Number(r.id));
    expect(ids).to.have.length(20);

    // An administrator's transaction locks the 10th debt: the scheduler's insert of its reminder (a foreign key to it) waits there.
    const blocker = await db.transaction();
    await blocker('debts').where({ id: ids[9] }).forUpdate().select('id');
    const first = await startWorker();
    expectOk(await http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-06-15T15:00:00.000Z' }));
    // INNODB_TRX is refreshed only when it has not been read for 0.1 s: polled slower than that.
    // The blocker is rolled back whatever happens (a worker left waiting on it would not stop).
    try {
      await waitFor(async () => {
        const [row] = await db
          .raw(
            "select count(*) as n from information_schema.innodb_trx t join information_schema.processlist p on p.id = t.trx_mysql_thread_id where t.trx_state = 'LOCK WAIT' and p.db = database()",
          )
          .then((r: any) => r[0]);
        return Number(row.n) > 0 ? true : null;
      }, 'the scheduler waiting on the row lock', { timeoutMs: 20_000, everyMs: 150 });
      await first.crash();
    } finally {
      await blocker.rollback();
    }
    const reminders = () => db('reminders').whereIn('debt_id', ids).select('id', 'code', 'status');
    expect(await reminders(), 'the killed batch kept nothing').to.deep.equal([]);

    await startWorker();
    await waitFor(async () => ((await reminders()).filter((r: { status: string }) => r.status === 'SENT').length === 20 ? true : null), 'every reminder SENT', { timeoutMs: 40_000 });
    await new Promise((resolve) => setTimeout(resolve, 4000)); // more scheduler ticks
    const rows = await reminders();
    expect(rows).to.have.length(20);
    const messages = await db('sandbox_messages').whereIn('reference', rows.map((r: { code: string }) => `rem_${r.code}`)).select('reference');
    expect(messages, 'one message per reminder at the sandbox table').to.have.length(20);
    expect(new Set(messages.map((m: { reference: string }) => m.reference)).size).to.equal(20);
  });
});
