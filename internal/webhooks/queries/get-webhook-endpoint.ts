import type { WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findEndpoint } from '../find-endpoint';
import type { WebhookEndpoint } from '../webhook-endpoint';

/** GET /webhook-endpoints/{id}. */
export class GetWebhookEndpoint {
  constructor(private readonly deps: { webhookEndpoints: WebhookEndpointRepository }) {
    requireDeps('GetWebhookEndpoint', deps);
  }

  execute(id: string, scope: TenantScope): Promise<WebhookEndpoint> {
    return findEndpoint(this.deps.webhookEndpoints, id, scope);
  }
}
