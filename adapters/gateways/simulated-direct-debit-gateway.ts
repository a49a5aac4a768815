import type { DebitResult, DirectDebitGateway } from '../../ports/direct-debit-gateway';

/** Amounts whose cents are this value are refused in the sandbox (documented in docs/direct-debit.md). */
export const DECLINED_CENTS = 13;

/**
 * The sandbox direct-debit platform: no network, no randomness. Every adhesion is accepted; a
 * debit succeeds unless its amount ends in .13 (refused with INSUFFICIENT_FUNDS), so both
 * outcomes can be exercised through the public API. Answers are remembered by idempotency key,
 * so a repeated call has the effect of one, as with a real platform.
 */
export class SimulatedDirectDebitGateway implements DirectDebitGateway {
  private readonly debits = new Map<string, DebitResult>();
  readonly refunds = new Set<string>();

  async requestAdhesion(_request: { idempotencyKey: string }): Promise<void> {}

  async debit(request: { idempotencyKey: string; amountCents: number }): Promise<DebitResult> {
    let result = this.debits.get(request.idempotencyKey);
    if (!result) {
      result = request.amountCents % 100 === DECLINED_CENTS ? { status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' } : { status: 'SUCCEEDED' };
      this.debits.set(request.idempotencyKey, result);
    }
    return result;
  }

  async refund(request: { idempotencyKey: string }): Promise<void> {
    this.refunds.add(request.idempotencyKey);
  }
}
