import type { DebitAttempt, DebitAttemptStatus } from '../internal/direct-debit/debit-attempt';

export type NewDebitAttempt = Omit<DebitAttempt, 'id'>;

export interface DebitAttemptRepository {
  /** @throws ConflictError when the debt already has an attempt (one automatic debit per debt). */
  insert(attempt: NewDebitAttempt): Promise<DebitAttempt>;
  complete(id: number, status: Exclude<DebitAttemptStatus, 'PENDING'>, failureCode: string | null, at: Date): Promise<DebitAttempt>;
  findByDebt(debtId: number): Promise<DebitAttempt | null>;
  /** The attempt, locked until the transaction ends, if it is still PENDING; else null. */
  lockPending(id: number): Promise<DebitAttempt | null>;
  /** Attempts still PENDING that started before `before`: their worker died mid-call. */
  stalePending(before: Date, limit: number): Promise<DebitAttempt[]>;
}
