import type { WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { WebhookEndpoint } from '../webhook-endpoint';

/** GET /webhook-endpoints: the company's endpoints, newest first. */
export class ListWebhookEndpoints {
  constructor(private readonly deps: { webhookEndpoints: WebhookEndpointRepository }) {
    requireDeps('ListWebhookEndpoints', deps);
  }

  execute(page: PageRequest, scope: TenantScope): Promise<Page<WebhookEndpoint>> {
    return this.deps.webhookEndpoints.list(scope.company.id, page);
  }
}
