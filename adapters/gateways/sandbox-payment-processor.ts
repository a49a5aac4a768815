import crypto from 'node:crypto';
import type { CardDetails } from '../../internal/portal/card';
import type { ChargeRequest, ChargeResult, PaymentProcessor, TokenizeResult } from '../../ports/payment-processor';

/** Card numbers with a fixed answer in the sandbox (docs/hosted-pages.md lists them). */
export const SANDBOX_CARDS = {
  approved: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
  unavailable: '4000000000000119',
} as const;

/**
 * The sandbox processor: no money moves. Cards answer by number (above; any other valid number
 * is approved); transfers and wallets are approved at once unless the amount ends in .13
 * (refused with TRANSFER_REJECTED). Answers are kept per idempotency key, so a repeated charge
 * answers the same and charges once; a refunded one answers DECLINED (REFUNDED) from then on.
 * The keys live in this process: enough for a sandbox.
 */
export class SandboxPaymentProcessor implements PaymentProcessor {
  private readonly charges = new Map<string, ChargeResult>();
  readonly refunds = new Map<string, { reference: string; amountCents: number }>();

  async charge(request: ChargeRequest): Promise<ChargeResult> {
    const known = this.charges.get(request.idempotencyKey);
    if (known) return known;
    const result = this.decide(request);
    this.charges.set(request.idempotencyKey, result);
    return result;
  }

  async refund(request: { idempotencyKey: string; reference: string; amountCents: number }): Promise<void> {
    this.refunds.set(request.idempotencyKey, { reference: request.reference, amountCents: request.amountCents });
    for (const [key, result] of this.charges) {
      if (result.status === 'APPROVED' && result.reference === request.reference) this.charges.set(key, { status: 'DECLINED', reason: 'REFUNDED' });
    }
  }

  async tokenizeCard(card: CardDetails): Promise<TokenizeResult> {
    const refusal = cardRefusal(card.number);
    if (refusal) return { status: 'DECLINED', reason: refusal };
    return { status: 'TOKENIZED', token: `tok_sandbox_${crypto.randomBytes(12).toString('hex')}`, brand: brandOf(card.number), last4: card.number.slice(-4) };
  }

  private decide(request: ChargeRequest): ChargeResult {
    if (request.method === 'CARD') {
      const refusal = cardRefusal(request.card?.number ?? '');
      if (refusal) return { status: 'DECLINED', reason: refusal };
    } else if (request.amountCents % 100 === 13) {
      return { status: 'DECLINED', reason: 'TRANSFER_REJECTED' };
    }
    return { status: 'APPROVED', reference: `sbx_${crypto.randomBytes(10).toString('hex')}` };
  }
}

function cardRefusal(number: string): string | null {
  if (number === SANDBOX_CARDS.unavailable) throw new Error('sandbox processor unavailable (the sandbox card that simulates an outage)');
  if (number === SANDBOX_CARDS.declined) return 'CARD_DECLINED';
  if (number === SANDBOX_CARDS.insufficientFunds) return 'INSUFFICIENT_FUNDS';
  return null;
}

/** By the leading digits, as card networks assign them. */
export function brandOf(number: string): string {
  if (/^4/.test(number)) return 'VISA';
  if (/^(5[1-5]|2[2-7])/.test(number)) return 'MASTERCARD';
  if (/^3[47]/.test(number)) return 'AMEX';
  return 'CARD';
}
