import type { EventFilter, EventLog, LoggedEvent } from '../../../ports/event-log';
import { exactCreatedRange } from '../../shared/created-range';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { EventType } from '../event-type';

export interface ListEventsInput {
  type?: EventType;
  resourceId?: string;
  createdAtFrom?: string;
  createdAtTo?: string;
}

/**
 * GET /events: the company's events, newest first (write order). createdAt bounds compare to
 * the millisecond, a plain date covering its UTC day, like GET /payment-links.
 */
export class ListEvents {
  constructor(private readonly deps: { events: EventLog }) {
    requireDeps('ListEvents', deps);
  }

  execute(input: ListEventsInput, page: PageRequest, scope: TenantScope): Promise<Page<LoggedEvent>> {
    const { from, to } = exactCreatedRange(input.createdAtFrom, input.createdAtTo);
    const filter: EventFilter = { type: input.type, resourceId: input.resourceId, createdFrom: from, createdTo: to };
    return this.deps.events.list(scope.company.id, filter, page);
  }
}
