import type { DebitRequest, DebitResult, DirectDebitGateway } from '../../ports/direct-debit-gateway';

/** What the sandbox platform answers to a debit: success, or a refusal code. */
export type SimulatedDebitOutcome = 'SUCCEEDED' | 'INSUFFICIENT_FUNDS' | 'ACCOUNT_CLOSED' | (string & {});

/**
 * The sandbox's magic amounts (documented in docs/direct-debit.md), decided by the cents of the
 * amount debited, so every outcome can be driven through the public API:
 * .13 refused INSUFFICIENT_FUNDS on every attempt; .14 refused INSUFFICIENT_FUNDS on attempt 1,
 * collected on a retry; .15 refused ACCOUNT_CLOSED; anything else collected.
 */
export const MAGIC_CENTS = { insufficientFunds: 13, insufficientFundsOnce: 14, accountClosed: 15 } as const;

export function magicAmountOutcome(request: Pick<DebitRequest, 'amountCents' | 'attemptNumber'>): SimulatedDebitOutcome {
  switch (request.amountCents % 100) {
    case MAGIC_CENTS.insufficientFunds:
      return 'INSUFFICIENT_FUNDS';
    case MAGIC_CENTS.insufficientFundsOnce:
      return request.attemptNumber === 1 ? 'INSUFFICIENT_FUNDS' : 'SUCCEEDED';
    case MAGIC_CENTS.accountClosed:
      return 'ACCOUNT_CLOSED';
    default:
      return 'SUCCEEDED';
  }
}

export interface SimulatedDirectDebitOptions {
  /** Decides each new debit (tests script outcomes with it); by default the magic amounts. */
  outcome?: (request: DebitRequest) => SimulatedDebitOutcome;
}

/**
 * The sandbox direct-debit platform: no network, no randomness. Every adhesion is accepted; a
 * debit's outcome is configurable (magic amounts by default, or `options.outcome`). Answers are
 * remembered by idempotency key, so a repeated call has the effect of one, as with a real
 * platform (the magic amounts give the same answer in any process, too).
 */
export class SimulatedDirectDebitGateway implements DirectDebitGateway {
  private readonly answers = new Map<string, DebitResult>();
  private readonly decide: (request: DebitRequest) => SimulatedDebitOutcome;
  readonly refunds = new Set<string>();

  constructor(options: SimulatedDirectDebitOptions = {}) {
    this.decide = options.outcome ?? magicAmountOutcome;
  }

  async requestAdhesion(_request: { idempotencyKey: string }): Promise<void> {}

  async debit(request: DebitRequest): Promise<DebitResult> {
    let result = this.answers.get(request.idempotencyKey);
    if (!result) {
      const outcome = this.decide(request);
      result = outcome === 'SUCCEEDED' ? { status: 'SUCCEEDED' } : { status: 'FAILED', failureCode: outcome };
      this.answers.set(request.idempotencyKey, result);
    }
    return result;
  }

  async refund(request: { idempotencyKey: string }): Promise<void> {
    this.refunds.add(request.idempotencyKey);
  }
}
