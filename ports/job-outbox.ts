import type { Job } from './job-queue';

/** A job as the outbox holds it: with its jobId, and the row's id. */
export type OutboxEntry = Required<Job> & { id: number };

/**
 * Jobs written in the same transaction as the change that needs them. After commit they are
 * handed to the queue; entries still pending are handed again by the dispatcher, with the same
 * jobId, so the queue runs each once.
 *
 * An entry may belong to a group (an adhesion request belongs to its product). A deferred entry
 * is left to its group: the periodic dispatcher skips it and the next dispatch of the group
 * hands it over ("retried when the next debt of that product is created").
 */
export interface JobOutbox {
  add(job: Required<Job>, at: Date, options?: { group?: string }): Promise<void>;
  /** Pending entries that are not deferred, oldest first. */
  pending(limit: number): Promise<OutboxEntry[]>;
  /** Pending entries of the group, deferred or not, oldest first. */
  pendingInGroup(group: string, limit: number): Promise<OutboxEntry[]>;
  /**
   * Marks the entries of these jobIds that are still pending dispatched. One another dispatcher
   * is marking at this moment (its transaction holds it) is left to that one, without waiting for it.
   */
  markDispatched(jobIds: string[], at: Date): Promise<void>;
  /** Defers the entries of these jobIds that are still pending (left to their group's next dispatch). */
  defer(jobIds: string[]): Promise<void>;
}
