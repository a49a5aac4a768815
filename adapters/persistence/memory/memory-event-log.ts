import type { DomainEvent } from '../../../internal/events/domain-event';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { EventFilter, EventHeader, EventLog, LoggedEvent } from '../../../ports/event-log';
import type { EventWriting } from '../../events/event-renderer';
import { copy, type MemoryStore } from './memory-store';

export class MemoryEventLog implements EventLog {
  constructor(
    private readonly store: MemoryStore,
    private readonly writing: EventWriting,
  ) {}

  async append(events: DomainEvent[]): Promise<void> {
    for (const event of events) {
      const eventId = this.writing.newEventId();
      const { resourceId, payload } = this.writing.render(event, eventId);
      this.store.tables.events.push({
        // Consecutive like an auto-increment column of its own (the fan-out reads the log by id).
        id: (this.store.tables.events.at(-1)?.id ?? 0) + 1,
        eventId,
        organizationId: event.organizationId,
        companyId: event.company.id,
        type: event.type,
        resourceId,
        payload: copy(payload) as unknown as Record<string, unknown>,
        payloadJson: JSON.stringify(payload),
        requestId: event.requestId,
        clientUserId: event.clientUserId,
        apiKeyPrefix: event.apiKeyPrefix,
        createdAt: new Date(event.occurredAt.getTime()),
      });
    }
  }

  async findByEventId(companyId: number, eventId: string): Promise<LoggedEvent | null> {
    const found = this.store.tables.events.find((e) => e.companyId === companyId && e.eventId === eventId);
    return found ? copy(found) : null;
  }

  async list(companyId: number, filter: EventFilter, page: PageRequest): Promise<Page<LoggedEvent>> {
    const matching = this.store.tables.events
      .filter(
        (e) =>
          e.companyId === companyId &&
          (filter.type === undefined || e.type === filter.type) &&
          (filter.resourceId === undefined || e.resourceId === filter.resourceId) &&
          (filter.createdFrom === undefined || e.createdAt.getTime() >= filter.createdFrom) &&
          (filter.createdTo === undefined || e.createdAt.getTime() <= filter.createdTo),
      )
      .sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return { items: copy(matching.slice(start, start + page.limit)), total: matching.length, capped: false };
  }

  async findById(id: number): Promise<LoggedEvent | null> {
    const found = this.store.tables.events.find((e) => e.id === id);
    return found ? copy(found) : null;
  }

  async lastId(): Promise<number> {
    return this.store.tables.events.reduce((max, e) => Math.max(max, e.id), 0);
  }

  async headersAfter(afterId: number, limit: number): Promise<EventHeader[]> {
    return this.headers((e) => e.id > afterId).slice(0, limit);
  }

  async headersIn(ranges: { from: number; to: number }[]): Promise<EventHeader[]> {
    return this.headers((e) => ranges.some((r) => e.id >= r.from && e.id <= r.to));
  }

  private headers(keep: (e: LoggedEvent) => boolean): EventHeader[] {
    return this.store.tables.events
      .filter(keep)
      .sort((a, b) => a.id - b.id)
      .map((e) => ({ id: e.id, companyId: e.companyId, type: e.type, resourceId: e.resourceId }));
  }
}
