import type { Job } from './job-queue';

export interface OutboxEntry extends Required<Job> {
  id: number;
}

/**
 * Jobs written in the same transaction as the change that needs them. After commit they are
 * handed to the queue; entries still pending are handed again by the dispatcher, with the same
 * jobId, so the queue runs each once.
 */
export interface JobOutbox {
  add(job: Required<Job>, at: Date): Promise<void>;
  pending(limit: number): Promise<OutboxEntry[]>;
  markDispatched(ids: number[], at: Date): Promise<void>;
}
