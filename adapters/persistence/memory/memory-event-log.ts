import type { DomainEvent } from '../../../internal/events/domain-event';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { EventFilter, EventLog, LoggedEvent } from '../../../ports/event-log';
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
        id: this.store.nextId(),
        eventId,
        organizationId: event.organizationId,
        companyId: event.company.id,
        type: event.type,
        resourceId,
        payload: copy(payload) as unknown as Record<string, unknown>,
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
}
