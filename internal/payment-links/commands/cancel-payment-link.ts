import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { type DomainEvent, eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { cancelPendingInstructions } from '../../payment-instructions/cancel-pending-instructions';
import { effectiveStatus } from '../../debts/debt';
import { findLink } from '../find-link';
import { effectiveLinkStatus } from '../payment-link';

/**
 * POST /payment-links/{id}/cancel: ACTIVE → CANCELLED, and the associated debt is cancelled
 * when it still can be (the link is cancelled either way); CANCELLED again is 200 with no
 * change; PAID or EXPIRED is 422. Events: payment_link.cancelled, and debt.cancelled for the
 * debt it cancelled.
 */
export class CancelPaymentLink {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('CancelPaymentLink', deps);
  }

  execute(id: string, scope: TenantScope): Promise<PaymentLinkView> {
    return this.deps.uow.run(async (tx) => {
      const { paymentLinks, debts, events } = tx;
      const link = await findLink(paymentLinks, id, scope, { lock: true });
      const now = scope.clock.now();
      const status = effectiveLinkStatus(link, now);
      if (status === 'CANCELLED') return link;
      if (status !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${status} payment link cannot be cancelled`);
      const debt = await debts.findByExternalRequestId(scope.company.id, link.debtExternalRequestId);
      const debtStatus = debt && effectiveStatus(debt, utcDateOf(now));
      const debtEvents: DomainEvent[] = [];
      if (debt && debtStatus !== 'PAID' && debtStatus !== 'CANCELLED') {
        const cancelled = await debts.update(scope.company.id, debt.id, { status: 'CANCELLED', updatedAt: now });
        debtEvents.push(eventOf(scope, 'debt.cancelled', { kind: 'debt', debt: cancelled }, now));
      }
      const cancelled = await paymentLinks.update(scope.company.id, link.id, { status: 'CANCELLED', updatedAt: now });
      await events.append([eventOf(scope, 'payment_link.cancelled', { kind: 'payment_link', link: cancelled }, now), ...debtEvents]);
      if (debt && debtEvents.length > 0) await cancelPendingInstructions(tx, [debt.id], scope, now);
      return cancelled;
    });
  }
}
