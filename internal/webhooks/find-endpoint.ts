import type { WebhookEndpointRepository } from '../../ports/webhook-endpoint-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { type WebhookEndpoint, webhookEndpointCodeFromId } from './webhook-endpoint';

/** A live endpoint of the caller's company by `whe_<code>` or the bare code; 404 otherwise. */
export async function findEndpoint(
  endpoints: Pick<WebhookEndpointRepository, 'findByCode' | 'lockByCode'>,
  id: string,
  scope: TenantScope,
  options: { lock?: boolean } = {},
): Promise<WebhookEndpoint> {
  const code = webhookEndpointCodeFromId(id);
  const found = code === null ? null : options.lock ? await endpoints.lockByCode(scope.company.id, code) : await endpoints.findByCode(scope.company.id, code);
  if (!found) throw new NotFoundError('Webhook endpoint');
  return found;
}
