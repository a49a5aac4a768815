import type { PaymentLinkFilter, PaymentLinkRepository, PaymentLinkView } from '../../../ports/payment-link-repository';
import { isCalendarDate } from '../../shared/calendar-date';
import { InvalidRequestError } from '../../shared/errors';
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

const DAY_MS = 24 * 60 * 60 * 1000;
const RFC3339 = /^\d{4}-\d{2}-\d{2}T([01]\d|2[0-3]):[0-5]\d:[0-5]\d(\.\d+)?(Z|[+-]([01]\d|2[0-3]):[0-5]\d)$/i;

/**
 * GET /payment-links: by externalPaymentLinkId descending. A createdAt date-time bound is
 * compared exactly (not by day, unlike GET /debts); a plain date covers its whole UTC day.
 */
export class ListPaymentLinks {
  constructor(private readonly deps: { paymentLinks: PaymentLinkRepository }) {
    requireDeps('ListPaymentLinks', deps);
  }

  async execute(input: ListPaymentLinksInput, page: PageRequest, scope: TenantScope): Promise<Page<PaymentLinkView>> {
    const filter: PaymentLinkFilter = { status: input.status, now: scope.clock.now(), externalPaymentLinkId: input.externalPaymentLinkId };
    if (input.createdAtFrom !== undefined) filter.createdFrom = bound(input.createdAtFrom, 'createdAtFrom', 'start');
    if (input.createdAtTo !== undefined) filter.createdTo = bound(input.createdAtTo, 'createdAtTo', 'end');
    if (filter.createdFrom !== undefined && filter.createdTo !== undefined && filter.createdFrom > filter.createdTo) {
      throw InvalidRequestError.field('createdAtFrom', 'must be earlier than or equal to createdAtTo');
    }
    if (input.debtId !== undefined) {
      // A link's debtId is `debt_plk_<code>`: it names the link itself.
      const prefix = DEBT_ID_PREFIX + PAYMENT_LINK_ID_PREFIX;
      if (!input.debtId.startsWith(prefix)) return { items: [], total: 0, capped: false };
      filter.code = input.debtId.slice(prefix.length);
    }
    return this.deps.paymentLinks.list(scope.company.id, filter, page);
  }
}

function bound(text: string, field: string, edge: 'start' | 'end'): number {
  if (isCalendarDate(text)) return Date.parse(text) + (edge === 'end' ? DAY_MS - 1 : 0);
  const instant = RFC3339.test(text) && isCalendarDate(text.slice(0, 10)) ? Date.parse(text) : NaN;
  if (Number.isNaN(instant)) throw InvalidRequestError.field(field, 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time');
  return instant;
}
