import type { Debt } from '../debts/debt';
import { addDaysToDate } from '../shared/calendar-date';
import type { DebitAttempt } from './debit-attempt';

/**
 * Failure codes of a debit attempt. The platform's refusals: INSUFFICIENT_FUNDS (the account
 * may be funded later: retried) and ACCOUNT_CLOSED (final; the payment method becomes
 * INACTIVE). The service's own, for attempts it does not send: DEBT_NOT_PAYABLE (the debt
 * cannot take the payment: paid or cancelled meanwhile, past due without overdue payment, an
 * earlier subscription cycle unpaid) and PAYMENT_METHOD_INACTIVE (the instrument was closed).
 * Any other code a platform may answer is final: an unknown refusal is never repeated.
 */
export const DEBIT_FAILURE_CODES = ['INSUFFICIENT_FUNDS', 'ACCOUNT_CLOSED', 'DEBT_NOT_PAYABLE', 'PAYMENT_METHOD_INACTIVE'] as const;
export type DebitFailureCode = (typeof DEBIT_FAILURE_CODES)[number];

/** Refusals a later attempt may overcome. */
export const RETRYABLE_FAILURES: readonly string[] = ['INSUFFICIENT_FUNDS'];
/** Refusals that end the payment method itself: it becomes INACTIVE and stops being the default. */
export const METHOD_ENDING_FAILURES: readonly string[] = ['ACCOUNT_CLOSED'];

/**
 * The dunning schedule: after a retryable refusal of attempt n, attempt n+1 is due this many
 * UTC days after the refusal (so, on time, retries fall 1, 3 and 7 days after the first one);
 * a refusal of the last attempt is final.
 */
export const RETRY_DELAYS_DAYS: readonly number[] = [1, 2, 4];
export const MAX_DEBIT_ATTEMPTS = RETRY_DELAYS_DAYS.length + 1;

/**
 * When a refused attempt is retried: the UTC date of its retry, or null when the refusal is
 * final (not retryable, the schedule is over, or the debt will not take a payment by then
 * because it does not allow overdue payment).
 */
export function retryDate(
  attempt: Pick<DebitAttempt, 'attemptNumber'>,
  failureCode: string,
  refusedOn: string,
  debt: Pick<Debt, 'dueDate' | 'allowOverduePayment'>,
): string | null {
  if (!RETRYABLE_FAILURES.includes(failureCode)) return null;
  const delay = RETRY_DELAYS_DAYS[attempt.attemptNumber - 1];
  if (delay === undefined) return null;
  const on = addDaysToDate(refusedOn, delay);
  return !debt.allowOverduePayment && on > debt.dueDate ? null : on;
}

/**
 * The number of the attempt a debt is due for today, given its latest attempt: 1 when it has
 * none, n+1 when attempt n was refused with a retry due by today, else null (one is PENDING, it
 * succeeded, its refusal was final, or its retry is not due yet).
 */
export function dueAttemptNumber(latest: Pick<DebitAttempt, 'attemptNumber' | 'status' | 'retryOn'> | null, today: string): number | null {
  if (!latest) return 1;
  if (latest.status === 'FAILED' && latest.retryOn !== null && latest.retryOn <= today) return latest.attemptNumber + 1;
  return null;
}
