import type { WebhookEndpointChanges } from '../../../ports/webhook-endpoint-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../../tenancy/credentials';
import { findEndpoint } from '../find-endpoint';
import { parseEnabledEvents, type WebhookEndpoint } from '../webhook-endpoint';
import type { WebhookSettings } from '../webhook-settings';
import { checkedUrl } from './create-webhook-endpoint';

export interface UpdateWebhookEndpointInput {
  url?: string;
  enabledEvents?: string[];
  enabled?: boolean;
  description?: string | null;
}

/**
 * PATCH /webhook-endpoints/{id}. Disabling cancels the endpoint's pending deliveries (enabling it
 * again does not bring back what it missed: POST /events/{id}/redeliver does). A new url or event
 * list applies to every delivery from then on.
 */
export class UpdateWebhookEndpoint {
  constructor(private readonly deps: { uow: UnitOfWork; appEnv: AppEnv; webhooks: WebhookSettings }) {
    requireDeps('UpdateWebhookEndpoint', deps);
  }

  async execute(id: string, input: UpdateWebhookEndpointInput, scope: TenantScope): Promise<WebhookEndpoint> {
    const changes: WebhookEndpointChanges = { updatedAt: scope.clock.now() };
    if (input.url !== undefined) changes.url = await checkedUrl(input.url, this.deps);
    if (input.enabledEvents !== undefined) changes.enabledEvents = parseEnabledEvents(input.enabledEvents);
    if (input.enabled !== undefined) changes.enabled = input.enabled;
    if (input.description !== undefined) changes.description = input.description;
    return this.deps.uow.run(async ({ webhookEndpoints, webhookDeliveries }) => {
      const endpoint = await findEndpoint(webhookEndpoints, id, scope, { lock: true });
      const updated = await webhookEndpoints.update(scope.company.id, endpoint.id, changes);
      if (endpoint.enabled && !updated.enabled) await webhookDeliveries.cancelPendingOfEndpoint(endpoint.id, changes.updatedAt);
      return updated;
    });
  }
}
