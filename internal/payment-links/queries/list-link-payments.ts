import type { ListedDebt } from '../../../ports/debt-repository';
import type { PaymentLinkRepository } from '../../../ports/payment-link-repository';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { ListDebts, ListDebtsInput } from '../../debts/queries/list-debts';
import { findLink } from '../find-link';

/** GET /payment-links/{id}/payments: the link's associated debts, with the GET /debts filters. */
export class ListLinkPayments {
  constructor(private readonly deps: { paymentLinks: PaymentLinkRepository; listDebts: ListDebts }) {
    requireDeps('ListLinkPayments', deps);
  }

  async execute(id: string, input: ListDebtsInput, page: PageRequest, scope: TenantScope): Promise<Page<ListedDebt>> {
    const link = await findLink(this.deps.paymentLinks, id, scope);
    return this.deps.listDebts.execute({ ...input, paymentLinkId: link.id }, page, scope);
  }
}
