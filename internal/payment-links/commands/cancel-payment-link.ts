import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { utcDateOf } from '../../shared/calendar-date';
import { BusinessRuleViolationError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { effectiveStatus } from '../../debts/debt';
import { findLink } from '../find-link';
import { effectiveLinkStatus } from '../payment-link';

/**
 * POST /payment-links/{id}/cancel: ACTIVE → CANCELLED, and the associated debt is cancelled
 * when it still can be (the link is cancelled either way); CANCELLED again is 200 with no
 * change; PAID or EXPIRED is 422.
 */
export class CancelPaymentLink {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('CancelPaymentLink', deps);
  }

  execute(id: string, scope: TenantScope): Promise<PaymentLinkView> {
    return this.deps.uow.run(async ({ paymentLinks, debts }) => {
      const link = await findLink(paymentLinks, id, scope, { lock: true });
      const now = scope.clock.now();
      const status = effectiveLinkStatus(link, now);
      if (status === 'CANCELLED') return link;
      if (status !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${status} payment link cannot be cancelled`);
      const debt = await debts.findByExternalRequestId(scope.company.id, link.debtExternalRequestId);
      const debtStatus = debt && effectiveStatus(debt, utcDateOf(now));
      if (debt && debtStatus !== 'PAID' && debtStatus !== 'CANCELLED') {
        await debts.update(scope.company.id, debt.id, { status: 'CANCELLED', updatedAt: now });
      }
      return paymentLinks.update(scope.company.id, link.id, { status: 'CANCELLED', updatedAt: now });
    });
  }
}
