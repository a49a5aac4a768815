import type { DebtRepository, DebtView } from '../../ports/debt-repository';
import type { Repositories } from '../../ports/unit-of-work';
import type { SubscriptionRepository } from '../../ports/subscription-repository';
import { type DomainEvent, eventOf } from '../events/domain-event';
import { assertLinkPayable } from '../payment-links/payment-link';
import { cancelPendingInstructions } from '../payment-instructions/cancel-pending-instructions';
import { utcDateOf } from '../shared/calendar-date';
import { BusinessRuleViolationError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { applyPayment, remainingCents } from './debt';
import { findDebt } from './find-debt';

/**
 * A payment applied to a debt under the state table, inside the caller's transaction: every
 * payment path (the sandbox helper, the hosted portal, direct debit) comes here. The debt is
 * locked, so two concurrent payments never both fit in the remaining amount. The debt of a
 * payment link obeys the link: no payment once the link is not ACTIVE, and paying a single-use
 * link's debt in full makes the link PAID. Subscription cycles respect enforcePaymentOrder. A
 * debt paid in full cancels its PENDING payment instructions (cash and transfer).
 * `amountCents` undefined pays the remaining amount.
 */
export async function applyDebtPayment(
  tx: Repositories,
  id: string,
  amountCents: number | undefined,
  source: string,
  scope: TenantScope,
): Promise<DebtView> {
  const { debts, paymentLinks, subscriptions } = tx;
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
  const events: DomainEvent[] = [];
  if (link?.singleUse && next.status === 'PAID') {
    const paidLink = await paymentLinks.update(scope.company.id, link.id, { status: 'PAID', paymentsCount: link.paymentsCount + 1, updatedAt: now });
    events.push(eventOf(scope, 'payment_link.paid', { kind: 'payment_link', link: paidLink }, now));
  }
  const paid = await debts.update(scope.company.id, debt.id, { ...next, updatedAt: now });
  events.unshift(eventOf(scope, next.status === 'PAID' ? 'debt.paid' : 'debt.partially_paid', { kind: 'debt', debt: paid }, now));
  await tx.events.append(events);
  if (next.status === 'PAID') await cancelPendingInstructions(tx, [debt.id], scope, now);
  return paid;
}

/** enforcePaymentOrder: a cycle cannot be paid while an earlier one of its subscription is unpaid. */
export async function assertPaymentOrder(subscriptions: SubscriptionRepository, debts: DebtRepository, debt: DebtView): Promise<void> {
  const subscription = await subscriptions.findById(debt.subscriptionId!);
  if (!subscription?.enforcePaymentOrder) return;
  const open = await debts.openOfSubscription(subscription.id);
  const earlier = open.find((d) => d.id !== debt.id && (d.dueDate < debt.dueDate || (d.dueDate === debt.dueDate && d.id < debt.id)));
  if (earlier) throw new BusinessRuleViolationError(`Cycle ${earlier.externalRequestId} must be paid first`);
}
