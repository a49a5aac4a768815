import type { Clock } from '../../../ports/clock';
import type { PaymentInstructionProvider } from '../../../ports/payment-instruction-provider';
import type { Repositories } from '../../../ports/unit-of-work';
import type { Currency } from '../../shared/currency';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findPaymentInstruction } from '../find-payment-instruction';
import { paymentInstructionIdOf } from '../payment-instruction';

/** A sandbox provider notification, ready to be delivered (and delivered again) to the notification endpoint. */
export interface SandboxNotification {
  paymentInstructionId: string;
  provider: string;
  transactionId: string;
  amountCents: number;
  currency: Currency;
  /** The exact body: every delivery sends these bytes. */
  body: string;
  /** The signature headers of a delivery made at `now` (real time). */
  sign(now: Date): Record<string, string>;
}

/**
 * POST /test-helpers/payment-instructions/{id}/receive: what the sandbox provider sends when
 * money arrives for one of its instructions (default: the instruction amount), dated on the
 * organization's clock. The caller delivers it to the notification endpoint's use case,
 * signature and all, like the provider would; the instruction's state does not matter here (money
 * can arrive for an expired voucher: it is then kept unapplied).
 */
export class PrepareSandboxNotification {
  constructor(private readonly deps: { repos: Repositories; clock: Clock; paymentInstructionProvider: PaymentInstructionProvider }) {
    requireDeps('PrepareSandboxNotification', deps);
  }

  async execute(id: string, amountCents: number | undefined, scope: TenantScope): Promise<SandboxNotification> {
    const instruction = await findPaymentInstruction(this.deps.repos.paymentInstructions, id, scope);
    const provider = this.deps.paymentInstructionProvider;
    if (!provider.sandbox || instruction.provider !== provider.name) {
      throw new BusinessRuleViolationError('Only instructions of the sandbox provider can receive sandbox payments');
    }
    const { sandbox } = provider;
    const amount = amountCents ?? instruction.amountCents;
    const { transactionId, body } = sandbox.notificationFor({
      providerReference: instruction.providerReference, amountCents: amount, currency: instruction.currency, receivedAt: scope.clock.now(),
    });
    return {
      paymentInstructionId: paymentInstructionIdOf(instruction),
      provider: provider.name,
      transactionId,
      amountCents: amount,
      currency: instruction.currency,
      body,
      sign: (now) => sandbox.sign(body, now),
    };
  }
}
