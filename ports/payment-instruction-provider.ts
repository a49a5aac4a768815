import type { CashDetails, InstructionMethod, TransferDetails } from '../internal/payment-instructions/payment-instruction';
import type { Currency } from '../internal/shared/currency';

export interface IssueInstructionRequest {
  method: InstructionMethod;
  amountCents: number;
  currency: Currency;
  /** Whom the money is for, as the debtor's bank shows it. */
  beneficiary: string;
  expiresAt: Date;
}

/** What the provider issued: the account or voucher, and the reference its notifications will name. */
export type IssuedInstruction =
  | { method: 'TRANSFER'; providerReference: string; reference: string; transfer: TransferDetails }
  | { method: 'CASH'; providerReference: string; reference: string; cash: CashDetails };

/** Money the provider says arrived for one of its instructions. */
export interface ReceivedMoney {
  /** The provider's id of the movement: the same transaction notified twice is one. */
  transactionId: string;
  /** The instruction it names (the account or the barcode the provider issued). */
  providerReference: string;
  amountCents: number;
  currency: Currency;
  receivedAt: Date;
}

/** A notification as it travels: its headers (the signature) and its exact body. */
export interface SignedNotification {
  headers: Record<string, string>;
  body: string;
}

/**
 * The provider of payment instructions (an SPEI/CVU/CCI account issuer, a cash network
 * aggregator): it issues an account or a voucher per instruction, notifies the money that
 * arrives, and refunds money kept unapplied. Calls are made outside any transaction.
 */
export interface PaymentInstructionProvider {
  /** What `POST /provider-notifications/{provider}` names it (`sandbox`). */
  readonly name: string;
  /**
   * A unique account (or voucher) for one instruction.
   * @throws Error on a transient failure (nothing was issued, or an unused account is).
   */
  issue(request: IssueInstructionRequest): Promise<IssuedInstruction>;
  /**
   * Checks a notification's signature over its exact body and its timestamp (a replay window),
   * then reads it. `now` is real time.
   * @throws AuthenticationFailedError when unsigned, wrongly signed or outside the window.
   * @throws InvalidRequestError when signed but not a notification this service understands.
   */
  verifyNotification(notification: { headers: Record<string, string | undefined>; body: string }, now: Date): ReceivedMoney;
  /**
   * Sends money back to whoever paid it (idempotent by key).
   * @throws Error on a transient failure (nothing was refunded, or the same key completes it).
   */
  refund(request: { idempotencyKey: string; transactionId: string; amountCents: number; currency: string }): Promise<{ reference: string }>;
  /**
   * Sandbox providers only: the notification the provider would send for money received on one
   * of its instructions (a new transaction), and how it signs a delivery of it.
   */
  sandbox?: {
    notificationFor(money: Omit<ReceivedMoney, 'transactionId'>): { transactionId: string; body: string };
    sign(body: string, now: Date): Record<string, string>;
  };
}
