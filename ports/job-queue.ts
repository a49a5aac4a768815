import type { AdhesionRequest } from '../internal/direct-debit/adhesion-request';

/** The payload of a job that needs nothing but its name (the scheduled sweeps). */
export type NoData = Record<string, never>;

/**
 * Every job the workers run, with the payload its producer sends and its handler receives: one
 * map shared by both sides (a producer cannot send, nor a handler expect, a field the other does
 * not know). Each name maps to one handler in adapters/queue/job-handlers.ts.
 */
export interface JobPayloads {
  'tenancy.purge-expired-refresh-tokens': NoData;
  'debts.mark-overdue': NoData;
  'payment-links.mark-expired': NoData;
  'payment-instructions.expire': NoData;
  /** `resume`: 0 for the first generation, n after the n-th resume (from `fromDate`). */
  'subscriptions.generate-cycles': { subscriptionId: number; resume?: number; fromDate?: string | null };
  'direct-debit.request-adhesion': AdhesionRequest;
  'direct-debit.execute-due': NoData;
  'subscriptions.mark-ended': NoData;
  'webhooks.deliver': { deliveryId: number; leaseToken: string };
  'reminders.schedule': NoData;
  'reminders.send': { reminderId: number };
}

export type JobName = keyof JobPayloads;

/** A job of one name (or, unparameterized, of any name) with that name's payload. */
export type Job<N extends JobName = JobName> = {
  [K in N]: {
    name: K;
    data: JobPayloads[K];
    /** Deterministic id: the same id enqueued twice runs once. */
    jobId?: string;
  };
}[N];

export interface JobQueue {
  /** Hands a job to the workers; rejects when the queue cannot accept it (fail fast). */
  enqueue(job: Job): Promise<void>;
}

/** The worker side: what a job does, whichever queue carried it. */
export type JobHandlers = { [N in JobName]: (data: JobPayloads[N]) => Promise<unknown> };

/** The jobs that carry no payload: the repeating sweeps the workers schedule. */
export type SweepJobName = { [N in JobName]: JobPayloads[N] extends NoData ? N : never }[JobName];
