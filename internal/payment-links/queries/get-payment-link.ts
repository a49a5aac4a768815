import type { PaymentLinkRepository, PaymentLinkView } from '../../../ports/payment-link-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findLink } from '../find-link';

/** GET /payment-links/{id}. */
export class GetPaymentLink {
  constructor(private readonly deps: { paymentLinks: PaymentLinkRepository }) {
    requireDeps('GetPaymentLink', deps);
  }

  execute(id: string, scope: TenantScope): Promise<PaymentLinkView> {
    return findLink(this.deps.paymentLinks, id, scope);
  }
}
