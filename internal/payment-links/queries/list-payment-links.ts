import type { PaymentLinkFilter, PaymentLinkRepository, PaymentLinkView } from '../../../ports/payment-link-repository';
import { exactCreatedRange } from '../../shared/created-range';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { DEBT_ID_PREFIX } from '../../debts/debt';
import { PAYMENT_LINK_ID_PREFIX, type PaymentLinkStatus } from '../payment-link';

export interface ListPaymentLinksInput {
  status?: PaymentLinkStatus;
  externalPaymentLinkId?: string;
  debtId?: string;
  createdAtFrom?: string;
  createdAtTo?: string;
}

/**
 * GET /payment-links: by externalPaymentLinkId descending. A createdAt date-time bound is
 * compared exactly (not by day, unlike GET /debts); a plain date covers its whole UTC day.
 */
export class ListPaymentLinks {
  constructor(private readonly deps: { paymentLinks: PaymentLinkRepository }) {
    requireDeps('ListPaymentLinks', deps);
  }

  async execute(input: ListPaymentLinksInput, page: PageRequest, scope: TenantScope): Promise<Page<PaymentLinkView>> {
    const filter: PaymentLinkFilter = { status: input.status, now: scope.clock.now() };
    if (input.externalPaymentLinkId !== undefined) filter.key = { organizationId: scope.organizationId, externalPaymentLinkId: input.externalPaymentLinkId };
    const created = exactCreatedRange(input.createdAtFrom, input.createdAtTo);
    if (created.from !== undefined) filter.createdFrom = created.from;
    if (created.to !== undefined) filter.createdTo = created.to;
    if (input.debtId !== undefined) {
      // A link's debtId is `debt_plk_<code>`: it names the link itself.
      const prefix = DEBT_ID_PREFIX + PAYMENT_LINK_ID_PREFIX;
      if (!input.debtId.startsWith(prefix)) return { items: [], total: 0, capped: false };
      filter.code = input.debtId.slice(prefix.length);
    }
    return this.deps.paymentLinks.list(scope.company.id, filter, page);
  }
}
