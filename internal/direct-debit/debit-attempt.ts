/**
 * One automatic collection of a debt through the direct-debit gateway. It is written PENDING
 * before the gateway is called (with its idempotency key), so a worker that dies mid-call
 * completes the same attempt later instead of charging twice. One attempt per debt.
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
  paymentMethodId: number;
  amountCents: number;
  status: DebitAttemptStatus;
  /** Why the gateway refused it, or why the payment could not be applied. */
  failureCode: string | null;
  createdAt: Date;
  completedAt: Date | null;
}

export const DEBIT_ATTEMPT_ID_PREFIX = 'dda_';
export const DEBIT_ATTEMPT_CODE_LENGTH = 20;

export function debitAttemptIdOf(attempt: Pick<DebitAttempt, 'code'>): string {
  return DEBIT_ATTEMPT_ID_PREFIX + attempt.code;
}
