import type { WebhookSender } from '../../ports/webhook-sender';
import type { WebhookUrlPolicy } from '../../ports/webhook-url-policy';

/** What the webhook use cases run on beside the repositories: the HTTP door out, and the schedule. */
export interface WebhookSettings {
  sender: WebhookSender;
  urlPolicy: WebhookUrlPolicy;
  /** Waits between failed attempts of a round (see retry-schedule.ts). */
  retryDelaysMs: readonly number[];
}
