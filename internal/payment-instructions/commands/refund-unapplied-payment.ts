import type { Clock } from '../../../ports/clock';
import type { PaymentInstructionProvider } from '../../../ports/payment-instruction-provider';
import type { UnappliedPaymentView } from '../../../ports/unapplied-payment-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findUnappliedPayment } from '../find-unapplied-payment';
import { unappliedPaymentIdOf } from '../unapplied-payment';

/**
 * POST /unapplied-payments/{id}/refund: the provider gives an OPEN unapplied payment back to
 * whoever paid it, and it becomes RESOLVED (REFUNDED, with the provider's reference).
 *
 * The provider is called outside any transaction, so the payment is first claimed for the refund
 * (it cannot be applied meanwhile: money is never both applied and refunded), then resolved with
 * the provider's answer. The provider refunds once per key (`refund:<upy_…>`): a refund asked
 * again, or completed after a crash left the claim, is the same refund. A provider failure
 * releases the claim (still OPEN) and is an error.
 */
export class RefundUnappliedPayment {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; paymentInstructionProvider: PaymentInstructionProvider }) {
    requireDeps('RefundUnappliedPayment', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<UnappliedPaymentView> {
    const claimed = await this.deps.uow.run(async (tx) => {
      const payment = await findUnappliedPayment(tx.unappliedPayments, id, scope, { lock: true });
      if (payment.status !== 'OPEN') throw new BusinessRuleViolationError('The unapplied payment is already resolved');
      return payment.refundRequestedAt ? payment : tx.unappliedPayments.setRefundRequested(payment.id, this.deps.clock.now());
    });
    const notification = await this.deps.repos.providerNotifications.findById(claimed.notificationId);
    let reference: string;
    try {
      ({ reference } = await this.deps.paymentInstructionProvider.refund({
        idempotencyKey: `refund:${unappliedPaymentIdOf(claimed)}`,
        transactionId: notification?.transactionId ?? '',
        amountCents: claimed.amountCents,
        currency: claimed.currency,
      }));
    } catch (error) {
      await this.deps.uow.run((tx) => tx.unappliedPayments.setRefundRequested(claimed.id, null));
      throw error;
    }
    return this.deps.uow.run(async (tx) => {
      const payment = await findUnappliedPayment(tx.unappliedPayments, id, scope, { lock: true });
      if (payment.status === 'RESOLVED') return payment; // a concurrent refund of the same claim finished first
      const now = scope.clock.now();
      const resolved = await tx.unappliedPayments.resolve(payment.id, { action: 'REFUNDED', debtId: null, reference }, now);
      await tx.events.append([eventOf(scope, 'unapplied_payment.resolved', { kind: 'unapplied_payment', payment: resolved }, now)]);
      return resolved;
    });
  }
}
