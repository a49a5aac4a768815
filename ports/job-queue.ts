/** Names of the jobs the workers run; each maps to one handler in adapters/queue/job-handlers.ts. */
export type JobName =
  | 'tenancy.purge-expired-refresh-tokens'
  | 'debts.mark-overdue'
  | 'payment-links.mark-expired'
  | 'payment-instructions.expire'
  | 'subscriptions.generate-cycles'
  | 'direct-debit.request-adhesion'
  | 'direct-debit.execute-due'
  | 'subscriptions.mark-ended'
  | 'webhooks.deliver'
  | 'reminders.schedule'
  | 'reminders.send';

export interface Job {
  name: JobName;
  data: Record<string, unknown>;
  /** Deterministic id: the same id enqueued twice runs once. */
  jobId?: string;
}

export interface JobQueue {
  /** Hands a job to the workers; rejects when the queue cannot accept it (fail fast). */
  enqueue(job: Job): Promise<void>;
}

/** The worker side: what a job does, whichever queue carried it. */
export type JobHandlers = Record<JobName, (data: Record<string, unknown>) => Promise<unknown>>;
