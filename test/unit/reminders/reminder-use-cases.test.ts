import { expect } from 'chai';
import { runAdminCommand } from '../../../adapters/cli/admin-commands';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { MAX_SEND_ATTEMPTS } from '../../../internal/reminders/reminder';
import { SendReminder } from '../../../internal/reminders/jobs/send-reminder';
import { unitOfWork } from '../../../internal/shared/group-commit';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { Job } from '../../../ports/job-queue';
import { type MessageSenders, type OutgoingEmail, PermanentSendFailure } from '../../../ports/message-sender';
import { memoryWorld, type MemoryWorld } from '../../support/memory-world';

/**
 * Reminder use cases over memory adapters: racing schedulers, the send job's retries and
 * failures through a sender that fails on demand, the audit log of policy and template changes,
 * and the operator CLI's `reminders` command.
 */
/** One email step on the due date, 09:00 to 20:00 in Mexico City. */
const EMAIL_ON_DUE_DATE = { enabled: true, timeZone: 'America/Mexico_City', sendWindow: { from: '09:00', to: '20:00' }, steps: [{ offsetDays: 0, channels: ['email' as const] }] };

describe('reminder use cases (memory)', () => {
  let world: MemoryWorld;
  let scope: TenantScope;
  let behaviour: 'ok' | 'transient' | 'permanent';
  let emails: OutgoingEmail[];

  const senders: MessageSenders = {
    email: {
      async send(message) {
        if (behaviour === 'transient') throw new Error('SMTP 421 try again later');
        if (behaviour === 'permanent') throw new PermanentSendFailure('550 mailbox unavailable');
        emails.push(message);
        return { providerMessageId: `<${message.reference}@smtp.example>` };
      },
    },
    sms: { send: async () => ({ providerMessageId: 'SM1' }) },
    whatsapp: { send: async () => ({ providerMessageId: 'SM2' }) },
  };

  beforeEach(async () => {
    behaviour = 'ok';
    emails = [];
    world = memoryWorld(new Date('2031-06-15T15:00:00.000Z'), { ports: { senders } });
    scope = (await world.newTenant({ organization: 'Acme' })).scope;
    await world.app.commands.saveReminderPolicy.execute(EMAIL_ON_DUE_DATE, scope);
  });
  afterEach(() => world.infra.close());

  /** A debt of one contact due on the policy's day. */
  const dueDraft = (externalClientId: string) =>
    ({ debtor: { contactData: { externalClientId, name: 'Ana', email: 'ana@example.com' } }, product: null, amountCents: 10_000, dueDate: '2031-06-15', evaluateAutopay: false }) as DebtDraft;

  /**
   * A world of its own, a tenant on the email policy, whose scheduler's send jobs go to `onSend`
   * instead of its queue (the test runs or counts the sends itself).
   */
  async function sendJobsHeld(organization: string, onSend: (job: Job) => void) {
    const held = memoryWorld(world.clock.now(), {
      ports: { senders },
      wrapQueue: (inner) => ({
        enqueue: async (job) => {
          if (job.name === 'reminders.send') onSend(job);
          else await inner.enqueue(job);
        },
      }),
    });
    const { scope: heldScope } = await held.newTenant({ organization });
    await held.app.commands.saveReminderPolicy.execute(EMAIL_ON_DUE_DATE, heldScope);
    return { held, heldScope };
  }

  const newDebt = async (key: string, overrides: Partial<DebtDraft> = {}) =>
    (await world.app.commands.createDebt.execute({ ...dueDraft(`c-${key}`), ...overrides }, key, scope)).debt;
  const remindersOf = (debtId: number) => world.repos.reminders.listOfDebt(scope.company.id, debtId);
  const drain = () => world.infra.jobs.inProcess!.drain();

  it('two schedulers racing insert each reminder once and the channel gets each message once', async () => {
    const debts = await Promise.all(['a', 'b', 'c'].map((k) => newDebt(k)));
    const runs = await Promise.all([world.app.jobs.scheduleReminders.execute(), world.app.jobs.scheduleReminders.execute()]);
    expect(runs.reduce((sum, r) => sum + r.scheduled, 0)).to.equal(3);
    await drain();
    expect(emails.map((e) => e.reference).sort()).to.have.length(3);
    expect(new Set(emails.map((e) => e.reference)).size).to.equal(3);
    for (const debt of debts) expect((await remindersOf(debt.id)).map((r) => r.status)).to.deep.equal(['SENT']);
    expect(emails[0]).to.include({ to: 'ana@example.com', fromName: 'Acme' });
    expect(emails[0]!.unsubscribeUrl).to.match(/^http:\/\/localhost:3000\/unsubscribe\//);
    expect(emails[0]!.html).to.include('<html>');
  });

  it('a transient failure is retried (SCHEDULED again), and after the last attempt the reminder is FAILED with reminder.failed', async () => {
    const debt = await newDebt('t');
    behaviour = 'transient';
    await world.app.jobs.scheduleReminders.execute();
    await drain(); // the in-process queue's own attempts
    const [after] = await remindersOf(debt.id);
    expect(after).to.deep.include({ status: 'SCHEDULED' });
    expect(after!.attempts).to.be.greaterThan(0).and.below(MAX_SEND_ATTEMPTS);
    for (let i = after!.attempts; i < MAX_SEND_ATTEMPTS; i++) {
      await world.app.jobs.sendReminder.execute({ reminderId: after!.id }).catch(() => undefined);
    }
    const [failed] = await remindersOf(debt.id);
    expect(failed).to.deep.include({ status: 'FAILED', attempts: MAX_SEND_ATTEMPTS, sentAt: null });
    expect(failed!.failureReason).to.match(/^gave up after 5 attempts: SMTP 421/);
    const events = await world.repos.events.list(scope.company.id, { type: 'reminder.failed' } as never, { page: 1, limit: 10 });
    expect(events.items).to.have.length(1);
  });

  it('a permanent failure is FAILED at once with its reason; a lease that ran out hands the reminder to the queue again', async () => {
    const debt = await newDebt('p');
    behaviour = 'permanent';
    await world.app.jobs.scheduleReminders.execute();
    await drain();
    expect(await remindersOf(debt.id)).to.have.length(1);
    expect((await remindersOf(debt.id))[0]).to.deep.include({ status: 'FAILED', failureReason: '550 mailbox unavailable', attempts: 1 });

    const other = await newDebt('q');
    behaviour = 'ok';
    await world.uow.run(async (tx) => {
      // A reminder whose send job was lost (inserted with an outbox entry that never reached a queue).
      await tx.reminders.insertMissing([{
        organizationId: scope.organizationId, companyId: scope.company.id, debtId: other.id, code: 'LOSTJOB000000000000000001', offsetDays: 0, channel: 'email',
        status: 'SCHEDULED', scheduledFor: world.clock.now(), sentAt: null, recipient: null, providerMessageId: null, failureReason: null, attempts: 0,
        leaseUntil: world.clock.now(), createdAt: world.clock.now(), updatedAt: world.clock.now(),
      }]);
    });
    const run = await world.app.jobs.scheduleReminders.execute();
    expect(run.handedAgain).to.equal(1);
    await drain();
    expect((await remindersOf(other.id)).map((r) => r.status)).to.deep.equal(['SENT']);
  });

  it('sends made at one moment share their transactions: six sends claim in one and finish in one, each reminder SENT once', async () => {
    // The send jobs the scheduler hands over are dropped: the sends run here, through a unit of work that counts its transactions.
    const { held, heldScope } = await sendJobsHeld('Held', () => undefined);
    try {
      const draft = dueDraft('c-held');
      const { outcomes: created } = await held.app.commands.createDebtBatch.execute(Array.from({ length: 6 }, (_, i) => ({ externalRequestId: `held-${i}`, draft })), heldScope);
      const debts = created.map((outcome) => outcome.debt!);
      expect((await held.app.jobs.scheduleReminders.execute()).scheduled).to.equal(6);
      const reminders = (await Promise.all(debts.map((debt) => held.repos.reminders.listOfDebt(heldScope.company.id, debt.id)))).flat();
      let transactions = 0;
      const counted = unitOfWork((work) => {
        transactions += 1;
        return held.uow.run(work);
      });
      const send = new SendReminder({ uow: counted, repos: held.repos, clock: held.clock, senders, links: held.infra.ports.reminderLinks });
      const outcomes = await Promise.all(reminders.map((r) => send.execute({ reminderId: r.id })));
      expect(outcomes.map((o) => o.outcome)).to.deep.equal(Array(6).fill('SENT'));
      expect(transactions, 'one for the claims, one for the finishes').to.equal(2);
      expect(new Set(emails.map((e) => e.reference)).size).to.equal(6);
      for (const debt of debts) expect((await held.repos.reminders.listOfDebt(heldScope.company.id, debt.id)).map((r) => r.status)).to.deep.equal(['SENT']);
    } finally {
      await held.infra.close();
    }
  });

  it("hands each chunk's send jobs to the queue as it commits: all 1,050 are there when the run returns (two chunks and a bit)", async () => {
    // The send jobs are recorded, not run: 1,050 sends through the memory adapters take a minute.
    const handed = new Set<string>();
    const { held: bulk, heldScope: bulkScope } = await sendJobsHeld('Bulk', (job) => handed.add(job.jobId!));
    try {
      const draft = dueDraft('c-bulk');
      for (let batch = 0; batch < 21; batch++) {
        await bulk.app.commands.createDebtBatch.execute(Array.from({ length: 50 }, (_, i) => ({ externalRequestId: `bulk-${batch}-${i}`, draft })), bulkScope);
      }
      const run = await bulk.app.jobs.scheduleReminders.execute();
      expect(run.scheduled).to.equal(1_050);
      expect(handed.size, 'every send job in the queue when the run ends').to.equal(1_050);
    } finally {
      await bulk.infra.close();
    }
  });

  it('the audit log keeps policy and template changes, with who made them', async () => {
    await world.app.commands.saveReminderTemplate.execute({ channel: 'sms', locale: 'es-MX', body: 'Paga {{debt.amount}}' }, scope);
    const log = await world.app.queries.readAuditLog.execute({ organization: String(scope.organizationId) });
    const actions = log.records.filter((r) => r.source === 'audit').map((r) => [r.action, r.resourceType, r.resourceId]);
    expect(actions).to.deep.include.members([
      ['reminder_policy.saved', 'reminder_policy', scope.company.code],
      ['reminder_template.saved', 'reminder_template', `${scope.company.code}/sms/es-MX`],
    ]);
  });

  it('admin reminders --company --date shows what is due that local day, and what the scheduler already did', async () => {
    await newDebt('due-1');
    await newDebt('later', { dueDate: '2031-06-20' });
    const before = await runAdminCommand(world.app, ['reminders', '--company', scope.company.code, '--date', '2031-06-15', '--json']);
    const due = JSON.parse(before.stdout);
    expect(before.exitCode, before.stdout).to.equal(0);
    expect(due.reminders).to.deep.equal([
      { debtId: 'debt_due-1', offsetDays: 0, channel: 'email', dueDate: '2031-06-15', sendAt: '2031-06-15T15:00:00.000Z', state: 'DUE', reason: null },
    ]);
    await world.app.jobs.scheduleReminders.execute();
    await drain();
    const after = await runAdminCommand(world.app, ['reminders', '--company', scope.company.code, '--date', '2031-06-15']);
    expect(after.stdout).to.include('debt_due-1').and.include('SENT').and.include('America/Mexico_City');
    const bad = await runAdminCommand(world.app, ['reminders', '--company', scope.company.code, '--date', '2031-13-01', '--json']);
    expect(bad.exitCode).to.equal(1);
    expect(JSON.parse(bad.stdout).error.code).to.equal('INVALID_REQUEST');
    expect((await runAdminCommand(world.app, ['reminders', '--company', 'NOPE', '--date', '2031-06-15', '--json'])).exitCode).to.equal(1);
  });
});
