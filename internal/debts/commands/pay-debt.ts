import type { DebtRepository, DebtView } from '../../../ports/debt-repository';
import type { SubscriptionRepository } from '../../../ports/subscription-repository';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { utcDateOf } from '../../shared/calendar-date';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { applyPayment, remainingCents } from '../debt';
import { findDebt } from '../find-debt';
import { assertLinkPayable } from '../../payment-links/payment-link';

/**
 * Applies a payment under the state table, with the debt locked for the transaction so two
 * concurrent payments never both fit in the remaining amount. Every payment path uses it: the
 * sandbox helper today, the portal and direct debit later. The debt of a payment link obeys
 * the link: no payment once the link is not ACTIVE, and paying a single-use link's debt in
 * full makes the link PAID.
 */
export class PayDebt {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('PayDebt', deps);
  }

  /** `amountCents` undefined pays the remaining amount. */
  execute(id: string, amountCents: number | undefined, source: string, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run(async ({ debts, paymentLinks, subscriptions }) => {
      const now = scope.clock.now();
      // A link is locked before its debt, in the same order as a payment through the link.
      const unlocked = await findDebt(debts, id, scope);
      const link = unlocked.paymentLinkId ? await paymentLinks.lockById(scope.company.id, unlocked.paymentLinkId) : null;
      if (link) assertLinkPayable(link, now);
      const debt = await findDebt(debts, id, scope, { lock: true });
      if (debt.subscriptionId) await assertPaymentOrder(subscriptions, debts, debt);
      const amount = amountCents ?? remainingCents(debt);
      const next = applyPayment(debt, amount, utcDateOf(now));
      await debts.recordPayment(debt.id, amount, source, now);
      if (link?.singleUse && next.status === 'PAID') {
        await paymentLinks.update(scope.company.id, link.id, { status: 'PAID', paymentsCount: link.paymentsCount + 1, updatedAt: now });
      }
      return debts.update(scope.company.id, debt.id, { ...next, updatedAt: now });
    });
  }
}

/** enforcePaymentOrder: a cycle cannot be paid while an earlier one of its subscription is unpaid. */
async function assertPaymentOrder(subscriptions: SubscriptionRepository, debts: DebtRepository, debt: DebtView): Promise<void> {
  const subscription = await subscriptions.findById(debt.subscriptionId!);
  if (!subscription?.enforcePaymentOrder) return;
  const open = await debts.openOfSubscription(subscription.id);
  const earlier = open.find((d) => d.id !== debt.id && (d.dueDate < debt.dueDate || (d.dueDate === debt.dueDate && d.id < debt.id)));
  if (earlier) throw new BusinessRuleViolationError(`Cycle ${earlier.externalRequestId} must be paid first`);
}
