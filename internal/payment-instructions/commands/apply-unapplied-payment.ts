import type { UnappliedPaymentView } from '../../../ports/unapplied-payment-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { applyDebtPayment } from '../../debts/apply-debt-payment';
import { findDebt } from '../../debts/find-debt';
import { eventOf } from '../../events/domain-event';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findUnappliedPayment } from '../find-unapplied-payment';
import { UNAPPLIED_PAYMENT_SOURCE } from '../unapplied-payment';

/**
 * POST /unapplied-payments/{id}/apply `{ debtId }`: an OPEN unapplied payment pays a debt of the
 * company, its whole amount, through the same payment use case as every other payment (state
 * table, partial payments, payment order, the debt's link): the rules refusing it is 422 and
 * nothing changes. It becomes RESOLVED (APPLIED, naming the debt), with unapplied_payment.resolved
 * and the debt's events, in one transaction. A RESOLVED one, or one being refunded, is 422.
 */
export class ApplyUnappliedPayment {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('ApplyUnappliedPayment', deps);
  }

  execute(id: string, debtId: string, scope: TenantScope): Promise<UnappliedPaymentView> {
    return this.deps.uow.run(async (tx) => {
      const payment = await findUnappliedPayment(tx.unappliedPayments, id, scope, { lock: true });
      if (payment.status !== 'OPEN') throw new BusinessRuleViolationError('The unapplied payment is already resolved');
      if (payment.refundRequestedAt) throw new BusinessRuleViolationError('The unapplied payment is being refunded');
      const debt = await findDebt(tx.debts, debtId, scope);
      if (debt.currency !== payment.currency) throw new BusinessRuleViolationError(`The debt is in ${debt.currency}, the money in ${payment.currency}`);
      const now = scope.clock.now();
      const paid = await applyDebtPayment(tx, debtId, payment.amountCents, UNAPPLIED_PAYMENT_SOURCE, scope);
      const resolved = await tx.unappliedPayments.resolve(payment.id, { action: 'APPLIED', debtId: paid.id, reference: null }, now);
      await tx.events.append([eventOf(scope, 'unapplied_payment.resolved', { kind: 'unapplied_payment', payment: resolved }, now)]);
      return resolved;
    });
  }
}
