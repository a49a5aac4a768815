import type { DeliveryAttempt, DeliveryStatus, NewDelivery, WebhookDelivery } from '../internal/webhooks/delivery';
import type { FanOutCursor } from '../internal/webhooks/fan-out-cursor';

/** Counts a metrics collector reads (see docs/webhooks.md). */
export interface DeliveryStats {
  deliveries: Record<DeliveryStatus, number>;
  attempts: { succeeded: number; failed: number };
}

export interface AttemptOutcome {
  attempt: Omit<DeliveryAttempt, 'deliveryId'>;
  status: DeliveryStatus;
  roundAttempts: number;
  nextAttemptAt: Date | null;
  at: Date;
}

/**
 * Webhook deliveries (one per event and endpoint), their attempts, and the fan-out cursor. The
 * workers write them; the API's request path never does (redelivery and endpoint changes aside).
 */
export interface WebhookDeliveryRepository {
  /**
   * Locks the fan-out cursor until the transaction ends; null when another process holds it
   * (that process is fanning out: skip this turn rather than wait).
   */
  lockCursor(): Promise<FanOutCursor | null>;
  saveCursor(cursor: FanOutCursor, at: Date): Promise<void>;
  /** Inserts the deliveries whose (event, endpoint) pair has none yet; skips the others. */
  insertMissing(deliveries: NewDelivery[]): Promise<void>;
  /**
   * Claims up to `limit` PENDING deliveries due at `now` and not claimed by a live lease, each
   * the earliest PENDING one of its endpoint and resource (per-resource order), oldest due first:
   * they carry `token` until `leaseUntil`.
   */
  claimDue(now: Date, leaseUntil: Date, token: string, limit: number): Promise<WebhookDelivery[]>;
  /** The same claim for the next delivery of one endpoint and resource (after one completed). */
  claimNextOf(endpointId: number, resourceId: string, now: Date, leaseUntil: Date, token: string): Promise<WebhookDelivery | null>;
  findById(id: number): Promise<WebhookDelivery | null>;
  /**
   * Records an attempt of a delivery still claimed with `token` and applies its outcome; false
   * (nothing written) when the claim was lost (redelivered, or claimed again after its lease).
   */
  recordAttempt(id: number, token: string, outcome: AttemptOutcome): Promise<boolean>;
  /** PENDING → CANCELLED for one claimed delivery (its endpoint was disabled or deleted). */
  cancelClaimed(id: number, token: string, at: Date): Promise<boolean>;
  /** PENDING → CANCELLED for every delivery of the endpoint. */
  cancelPendingOfEndpoint(endpointId: number, at: Date): Promise<void>;
  /** The event's deliveries (oldest first) with their attempts. */
  ofEvent(eventRowId: number): Promise<{ delivery: WebhookDelivery; attempts: DeliveryAttempt[] }[]>;
  /**
   * Redelivery: each endpoint's delivery of the event becomes PENDING, due at `at`, with a fresh
   * retry schedule (attempts keep counting); an endpoint without one gets a new delivery.
   */
  reopen(event: { rowId: number; companyId: number; resourceId: string }, endpointIds: number[], at: Date): Promise<void>;
  stats(): Promise<DeliveryStats>;
}
