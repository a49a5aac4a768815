import type { PaymentMethod } from '../internal/debts/debt';
import type { CardDetails } from '../internal/portal/card';

/** One charge from the hosted payment portal. */
export interface ChargeRequest {
  /** The portal submission: the same key always gets the same answer and charges at most once. */
  idempotencyKey: string;
  amountCents: number;
  currency: string;
  method: PaymentMethod;
  /** Present for CARD. */
  card?: CardDetails;
  /** What the payer sees on the statement. */
  description: string;
}

export type ChargeResult = { status: 'APPROVED'; reference: string } | { status: 'DECLINED'; reason: string };

export type TokenizeResult = { status: 'TOKENIZED'; token: string; brand: string; last4: string } | { status: 'DECLINED'; reason: string };

/**
 * The card and transfer processor behind the hosted portal (and the card tokenization of the
 * enrollment page). A refusal is an answer, not an error.
 */
export interface PaymentProcessor {
  /**
   * The same key answers the same (and charges once), except that a key whose charge was
   * refunded answers DECLINED with reason REFUNDED: a refunded submission never pays again.
   * @throws Error on a transient failure (nothing was charged, or the same key completes it later).
   */
  charge(request: ChargeRequest): Promise<ChargeResult>;
  /** Gives back an approved charge that could not be applied (the debt changed meanwhile). */
  refund(request: { idempotencyKey: string; reference: string; amountCents: number; currency: string }): Promise<void>;
  /** Exchanges a card for the processor's token (the card itself is never kept). */
  tokenizeCard(card: CardDetails): Promise<TokenizeResult>;
}
