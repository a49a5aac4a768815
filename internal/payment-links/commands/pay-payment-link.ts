import type { Debt } from '../../debts/debt';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { applyPayment } from '../../debts/debt';
import { cancelPendingInstructions } from '../../payment-instructions/cancel-pending-instructions';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findLink } from '../find-link';
import { assertLinkPayable } from '../payment-link';

/**
 * A payment through a link, only while it is ACTIVE. A single-use link's associated debt takes
 * the payment (the link amount by default) and the link becomes PAID. A reusable link stays
 * ACTIVE and records each payment as an associated debt of its own, paid at once.
 * Events: debt.paid (or debt.partially_paid) for the single-use link's debt, debt.created and
 * debt.paid for a reusable link's payment record, and payment_link.paid for every payment (a
 * reusable link's shows it still ACTIVE, with one more payment).
 */
export class PayPaymentLink {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('PayPaymentLink', deps);
  }

  execute(id: string, amountCents: number | undefined, source: string, scope: TenantScope): Promise<PaymentLinkView> {
    return this.deps.uow.run(async (tx) => (await applyLinkPayment(tx, id, amountCents, source, scope)).link);
  }
}

/**
 * PayPaymentLink inside the caller's transaction (the hosted portal records its receipt in the
 * same one). Returns the link as it now reads and the debt that took the payment.
 */
export async function applyLinkPayment(
  tx: Repositories,
  id: string,
  amountCents: number | undefined,
  source: string,
  scope: TenantScope,
): Promise<{ link: PaymentLinkView; debt: Debt }> {
  const { paymentLinks, debts, events } = tx;
  const link = await findLink(paymentLinks, id, scope, { lock: true });
  const now = scope.clock.now();
  assertLinkPayable(link, now);
  const amount = amountCents ?? link.amountCents;
  const debt = await debts.findByExternalRequestId(scope.company.id, link.debtExternalRequestId);
  if (!debt) throw new Error(`payment link ${link.code} has no associated debt`);
  if (link.singleUse) {
    const paid = applyPayment(debt, amount, utcDateOf(now));
    await debts.recordPayment(debt.id, amount, source, now);
    const paidDebt = await debts.update(scope.company.id, debt.id, { ...paid, updatedAt: now });
    const paidLink = await paymentLinks.update(scope.company.id, link.id, {
      status: paid.status === 'PAID' ? 'PAID' : link.status,
      paymentsCount: link.paymentsCount + 1,
      updatedAt: now,
    });
    await events.append([
      eventOf(scope, paid.status === 'PAID' ? 'debt.paid' : 'debt.partially_paid', { kind: 'debt', debt: paidDebt }, now),
      ...(paid.status === 'PAID' ? [eventOf(scope, 'payment_link.paid', { kind: 'payment_link', link: paidLink }, now)] : []),
    ]);
    if (paid.status === 'PAID') await cancelPendingInstructions(tx, [debt.id], scope, now);
    return { link: paidLink, debt: paidDebt };
  }
  // The debt rules' first check, which a reusable link's payment record does not go through.
  if (!Number.isSafeInteger(amount) || amount < 1) throw new BusinessRuleViolationError('A payment must be at least 0.01');
  const number = link.paymentsCount + 1;
  const record = await debts.insert({
    ...debt,
    externalRequestId: `${link.debtExternalRequestId}-payment-${number}`,
    status: 'PAID',
    amountCents: amount,
    amountPaidCents: amount,
    dueDate: utcDateOf(now),
    createdAt: now,
    updatedAt: now,
  });
  await debts.recordPayment(record.id, amount, source, now);
  const recordView = (await debts.findById(scope.company.id, record.id))!;
  const counted = await paymentLinks.update(scope.company.id, link.id, { paymentsCount: number, updatedAt: now });
  await events.append([
    eventOf(scope, 'debt.created', { kind: 'debt', debt: recordView }, now),
    eventOf(scope, 'debt.paid', { kind: 'debt', debt: recordView }, now),
    eventOf(scope, 'payment_link.paid', { kind: 'payment_link', link: counted }, now),
  ]);
  return { link: counted, debt: recordView };
}
