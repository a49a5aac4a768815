import { RawJson } from '../raw-json';
import type { EventDetail } from '../../../internal/events/queries/get-event';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import type { WebhookTestResult } from '../../../internal/webhooks/commands/test-webhook-endpoint';
import { type WebhookEndpoint, WEBHOOK_TEST_EVENT_TYPE, webhookEndpointIdOf } from '../../../internal/webhooks/webhook-endpoint';
import type { LoggedEvent } from '../../../ports/event-log';

/** The secret only in the creation answer. */
export function presentWebhookEndpoint(endpoint: WebhookEndpoint, options: { withSecret?: boolean } = {}) {
  return {
    webhookEndpointId: webhookEndpointIdOf(endpoint),
    url: endpoint.url,
    enabledEvents: endpoint.enabledEvents,
    enabled: endpoint.enabled,
    description: endpoint.description,
    ...(options.withSecret ? { secret: endpoint.secret } : {}),
    createdAt: toIsoUtc(endpoint.createdAt),
    updatedAt: toIsoUtc(endpoint.updatedAt),
  };
}

/** The rotation answer: the endpoint, its new secret (only here) and until when the replaced one also signs. */
export function presentRotatedWebhookEndpoint(endpoint: WebhookEndpoint) {
  return {
    ...presentWebhookEndpoint(endpoint, { withSecret: true }),
    previousSecretExpiresAt: endpoint.previousSecretExpiresAt && endpoint.previousSecret !== null ? toIsoUtc(endpoint.previousSecretExpiresAt) : null,
  };
}

/** What one test send did. */
export function presentWebhookTestResult(result: WebhookTestResult) {
  return {
    eventId: result.eventId,
    type: WEBHOOK_TEST_EVENT_TYPE,
    webhookEndpointId: webhookEndpointIdOf(result.endpoint),
    delivered: result.delivered,
    statusCode: result.statusCode,
    durationMs: result.durationMs,
    error: result.error,
  };
}

/** The event object exactly as it was delivered (rendered once, when it was written). */
/** An event of a page: its public object as stored, written into the answer as it is. */
export function presentEvent(event: LoggedEvent): RawJson {
  return new RawJson(event.payloadJson);
}

/** The event with its delivery to each endpoint: status, next attempt, and every attempt. */
export function presentEventDetail(detail: EventDetail) {
  return {
    ...detail.event.payload,
    deliveries: detail.deliveries.map(({ delivery, endpoint, attempts }) => ({
      webhookEndpointId: webhookEndpointIdOf(endpoint),
      url: endpoint.url,
      status: delivery.status,
      nextAttemptAt: delivery.status === 'PENDING' && delivery.nextAttemptAt ? toIsoUtc(delivery.nextAttemptAt) : null,
      attempts: attempts.map((a) => ({
        attempt: a.attempt,
        attemptedAt: toIsoUtc(a.attemptedAt),
        statusCode: a.statusCode,
        error: a.error,
        durationMs: a.durationMs,
        succeeded: a.succeeded,
      })),
    })),
  };
}
