import type { WebhookSender } from '../../ports/webhook-sender';
import type { WebhookTestEvents } from '../../ports/webhook-test-events';
import type { WebhookUrlPolicy } from '../../ports/webhook-url-policy';

/** What the webhook use cases run on beside the repositories: the HTTP door out, and the schedule. */
export interface WebhookSettings {
  sender: WebhookSender;
  urlPolicy: WebhookUrlPolicy;
  /** Renders the `webhook.test` event of POST /webhook-endpoints/{id}/test. */
  testEvents: WebhookTestEvents;
  /** Waits between failed attempts of a round (see retry-schedule.ts). */
  retryDelaysMs: readonly number[];
}
