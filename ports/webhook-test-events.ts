import type { Company } from '../internal/tenancy/company';
import type { WebhookEndpoint } from '../internal/webhooks/webhook-endpoint';

/**
 * Renders the `webhook.test` event object for POST /webhook-endpoints/{id}/test: an event like
 * every other (`eventId`, `type`, `createdAt`, `companyCode`, `data.object`, `requestId`) whose
 * object is the endpoint as GET returns it. It is rendered for one send and written nowhere.
 */
export interface WebhookTestEvents {
  render(input: { endpoint: WebhookEndpoint; company: Company; occurredAt: Date; requestId: string | null }): { eventId: string; payload: Record<string, unknown> };
}
