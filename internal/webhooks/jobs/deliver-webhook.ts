import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { JobQueue } from '../../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { requireDeps } from '../../shared/use-case-deps';
import { attemptErrorOf } from '../attempt-error';
import type { DeliveryStatus } from '../delivery';
import { isDelivered, retryDelayAfter } from '../retry-schedule';
import { signingSecrets } from '../secret-rotation';
import type { WebhookSettings } from '../webhook-settings';
import { DELIVERY_LEASE_MS, handOver } from './dispatch-webhooks';

export type DeliverResult =
  | { outcome: 'skipped' }
  | { outcome: 'cancelled' }
  | { outcome: 'attempted'; attempt: number; status: DeliveryStatus; statusCode: number | null; recorded: boolean };

const LEASE_TOKEN_LENGTH = 16;

/**
 * Worker job `webhooks.deliver`: one attempt of a claimed delivery. POSTs the event object,
 * signed, to the endpoint's current url; a 2xx within the sender's timeout delivers it,
 * anything else schedules the next attempt (retry-schedule.ts) or, the schedule used up, fails
 * it. A delivery whose endpoint was disabled or deleted is cancelled instead. When the delivery
 * is done (delivered or failed for good), the next one of the same resource to the same
 * endpoint is handed over at once, so a resource's events keep their order without waiting for
 * the next dispatch.
 */
export class DeliverWebhook {
  constructor(
    private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; ids: IdGenerator; queue: JobQueue; webhooks: WebhookSettings },
  ) {
    requireDeps('DeliverWebhook', deps);
  }

  async execute(data: { deliveryId: number; leaseToken: string }): Promise<DeliverResult> {
    const { repos, clock, webhooks } = this.deps;
    const delivery = await repos.webhookDeliveries.findById(Number(data.deliveryId));
    if (!delivery || delivery.status !== 'PENDING' || delivery.leaseToken !== data.leaseToken) return { outcome: 'skipped' };
    const [endpoint] = await repos.webhookEndpoints.findByIds([delivery.endpointId]);
    if (!endpoint || endpoint.deletedAt || !endpoint.enabled) {
      await repos.webhookDeliveries.cancelClaimed(delivery.id, data.leaseToken, clock.now());
      return { outcome: 'cancelled' };
    }
    const event = await repos.events.findById(delivery.eventRowId);
    if (!event) throw new Error(`webhook delivery ${delivery.id} lost its event`);

    const startedAt = clock.now();
    const response = await webhooks.sender.send({
      url: endpoint.url,
      body: JSON.stringify(event.payload),
      // The secrets of this attempt's time: a rotation since the event applies to its retries.
      secrets: signingSecrets(endpoint, startedAt),
      timestamp: Math.floor(startedAt.getTime() / 1000),
      eventId: event.eventId,
    });
    const finishedAt = clock.now();
    const succeeded = isDelivered(response.statusCode);
    const roundAttempts = delivery.roundAttempts + 1;
    const delay = succeeded ? null : retryDelayAfter(webhooks.retryDelaysMs, roundAttempts);
    const status: DeliveryStatus = succeeded ? 'SUCCEEDED' : delay === null ? 'FAILED' : 'PENDING';
    const attempt = delivery.attempts + 1;
    const recorded = await this.deps.uow.run((tx) =>
      tx.webhookDeliveries.recordAttempt(delivery.id, data.leaseToken, {
        attempt: {
          attempt,
          attemptedAt: startedAt,
          statusCode: response.statusCode,
          error: attemptErrorOf(response.statusCode, response.error),
          durationMs: Math.max(0, Math.round(response.durationMs)),
          succeeded,
        },
        status,
        roundAttempts,
        nextAttemptAt: delay === null ? null : new Date(finishedAt.getTime() + delay),
        at: finishedAt,
      }),
    );
    if (recorded && status !== 'PENDING') await this.handOverNext(delivery.endpointId, delivery.resourceId);
    return { outcome: 'attempted', attempt, status, statusCode: response.statusCode, recorded };
  }

  private async handOverNext(endpointId: number, resourceId: string): Promise<void> {
    const now = this.deps.clock.now();
    const token = this.deps.ids.alphanumeric(LEASE_TOKEN_LENGTH);
    const next = await this.deps.repos.webhookDeliveries.claimNextOf(endpointId, resourceId, now, new Date(now.getTime() + DELIVERY_LEASE_MS), token);
    if (next) await handOver(this.deps.queue, next);
  }
}
