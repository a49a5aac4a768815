import type { Knex } from 'knex';
import { inTransaction } from './in-transaction';
import { compiledRead, type PageValues, pageValues, paged, type ReadValues } from './compiled-reads';
import { flushDeferredWrites } from './deferred-writes';
import { sqlDialect } from './dialect';
import { addToTally, EVENT_TALLY, readTally, tallyTotal } from './tallies';
import type { DomainEvent } from '../../../internal/events/domain-event';
import type { EventType } from '../../../internal/events/event-type';
import { type Page, type PageRequest, totalFromPage } from '../../../internal/shared/page';
import type { EventFilter, EventHeader, EventLog, LoggedEvent } from '../../../ports/event-log';
import type { EventWriting } from '../../events/event-renderer';
import { fromMillis, toMillis } from './rows/columns';

/** Rows per INSERT: far below SQLite's variable limit, one statement for any ordinary change. */
const CHUNK = 200;

type Row = Record<string, any>;

export class KnexEventLog implements EventLog {
  constructor(
    private readonly db: Knex | Knex.Transaction,
    private readonly writing: EventWriting,
  ) {}

  async append(events: DomainEvent[]): Promise<void> {
    const rows = events.map((event) => {
      const eventId = this.writing.newEventId();
      const { resourceId, payload } = this.writing.render(event, eventId);
      return {
        event_id: eventId,
        organization_id: event.organizationId,
        company_id: event.company.id,
        type: event.type,
        resource_id: resourceId,
        payload: JSON.stringify(payload),
        request_id: event.requestId,
        client_user_id: event.clientUserId,
        api_key_prefix: event.apiKeyPrefix,
        created_at: toMillis(event.occurredAt),
      };
    });
    if (rows.length === 0) return;
    // The events and each company's event tally (GET /events' unfiltered total) in one transaction:
    // the change's own, as the outbox requires, or one of their own for a caller outside any.
    await inTransaction(this.db, async (trx) => {
      for (let i = 0; i < rows.length; i += CHUNK) await trx('events').insert(rows.slice(i, i + CHUNK));
      const perCompany = new Map<number, number>();
      for (const row of rows) perCompany.set(row.company_id, (perCompany.get(row.company_id) ?? 0) + 1);
      for (const [companyId, n] of perCompany) await addToTally(trx, EVENT_TALLY, companyId, n);
    });
  }

  async findByEventId(companyId: number, eventId: string): Promise<LoggedEvent | null> {
    const row = await this.db('events').where({ company_id: companyId, event_id: eventId }).first();
    return row ? toLoggedEvent(row) : null;
  }

  async list(companyId: number, filter: EventFilter, page: PageRequest): Promise<Page<LoggedEvent>> {
    const matches: EventMatchValues = { companyId, ...filter };
    const values: EventPageValues = { ...matches, ...pageValues(page) };
    // A read in the transaction that wrote sees its own writes (flushDeferredWrites).
    await flushDeferredWrites(this.db);
    const rows = await eventPage<Row>(this.db, values);
    const unfiltered = !isFiltered(values);
    let total = totalFromPage(page, rows.length);
    if (total === null && unfiltered) total = rows.length > 0 ? Number(rows[0]!.page_total ?? 0) : await readTally(this.db, EVENT_TALLY, companyId);
    if (total === null) total = Number((await eventCount<{ n: number | string }>(this.db, matches))[0]?.n ?? 0);
    return { items: rows.map(toLoggedEvent), total, capped: false };
  }

  async findById(id: number): Promise<LoggedEvent | null> {
    const row = await this.db('events').where('id', id).first();
    return row ? toLoggedEvent(row) : null;
  }

  async lastId(): Promise<number> {
    const [row] = await this.db('events').max({ max: 'id' });
    return Number(row?.max ?? 0);
  }

  async headersAfter(afterId: number, limit: number): Promise<EventHeader[]> {
    const rows = await this.db('events').select(HEADER).where('id', '>', afterId).orderBy('id').limit(limit);
    return rows.map(toHeader);
  }

  async headersIn(ranges: { from: number; to: number }[]): Promise<EventHeader[]> {
    const found: EventHeader[] = [];
    for (let i = 0; i < ranges.length; i += RANGES_PER_QUERY) {
      const chunk = ranges.slice(i, i + RANGES_PER_QUERY);
      const rows = await this.db('events')
        .select(HEADER)
        .where((q) => {
          for (const r of chunk) q.orWhereBetween('id', [r.from, r.to]);
        });
      found.push(...rows.map(toHeader));
    }
    return found.sort((a, b) => a.id - b.id);
  }
}

const HEADER = ['id', 'company_id', 'type', 'resource_id'];
const RANGES_PER_QUERY = 100;

function toHeader(row: Row): EventHeader {
  return { id: Number(row.id), companyId: Number(row.company_id), type: row.type as EventType, resourceId: row.resource_id };
}

/** The events a list matches: the values it binds (compiled-reads.ts); a filter left out is undefined. */
interface EventMatchValues extends ReadValues {
  companyId: number;
  type?: string;
  resourceId?: string;
  createdFrom?: number;
  createdTo?: number;
}

type EventPageValues = EventMatchValues & PageValues;

const isFiltered = (v: EventMatchValues) => v.type !== undefined || v.resourceId !== undefined || v.createdFrom !== undefined || v.createdTo !== undefined;

/** Narrowed by a creation window and nothing else: the page's ids come from the window's index. */
const byWindowAlone = (v: EventMatchValues) => (v.createdFrom !== undefined || v.createdTo !== undefined) && v.type === undefined && v.resourceId === undefined;
const WINDOW_INDEX = 'events_company_id_created_at_index';

function matchingEvents(db: Knex | Knex.Transaction, v: EventMatchValues, from: string | Knex.Raw = 'events'): Knex.QueryBuilder {
  const query = db.from(from).where('company_id', v.companyId);
  if (v.type !== undefined) query.where('type', v.type);
  if (v.resourceId !== undefined) query.where('resource_id', v.resourceId);
  if (v.createdFrom !== undefined) query.where('created_at', '>=', v.createdFrom);
  if (v.createdTo !== undefined) query.where('created_at', '<=', v.createdTo);
  return query;
}

/**
 * Newest first. A page that is not full tells the total. Otherwise, without a filter, the total is
 * the company's event tally, riding on the page's statement (an uncorrelated subquery, run once);
 * with one, eventCount. A creation window alone (an integrator reading the events since a day) is
 * read from the (company_id, created_at, id) index: the page's ids sorted once the window's range
 * is read, then only their rows (the payloads); walking the company's events newest first instead
 * passed every event newer than the window, and sorting the whole rows read every payload in it.
 * The page reads no more entries than the total's count of the same window does.
 */
const eventPage = compiledRead((db, v: EventPageValues) => {
  const columns: (string | Knex.QueryBuilder)[] = ['events.*'];
  if (!isFiltered(v)) columns.push(tallyTotal(db, EVENT_TALLY, v.companyId).as('page_total'));
  if (!byWindowAlone(v)) return paged(matchingEvents(db, v).select(columns).orderBy('id', 'desc'), v);
  const dialect = sqlDialect(db);
  const window = matchingEvents(db, v, dialect.alongIndex(db, 'events', 'w', WINDOW_INDEX));
  const ids = paged(window.select('w.id').orderBy(dialect.sortedAfterRange(db, 'w.id'), 'desc'), v);
  return db.from(ids.as('pg')).join('events', 'events.id', 'pg.id').select(columns).orderBy('events.id', 'desc');
});

const eventCount = compiledRead((db, v: EventMatchValues) => matchingEvents(db, v).count({ n: '*' }));

function toLoggedEvent(row: Row): LoggedEvent {
  return new StoredEvent(row);
}

/**
 * A logged event as read, its payload parsed on first read: a page of events only writes the
 * stored text into its answer. A class, not an object literal with a getter: V8 builds such a
 * literal slowly, a getter closure and accessor pair per row (36 µs a page of 50 against 3.6), and
 * with its garbage it took a page of events from its floor's API CPU to half again more
 * (docs/performance.md).
 */
class StoredEvent implements LoggedEvent {
  readonly id: number;
  readonly eventId: string;
  readonly organizationId: number;
  readonly companyId: number;
  readonly type: EventType;
  readonly resourceId: string;
  readonly payloadJson: string;
  readonly requestId: string | null;
  readonly clientUserId: number | null;
  readonly apiKeyPrefix: string | null;
  readonly createdAt: Date;
  /** A private field, not a property: two reads of one event stay deeply equal whichever was parsed. */
  #parsed: Record<string, unknown> | undefined = undefined;

  constructor(row: Row) {
    this.id = Number(row.id);
    this.eventId = row.event_id;
    this.organizationId = Number(row.organization_id);
    this.companyId = Number(row.company_id);
    this.type = row.type as EventType;
    this.resourceId = row.resource_id;
    this.payloadJson = row.payload;
    this.requestId = row.request_id ?? null;
    this.clientUserId = row.client_user_id === null ? null : Number(row.client_user_id);
    this.apiKeyPrefix = row.api_key_prefix ?? null;
    this.createdAt = fromMillis(row.created_at);
  }

  get payload(): Record<string, unknown> {
    return (this.#parsed ??= JSON.parse(this.payloadJson) as Record<string, unknown>);
  }
}
