import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { type DomainEvent, eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findLink } from '../find-link';
import { assertFutureExpiry, assertLinkEditable } from '../payment-link';

export interface UpdatePaymentLinkInput {
  description?: string;
  expiresAt?: Date;
  metadata?: Record<string, unknown>;
}

/**
 * PATCH /payment-links/{id}. The link's state is checked before the body (a PAID, EXPIRED or
 * CANCELLED link is 422 whatever was sent), so the body arrives as a parser called after it.
 * A new expiresAt also moves the associated debt's due date, unless that debt is cancelled.
 * Events: payment_link.updated, and debt.updated when the due date moved.
 */
export class UpdatePaymentLink {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('UpdatePaymentLink', deps);
  }

  execute(id: string, parseBody: () => UpdatePaymentLinkInput, scope: TenantScope): Promise<PaymentLinkView> {
    return this.deps.uow.run(async ({ paymentLinks, debts, events }) => {
      const link = await findLink(paymentLinks, id, scope, { lock: true });
      const now = scope.clock.now();
      assertLinkEditable(link, now);
      const input = parseBody();
      const debtEvents: DomainEvent[] = [];
      if (input.expiresAt) {
        assertFutureExpiry(input.expiresAt, now);
        const debt = await debts.findByExternalRequestId(scope.company.id, link.debtExternalRequestId);
        if (debt && debt.status !== 'CANCELLED') {
          const moved = await debts.update(scope.company.id, debt.id, { dueDate: utcDateOf(input.expiresAt), updatedAt: now });
          debtEvents.push(eventOf(scope, 'debt.updated', { kind: 'debt', debt: moved }, now));
        }
      }
      const updated = await paymentLinks.update(scope.company.id, link.id, { ...input, updatedAt: now });
      await events.append([eventOf(scope, 'payment_link.updated', { kind: 'payment_link', link: updated }, now), ...debtEvents]);
      return updated;
    });
  }
}
