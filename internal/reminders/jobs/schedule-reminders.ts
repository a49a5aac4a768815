import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Job } from '../../../ports/job-queue';
import type { NewReminder } from '../../../ports/reminder-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { effectiveStatus } from '../../debts/debt';
import { utcDateOf } from '../../shared/calendar-date';
import type { DispatchOutbox } from '../../shared/jobs/dispatch-outbox';
import { requireDeps } from '../../shared/use-case-deps';
import { organizationClock } from '../../tenancy/organization-clock';
import { ineligibility, type Reminder, REMINDER_CODE_LENGTH } from '../reminder';
import { dueSteps } from '../schedule';

/** Debts read and reminders inserted per transaction. */
export const SCHEDULE_CHUNK = 500;
/** A claimed (SENDING) reminder whose worker has not finished within this (real) time is handed to the queue again. */
export const SEND_LEASE_MS = 2 * 60 * 1000;
/**
 * A SCHEDULED reminder whose send job has not claimed it within this (real) time is handed to the
 * queue again (a job lost with an emptied Redis); long enough that a backlog of send jobs is not
 * handed over twice while it drains.
 */
export const QUEUED_LEASE_MS = 10 * 60 * 1000;

/** The send job of a reminder; the claim count in its id lets a re-handed reminder (lost job) get a new job. */
export function sendJob(reminder: Pick<Reminder, 'id' | 'attempts' | 'leaseUntil'>, handover = 0): Required<Job> {
  const suffix = handover === 0 ? '' : `-r${reminder.attempts}-${reminder.leaseUntil.getTime()}`;
  return { name: 'reminders.send', data: { reminderId: reminder.id }, jobId: `reminders.send-${reminder.id}${suffix}` };
}

/**
 * Scheduled job (every few seconds on the workers; docs/reminders.md). For each enabled policy,
 * on its organization's clock (the sandbox clock included) and in its time zone: inside the send
 * window, each step due today (or missed yesterday) reads the company's payable debts due on
 * that step's date that lack the step's reminder (an index range per step, never a scan of the
 * company's debts), inserts the missing reminders (the unique key (debt, offsetDays, channel)
 * decides between two schedulers) and, in the same transaction, one send job per inserted
 * reminder into the outbox. After each chunk's commit it hands that chunk's jobs to the queue
 * (the process's dispatcher, one round trip a chunk), so the workers start sending while the
 * next chunk is read; a job the queue refuses stays in the outbox for the periodic dispatch. A
 * second run finds nothing new; a run killed midway leaves whole chunks (each reminder with its
 * job) or nothing.
 *
 * It also hands again the reminders whose send job went missing (Redis lost it, a worker died
 * holding the claim): SCHEDULED or SENDING reminders whose lease (real time) ran out.
 */
export class ScheduleReminders {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; ids: IdGenerator; dispatchOutbox: DispatchOutbox }) {
    requireDeps('ScheduleReminders', deps);
  }

  async execute(): Promise<{ scheduled: number; skipped: number; handedAgain: number }> {
    let scheduled = 0;
    let skipped = 0;
    const { repos, uow } = this.deps;
    const organizations = new Map<number, Awaited<ReturnType<Repositories['tenancy']['findOrganization']>>>();
    for (const policy of await repos.reminders.listEnabledPolicies()) {
      if (!organizations.has(policy.organizationId)) organizations.set(policy.organizationId, await repos.tenancy.findOrganization(policy.organizationId));
      const organization = organizations.get(policy.organizationId);
      if (!organization) continue;
      const now = organizationClock(this.deps.clock, organization).now();
      const today = utcDateOf(now);
      for (const step of dueSteps(policy, now)) {
        // Autopay debts never get a step up to the due date: the range leaves them out.
        const excludeAutopay = step.offsetDays <= 0;
        for (let afterId = 0; ;) {
          const result = await uow.run(async ({ reminders, outbox }) => {
            const candidates = await reminders.candidates(policy.companyId, step.dueDate, step.offsetDays, step.channels, SCHEDULE_CHUNK, { afterId, excludeAutopay });
            const rows: NewReminder[] = [];
            let ineligible = 0;
            for (const debt of candidates) {
              if (ineligibility({ status: effectiveStatus(debt, today), autopay: debt.autopay }, step.offsetDays) !== null) {
                ineligible++;
                continue;
              }
              for (const channel of step.channels) rows.push(this.newReminder(policy, debt.id, step.offsetDays, channel, step.scheduledFor, now));
            }
            const inserted = await reminders.insertMissing(rows);
            const at = this.deps.clock.now();
            const jobs = inserted.map((reminder) => sendJob(reminder));
            for (const job of jobs) await outbox.add(job, at);
            return { read: candidates.length, lastId: candidates.at(-1)?.id ?? afterId, jobs, ineligible };
          });
          await this.handOver(result.jobs);
          scheduled += result.jobs.length;
          skipped += result.ineligible;
          // Ineligible debts stay candidates (one may become eligible: overdue later today); the cursor passes them.
          if (result.read < SCHEDULE_CHUNK) break;
          afterId = result.lastId;
        }
      }
    }
    const handedAgain = await this.handAgain();
    return { scheduled, skipped, handedAgain };
  }

  /** Jobs whose outbox entries just committed, to the queue at once; one the queue refuses waits in the outbox for the periodic dispatch. */
  private async handOver(jobs: Required<Job>[]): Promise<void> {
    await Promise.all(jobs.map((job) => this.deps.dispatchOutbox.afterCommit(job).catch(() => undefined)));
  }

  private newReminder(policy: { organizationId: number; companyId: number }, debtId: number, offsetDays: number, channel: NewReminder['channel'], scheduledFor: Date, now: Date): NewReminder {
    const real = this.deps.clock.now();
    return {
      organizationId: policy.organizationId,
      companyId: policy.companyId,
      debtId,
      code: this.deps.ids.alphanumeric(REMINDER_CODE_LENGTH),
      offsetDays,
      channel,
      status: 'SCHEDULED',
      // The start of the step day's window (a debt or policy that appears later in the window is sent at once, scheduledFor still says when the rule put it).
      scheduledFor,
      sentAt: null,
      recipient: null,
      providerMessageId: null,
      failureReason: null,
      attempts: 0,
      leaseUntil: new Date(real.getTime() + QUEUED_LEASE_MS),
      createdAt: now,
      updatedAt: now,
    };
  }

  /** Reminders whose lease ran out get a new send job (through the outbox), and a new lease. */
  private async handAgain(): Promise<number> {
    const real = this.deps.clock.now();
    const jobs = await this.deps.uow.run(async ({ reminders, outbox }) => {
      const stale = await reminders.listStale(real, SCHEDULE_CHUNK);
      const handed: Required<Job>[] = [];
      for (const reminder of stale) {
        const job = sendJob(reminder, 1);
        await outbox.add(job, real);
        await reminders.update(reminder, { leaseUntil: new Date(real.getTime() + QUEUED_LEASE_MS), updatedAt: reminder.updatedAt });
        handed.push(job);
      }
      return handed;
    });
    await this.handOver(jobs);
    return jobs.length;
  }
}
