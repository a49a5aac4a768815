/**
 * One automatic collection of a debt through the direct-debit gateway. A debt gets attempt 1 on
 * its due date and, after a retryable refusal, numbered retries on the dunning schedule
 * (dunning.ts); (debt, attemptNumber) is unique, so no attempt is ever made twice. An attempt is
 * written PENDING before the gateway is called with its own idempotency key, so a worker that
 * dies mid-call completes the same attempt later instead of charging twice.
 */
export const DEBIT_ATTEMPT_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED'] as const;
export type DebitAttemptStatus = (typeof DEBIT_ATTEMPT_STATUSES)[number];

export interface DebitAttempt {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `dda_` prefix; also the gateway idempotency key. */
  code: string;
  debtId: number;
  /** 1 for the debit on the due date, 2.. for its retries. */
  attemptNumber: number;
  paymentMethodId: number;
  amountCents: number;
  status: DebitAttemptStatus;
  /** Why the gateway refused it, or why the service did not send it (see DEBIT_FAILURE_CODES). */
  failureCode: string | null;
  /** A FAILED attempt whose retry is scheduled: the UTC date it is due; null once it was made, or when none follows. */
  retryOn: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export const DEBIT_ATTEMPT_ID_PREFIX = 'dda_';
export const DEBIT_ATTEMPT_CODE_LENGTH = 20;

export function debitAttemptIdOf(attempt: Pick<DebitAttempt, 'code'>): string {
  return DEBIT_ATTEMPT_ID_PREFIX + attempt.code;
}
