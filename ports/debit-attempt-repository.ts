import type { DebitAttempt, DebitAttemptStatus } from '../internal/direct-debit/debit-attempt';

export type NewDebitAttempt = Omit<DebitAttempt, 'id'>;

export interface DebitAttemptRepository {
  /** @throws ConflictError when the debt already has an attempt with that number (no attempt is made twice). */
  insert(attempt: NewDebitAttempt): Promise<DebitAttempt>;
  /** Closes the attempt; `retryOn` schedules its retry (a FAILED one). */
  complete(id: number, status: Exclude<DebitAttemptStatus, 'PENDING'>, failureCode: string | null, at: Date, retryOn?: string | null): Promise<DebitAttempt>;
  /** The retry this attempt scheduled was made (retryOn back to null). */
  clearRetry(id: number): Promise<void>;
  /** A debt's attempts, by attempt number. */
  listByDebt(debtId: number): Promise<DebitAttempt[]>;
  /** The attempt, locked until the transaction ends, if it is still PENDING; else null. */
  lockPending(id: number): Promise<DebitAttempt | null>;
  /** The organization's attempts still PENDING that started before `before`: their worker died mid-call. */
  stalePending(organizationId: number, before: Date, limit: number): Promise<DebitAttempt[]>;
}
