import type { Application } from '../../internal/application';
import type { Job, JobHandlers, JobName, SweepJobName } from '../../ports/job-queue';
import type { JobSchedule } from '../../ports/job-consumer';

/** Job name → use case, shared by both JobConsumer adapters (the BullMQ workers and the in-process queue). */
export function jobHandlers(app: Application): JobHandlers {
  return {
    'tenancy.purge-expired-refresh-tokens': () => app.jobs.purgeExpiredRefreshTokens.execute(),
    'debts.mark-overdue': () => app.jobs.markOverdueDebts.execute(),
    'payment-links.mark-expired': () => app.jobs.markExpiredPaymentLinks.execute(),
    'payment-instructions.expire': () => app.jobs.expirePaymentInstructions.execute(),
    'subscriptions.generate-cycles': (data) => app.jobs.generateSubscriptionCycles.execute(data),
    'direct-debit.request-adhesion': (data) => app.jobs.requestAdhesion.execute(data),
    'direct-debit.execute-due': () => app.jobs.executeDueDebits.execute(),
    'subscriptions.mark-ended': () => app.jobs.markEndedSubscriptions.execute(),
    'webhooks.deliver': (data) => app.jobs.deliverWebhook.execute(data),
    'reminders.schedule': () => app.jobs.scheduleReminders.execute(),
    'reminders.send': (data) => app.jobs.sendReminder.execute(data),
  };
}

/**
 * How often every API and worker process hands pending outbox entries to the queue (the
 * dispatch right after a commit covers the normal case; this covers a queue that was away).
 */
export const OUTBOX_DISPATCH_EVERY_MS = 2000;

/** How often the reminder scheduler looks for due steps (indexed reads per enabled policy and step). */
export const REMINDERS_SCHEDULE_EVERY_MS = 3000;

/** Repeating jobs the consumers schedule (`JobConsumer.start(handlers, SCHEDULES)`). */
export const SCHEDULES: readonly JobSchedule[] = [
  { name: 'tenancy.purge-expired-refresh-tokens', everyMs: 60 * 60 * 1000 },
  // Reads apply the overdue rule themselves; this keeps the stored status true within minutes.
  { name: 'debts.mark-overdue', everyMs: 5 * 60 * 1000 },
  { name: 'payment-links.mark-expired', everyMs: 60 * 1000 },
  // Cash vouchers and transfer accounts stop taking money at expiresAt (reads and notifications apply it at once).
  { name: 'payment-instructions.expire', everyMs: 60 * 1000 },
  // Autopay debts are collected on their due date (and right after their adhesion is processed).
  { name: 'direct-debit.execute-due', everyMs: 60 * 1000 },
  // Reads compute ENDED themselves; this persists it and writes subscription.ended once.
  { name: 'subscriptions.mark-ended', everyMs: 5 * 60 * 1000 },
  // Payment reminders: every few seconds, so a step goes out within seconds of its window opening (docs/reminders.md).
  { name: 'reminders.schedule', everyMs: REMINDERS_SCHEDULE_EVERY_MS },
];

/**
 * Runs the handler of a job that came off a queue. The payload is the one its producer typed for
 * that name (JobPayloads): a queue only carries what a producer of that name sent.
 */
export function runJob(handlers: JobHandlers, name: JobName, data: unknown): Promise<unknown> {
  return (handlers[name] as (data: unknown) => Promise<unknown>)(data);
}

/** The job a schedule enqueues: its name, no payload. */
export function sweepJob(name: SweepJobName): Job {
  return { name, data: {} } as Job;
}
