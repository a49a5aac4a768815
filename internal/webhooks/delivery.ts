import type { AttemptError } from './attempt-error';

/**
 * One event's delivery to one endpoint. PENDING until an attempt gets a 2xx (SUCCEEDED), the
 * retry schedule is used up (FAILED), or the endpoint is disabled or deleted (CANCELLED).
 * Redelivery makes any of them PENDING again.
 */
export const DELIVERY_STATUSES = ['PENDING', 'SUCCEEDED', 'FAILED', 'CANCELLED'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface WebhookDelivery {
  id: number;
  /** The event's row in the event log (its write order). */
  eventRowId: number;
  endpointId: number;
  companyId: number;
  /** The event's resource: one endpoint gets one resource's events in event order. */
  resourceId: string;
  status: DeliveryStatus;
  /** Attempts made, over every round. */
  attempts: number;
  /** Attempts since the delivery was (re)opened: what the retry schedule counts. */
  roundAttempts: number;
  /** When PENDING: when the next attempt is due. */
  nextAttemptAt: Date | null;
  /** The claim of the dispatcher that handed the attempt to a job; null when unclaimed. */
  leaseToken: string | null;
  lockedUntil: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export type NewDelivery = Omit<WebhookDelivery, 'id' | 'leaseToken' | 'lockedUntil'>;

export interface DeliveryAttempt {
  deliveryId: number;
  /** 1 for the first attempt of the delivery, counting on across redeliveries. */
  attempt: number;
  attemptedAt: Date;
  /** The answer's status; null when none came (timeout, refused connection, bad address). */
  statusCode: number | null;
  /** Why it failed, as a class (never the transport's message); null when it succeeded. */
  error: AttemptError | null;
  durationMs: number;
  succeeded: boolean;
}

/** A new delivery of an event to an endpoint, due at once. */
export function newDelivery(event: { rowId: number; companyId: number; resourceId: string }, endpointId: number, now: Date): NewDelivery {
  return {
    eventRowId: event.rowId,
    endpointId,
    companyId: event.companyId,
    resourceId: event.resourceId,
    status: 'PENDING',
    attempts: 0,
    roundAttempts: 0,
    nextAttemptAt: now,
    createdAt: now,
    updatedAt: now,
  };
}
