import type { SubscriptionRepository, SubscriptionView } from '../../ports/subscription-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { subscriptionCodeFromId } from './subscription';

/** A subscription of the caller's company by `sub_<code>` or the bare code; 404 otherwise. */
export async function findSubscription(
  subscriptions: Pick<SubscriptionRepository, 'findByCode' | 'lockByCode'>,
  id: string,
  scope: TenantScope,
  options: { lock?: boolean } = {},
): Promise<SubscriptionView> {
  const code = subscriptionCodeFromId(id);
  const found = code === null ? null : options.lock ? await subscriptions.lockByCode(scope.company.id, code) : await subscriptions.findByCode(scope.company.id, code);
  if (!found) throw new NotFoundError('Subscription');
  return found;
}
