/**
 * The direct-debit platform behind the service: it receives adhesion requests and executes
 * debits against a user's bank account reference. Every call carries an idempotency key, so a
 * call repeated after a crash has the effect of one.
 */
export interface DirectDebitGateway {
  /**
   * Enrolls the user in the product on the platform.
   * @throws Error on a transient failure (the job is retried).
   */
  requestAdhesion(request: { idempotencyKey: string; companyCode: string; externalClientId: string; productId: string; paymentMethodId: string }): Promise<void>;
  /**
   * Collects `amountCents` from the payment method. A refusal is an answer, not an error.
   * @throws Error on a transient failure (the attempt stays PENDING and is completed later with the same key).
   */
  debit(request: DebitRequest): Promise<DebitResult>;
  /** Gives back a collected debit that could not be applied to its debt. */
  refund(request: { idempotencyKey: string; amountCents: number; currency: string }): Promise<void>;
}

export interface DebitRequest {
  /** The attempt's public id: one per attempt, the same when a crashed attempt is completed. */
  idempotencyKey: string;
  paymentMethodId: string;
  amountCents: number;
  currency: string;
  /** What the debit is for, as the platform shows it for reconciliation: the debt and which attempt. */
  debtId: string;
  attemptNumber: number;
}

/** `failureCode`: INSUFFICIENT_FUNDS, ACCOUNT_CLOSED, or another refusal of the platform (see internal/direct-debit/dunning.ts). */
export type DebitResult = { status: 'SUCCEEDED' } | { status: 'FAILED'; failureCode: string };
