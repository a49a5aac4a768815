import type { Clock } from '../../../ports/clock';
import type { WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type AttemptError, attemptErrorOf } from '../attempt-error';
import { findEndpoint } from '../find-endpoint';
import { isDelivered } from '../retry-schedule';
import { signingSecrets } from '../secret-rotation';
import type { WebhookEndpoint } from '../webhook-endpoint';
import type { WebhookSettings } from '../webhook-settings';

/** What one test send did. */
export interface WebhookTestResult {
  eventId: string;
  endpoint: WebhookEndpoint;
  /** A 2xx came within the timeout: what a real delivery counts as delivered. */
  delivered: boolean;
  statusCode: number | null;
  durationMs: number;
  /** The class of the failure (attempt-error.ts), null when delivered. */
  error: AttemptError | null;
}

/**
 * POST /webhook-endpoints/{id}/test: sends a signed `webhook.test` event to the endpoint now,
 * during the request, through the sender real deliveries use (its address checks, its 10 s
 * timeout, no redirects) with the secrets they would carry now (both during a rotation's grace
 * period), and answers what happened. The event is written nowhere (GET /events does not show
 * it) and never retried. A disabled endpoint is sent to as well: the operator asked for this
 * one send explicitly, and testing before enabling is the point. Another company's endpoint,
 * or a deleted one, is 404.
 */
export class TestWebhookEndpoint {
  constructor(private readonly deps: { webhookEndpoints: WebhookEndpointRepository; clock: Clock; webhooks: WebhookSettings }) {
    requireDeps('TestWebhookEndpoint', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<WebhookTestResult> {
    const { webhooks, clock } = this.deps;
    const endpoint = await findEndpoint(this.deps.webhookEndpoints, id, scope);
    // createdAt on the organization's clock like every event; the signature on real time like every attempt.
    const { eventId, payload } = webhooks.testEvents.render({ endpoint, company: scope.company, occurredAt: scope.clock.now(), requestId: scope.requestId });
    const now = clock.now();
    const response = await webhooks.sender.send({
      url: endpoint.url,
      body: JSON.stringify(payload),
      secrets: signingSecrets(endpoint, now),
      timestamp: Math.floor(now.getTime() / 1000),
      eventId,
    });
    return {
      eventId,
      endpoint,
      delivered: isDelivered(response.statusCode),
      statusCode: response.statusCode,
      durationMs: Math.max(0, Math.round(response.durationMs)),
      error: attemptErrorOf(response.statusCode, response.error),
    };
  }
}
