import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { Job, JobQueue } from '../../../ports/job-queue';
import type { Repositories } from '../../../ports/unit-of-work';
import { requireDeps } from '../../shared/use-case-deps';
import type { WebhookDelivery } from '../delivery';
import type { FanOutEvents } from './fan-out-events';

/** Fan-out turns per dispatch at most (500 events each); the next dispatch goes on. */
const MAX_FAN_OUT_TURNS = 20;
/** Deliveries handed to the queue per dispatch at most. */
const CLAIM_LIMIT = 200;
/** A claimed delivery whose job has not recorded an attempt by then is claimed again. */
export const DELIVERY_LEASE_MS = 60_000;
const LEASE_TOKEN_LENGTH = 16;

export interface DispatchRun {
  deliveriesCreated: number;
  claimed: number;
  enqueued: number;
}

/**
 * What the workers run every WEBHOOK_DISPATCH_EVERY_MS in each process: the fan-out, then one
 * `webhooks.deliver` job per delivery due now. A claim (lease, with a token of its own) keeps two
 * dispatchers from handing out the same attempt; a job that could not be enqueued is claimed
 * again when its lease ends.
 */
export class DispatchWebhooks {
  constructor(private readonly deps: { repos: Repositories; queue: JobQueue; clock: Clock; ids: IdGenerator; fanOutEvents: FanOutEvents }) {
    requireDeps('DispatchWebhooks', deps);
  }

  async execute(): Promise<DispatchRun> {
    let deliveriesCreated = 0;
    for (let turn = 0; turn < MAX_FAN_OUT_TURNS; turn++) {
      const result = await this.deps.fanOutEvents.execute();
      if (!result) break;
      deliveriesCreated += result.deliveries;
      if (!result.more) break;
    }
    const now = this.deps.clock.now();
    const token = this.deps.ids.alphanumeric(LEASE_TOKEN_LENGTH);
    const claimed = await this.deps.repos.webhookDeliveries.claimDue(now, new Date(now.getTime() + DELIVERY_LEASE_MS), token, CLAIM_LIMIT);
    let enqueued = 0;
    for (const delivery of claimed) {
      if (await handOver(this.deps.queue, delivery)) enqueued++;
    }
    return { deliveriesCreated, claimed: claimed.length, enqueued };
  }
}

/** The job that makes the claimed delivery's next attempt; false when the queue refused it. */
export async function handOver(queue: JobQueue, delivery: WebhookDelivery): Promise<boolean> {
  try {
    await queue.enqueue(deliverJob(delivery));
    return true;
  } catch {
    return false; // claimed again when the lease ends
  }
}

/**
 * Each claim is handed over once, and its job does nothing unless the delivery still carries the
 * claim's token, so the job needs no jobId (which the in-process queue would remember forever).
 */
export function deliverJob(delivery: WebhookDelivery): Job {
  // Only a claimed delivery is handed over, and a claim is its lease token.
  if (delivery.leaseToken === null) throw new Error(`webhook delivery ${delivery.id} handed over without a claim`);
  return { name: 'webhooks.deliver', data: { deliveryId: delivery.id, leaseToken: delivery.leaseToken } };
}
