import type { SubscriptionRepository, SubscriptionView } from '../../../ports/subscription-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findSubscription } from '../find-subscription';

/** GET /subscriptions/{id}, with or without the `sub_` prefix. */
export class GetSubscription {
  constructor(private readonly deps: { subscriptions: SubscriptionRepository }) {
    requireDeps('GetSubscription', deps);
  }

  execute(id: string, scope: TenantScope): Promise<SubscriptionView> {
    return findSubscription(this.deps.subscriptions, id, scope);
  }
}
