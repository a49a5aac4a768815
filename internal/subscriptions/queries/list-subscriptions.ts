import type { ListedDebt } from '../../../ports/debt-repository';
import { debtorKeyOf } from '../../contacts/debtor-key';
import type { SubscriptionRepository, SubscriptionView } from '../../../ports/subscription-repository';
import type { ListDebts, ListDebtsInput } from '../../debts/queries/list-debts';
import { utcDateOf } from '../../shared/calendar-date';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findSubscription } from '../find-subscription';
import type { SubscriptionStatus } from '../subscription';

/** GET /subscriptions: by externalSubscriptionId descending; status (effective) and debtor filters. */
export class ListSubscriptions {
  constructor(private readonly deps: { subscriptions: SubscriptionRepository }) {
    requireDeps('ListSubscriptions', deps);
  }

  async execute(input: { status?: SubscriptionStatus; externalClientId?: string }, page: PageRequest, scope: TenantScope): Promise<Page<SubscriptionView>> {
    const filter = { status: input.status, today: utcDateOf(scope.clock.now()), debtor: debtorKeyOf(input.externalClientId, scope) };
    return this.deps.subscriptions.list(scope.company.id, filter, page);
  }
}

/** GET /subscriptions/{id}/debts: the generated debts, cancelled excluded, with the GET /debts filters. */
export class ListSubscriptionDebts {
  constructor(private readonly deps: { subscriptions: SubscriptionRepository; listDebts: ListDebts }) {
    requireDeps('ListSubscriptionDebts', deps);
  }

  async execute(id: string, input: ListDebtsInput, page: PageRequest, scope: TenantScope): Promise<Page<ListedDebt>> {
    const subscription = await findSubscription(this.deps.subscriptions, id, scope);
    return this.deps.listDebts.execute({ ...input, subscriptionId: subscription.id }, page, scope);
  }
}
