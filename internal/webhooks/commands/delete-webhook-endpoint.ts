import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findEndpoint } from '../find-endpoint';
import type { WebhookEndpoint } from '../webhook-endpoint';

/**
 * DELETE /webhook-endpoints/{id}: the endpoint is gone (404 from then on) and its pending
 * deliveries are cancelled; its past deliveries still show in GET /events/{id}.
 */
export class DeleteWebhookEndpoint {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('DeleteWebhookEndpoint', deps);
  }

  execute(id: string, scope: TenantScope): Promise<WebhookEndpoint> {
    return this.deps.uow.run(async ({ webhookEndpoints, webhookDeliveries }) => {
      const endpoint = await findEndpoint(webhookEndpoints, id, scope, { lock: true });
      const now = scope.clock.now();
      await webhookEndpoints.markDeleted(scope.company.id, endpoint.id, now);
      await webhookDeliveries.cancelPendingOfEndpoint(endpoint.id, now);
      return { ...endpoint, deletedAt: now };
    });
  }
}
