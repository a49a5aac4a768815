import type { DomainEvent } from '../internal/events/domain-event';
import type { EventType } from '../internal/events/event-type';
import type { Page, PageRequest } from '../internal/shared/page';

/** An event as stored: its public object was rendered once, when it was written. */
export interface LoggedEvent {
  /** Write order: a later event of the same resource has a larger id. */
  id: number;
  eventId: string;
  organizationId: number;
  companyId: number;
  type: EventType;
  /** Public id of the resource (debt_…, plk_…, sub_…, con_…, prd_…). */
  resourceId: string;
  /** The public event object: `{ eventId, type, createdAt, companyCode, data: { object }, requestId }`. */
  payload: Record<string, unknown>;
  /** `payload` as stored, JSON text: a page of events writes it into its answer as it is. */
  payloadJson: string;
  requestId: string | null;
  clientUserId: number | null;
  apiKeyPrefix: string | null;
  createdAt: Date;
}

/** What the fan-out needs of an event to pick its endpoints (the payload stays unread). */
export type EventHeader = Pick<LoggedEvent, 'id' | 'companyId' | 'type' | 'resourceId'>;

export interface EventFilter {
  type?: EventType;
  resourceId?: string;
  /** Inclusive bounds on createdAt, epoch milliseconds. */
  createdFrom?: number;
  createdTo?: number;
}

/**
 * The outbound events, written in the transaction of the change they report (an outbox): an
 * event exists exactly when its change committed. Workers publish them afterwards.
 */
export interface EventLog {
  /** Appends the events, in order, to the caller's transaction. */
  append(events: DomainEvent[]): Promise<void>;
  findByEventId(companyId: number, eventId: string): Promise<LoggedEvent | null>;
  /** The company's events, newest first. */
  list(companyId: number, filter: EventFilter, page: PageRequest): Promise<Page<LoggedEvent>>;
  /** By row id (what deliveries refer to). */
  findById(id: number): Promise<LoggedEvent | null>;
  /** The largest row id written so far (0 for none). */
  lastId(): Promise<number>;
  /** Up to `limit` events after row `afterId`, ascending: the fan-out reads the log with it. */
  headersAfter(afterId: number, limit: number): Promise<EventHeader[]>;
  /** Events whose row id falls in one of the ranges (inclusive), ascending. */
  headersIn(ranges: { from: number; to: number }[]): Promise<EventHeader[]>;
}
