import type { DebtFilter, DebtRepository, ListedDebt } from '../../../ports/debt-repository';
import { debtorKeyOf } from '../../contacts/debtor-key';
import { utcDateOf } from '../../shared/calendar-date';
import { dailyCreatedRange } from '../../shared/created-range';
import { InvalidRequestError } from '../../shared/errors';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { DebtStatus } from '../debt';

export interface ListDebtsInput {
  status?: DebtStatus;
  createdAtFrom?: string;
  createdAtTo?: string;
  minAmountCents?: number;
  maxAmountCents?: number;
  externalClientId?: string;
  batchId?: string;
  /** Set by GET /payment-links/{id}/payments, not a public filter of GET /debts. */
  paymentLinkId?: number;
  /** Set by GET /subscriptions/{id}/debts. */
  subscriptionId?: number;
}

const EMPTY: Page<ListedDebt> = { items: [], total: 0, capped: false };

/** GET /debts: newest first, cancelled excluded, the effective status (OVERDUE by time) applied. */
export class ListDebts {
  constructor(private readonly deps: { debts: DebtRepository }) {
    requireDeps('ListDebts', deps);
  }

  async execute(input: ListDebtsInput, page: PageRequest, scope: TenantScope): Promise<Page<ListedDebt>> {
    const now = scope.clock.now();
    const range = dailyCreatedRange(input.createdAtFrom, input.createdAtTo, now);
    if (input.minAmountCents !== undefined && input.maxAmountCents !== undefined && input.minAmountCents > input.maxAmountCents) {
      throw InvalidRequestError.field('minAmount', 'must be less than or equal to maxAmount');
    }
    // Cancelled debts are never listed, so asking for them finds nothing.
    if (range.empty || input.status === 'CANCELLED') return EMPTY;
    const filter: DebtFilter = {
      status: input.status,
      today: utcDateOf(now),
      createdFrom: range.from ?? undefined,
      createdTo: range.to ?? undefined,
      minAmountCents: input.minAmountCents,
      maxAmountCents: input.maxAmountCents,
      batchId: input.batchId,
      paymentLinkId: input.paymentLinkId,
      subscriptionId: input.subscriptionId,
      debtor: debtorKeyOf(input.externalClientId, scope),
    };
    return this.deps.debts.list(scope.company.id, filter, page);
  }
}
