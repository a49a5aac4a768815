import type { EventFilter, EventHeader, EventLog, LoggedEvent } from '../../ports/event-log';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import type { DomainEvent } from '../events/domain-event';
import type { Page, PageRequest } from './page';

/**
 * Group commit: requests that arrive in the same turn of the event loop are written together,
 * one write (one transaction) for the group instead of one per request, while each request keeps
 * its own outcome: its result, or its own error, exactly as if it had been written alone. Under
 * light traffic a group is a single request and nothing waits. Under load, with `maxInFlight`,
 * what arrives while a key's writes are under way waits for one of them to end and goes in the
 * next group, so groups grow with the load instead of each turn starting a transaction of its own.
 *
 * The one mechanism behind every create's coalescing: `GroupCommit` gathers the requests and hands
 * a group to `write`; `TransactionGroups` (below) is the write every unit of work offers as
 * `UnitOfWork.runGrouped`, and the v2 debts give it a multi-row write of their own
 * (GroupedDebtCreations).
 */

/**
 * What a group write answers for one request: its value, the error that request alone meets, or
 * `again`: the request goes into the key's next group (a duplicate of a request that failed).
 */
export type GroupOutcome<O> = { ok: true; value: O } | { ok: false; error: unknown } | { again: true };

export interface GroupCommitOptions {
  /** At most this many requests share one write; more in the same turn make more groups. */
  maxGroupSize: number;
  /**
   * At most this many groups of one key are written at once (default: no limit); the requests
   * that arrive meanwhile wait, and the first write to end takes them as its key's next group.
   */
  maxInFlight?: number;
  /** Schedules the flush of what arrived in this turn (default: setImmediate). */
  defer?: (flush: () => void) => void;
}

interface Waiting<I, O> {
  item: I;
  resolve(value: O): void;
  reject(error: unknown): void;
}

/**
 * Gathers submissions by key (requests of different keys never share a write) and writes each
 * key's group with `write`, which answers one outcome per item, in order. When `write` itself
 * throws, the group's items are written again one by one, so one bad request cannot fail the
 * others: `write` must leave nothing behind when it throws (a transaction that rolled back).
 */
export class GroupCommit<I, O> {
  private readonly waiting = new Map<string | number, Waiting<I, O>[]>();
  /** Groups being written, per key. */
  private readonly writing = new Map<string | number, number>();
  private scheduled = false;
  private readonly defer: (flush: () => void) => void;

  constructor(
    private readonly write: (items: I[]) => Promise<GroupOutcome<O>[]>,
    private readonly options: GroupCommitOptions,
  ) {
    this.defer = options.defer ?? ((flush) => setImmediate(flush));
  }

  submit(key: string | number, item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      const queue = this.waiting.get(key);
      if (queue) queue.push({ item, resolve, reject });
      else this.waiting.set(key, [{ item, resolve, reject }]);
      if (!this.scheduled) {
        this.scheduled = true;
        this.defer(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    for (const key of [...this.waiting.keys()]) this.start(key);
  }

  /** Starts as many of the key's waiting groups as its writes under way leave room for. */
  private start(key: string | number): void {
    const queue = this.waiting.get(key);
    if (!queue) return;
    const limit = this.options.maxInFlight ?? Infinity;
    let running = this.writing.get(key) ?? 0;
    while (queue.length > 0 && running < limit) {
      running += 1;
      const group = queue.splice(0, this.options.maxGroupSize);
      // The slot is given back however the write ends: a key whose slot leaked would wait forever.
      void this.writeGroup(group).then(
        (again) => this.ended(key, again),
        () => this.ended(key, []),
      );
    }
    this.writing.set(key, running);
    if (queue.length === 0) this.waiting.delete(key);
  }

  /** A write of `key` ended: its requests to try again go first, then the next group starts. */
  private ended(key: string | number, again: Waiting<I, O>[]): void {
    const running = (this.writing.get(key) ?? 1) - 1;
    if (running === 0) this.writing.delete(key);
    else this.writing.set(key, running);
    if (again.length > 0) this.waiting.set(key, [...again, ...(this.waiting.get(key) ?? [])]);
    this.start(key);
  }

  /** Writes one group and answers its requests; returns those that go into the next group. */
  private async writeGroup(group: Waiting<I, O>[]): Promise<Waiting<I, O>[]> {
    let outcomes: GroupOutcome<O>[];
    try {
      outcomes = await this.write(group.map((w) => w.item));
    } catch (error) {
      if (group.length === 1) {
        group[0]!.reject(error);
        return [];
      }
      // Alone, each request meets only its own failure.
      const alone = await Promise.all(group.map((waiting) => this.writeGroup([waiting])));
      return alone.flat();
    }
    const again: Waiting<I, O>[] = [];
    group.forEach((waiting, i) => {
      const outcome = outcomes[i];
      if (outcome === undefined) waiting.reject(new Error('the group write answered no outcome for this request'));
      else if ('again' in outcome) again.push(waiting);
      else if (outcome.ok) waiting.resolve(outcome.value);
      else waiting.reject(outcome.error);
    });
    return again;
  }
}

/**
 * Runs `work` in one transaction. `sharedBy` is how many works of a group run side by side in it
 * (TransactionGroupsOptions.concurrent), 1 for a work alone or for works run one after the other:
 * an adapter that batches the statements of works side by side (one multi-row INSERT for the rows
 * they insert meanwhile) is told so here.
 */
export type GroupTransaction = <T>(work: (repos: Repositories) => Promise<T>, sharedBy: number) => Promise<T>;

export interface TransactionGroupsOptions extends GroupCommitOptions {
  /**
   * The works of a group start together and interleave at their awaits, instead of running one
   * after the other: their like statements meet and the adapter can write them as one (a group
   * of payment links is one INSERT of debts and one of links, not one of each per link). The
   * unit of work must then keep one work's handled failure from undoing the others' writes (the
   * Knex one: shared-transaction.ts).
   */
  concurrent?: boolean;
}

/**
 * `UnitOfWork.runGrouped` for any unit of work: the works of a group run in one transaction of
 * `run`, which commits once, one after the other or, with `concurrent`, side by side. When any of
 * them throws, that transaction rolls back whole (after every work of the group has settled) and
 * every work of the group runs again alone (GroupCommit), so each caller gets its own result or
 * its own error, and a work must keep all its effects inside the transaction: it may run twice, of
 * which only one commits.
 *
 * The events the group's works append are written together just before the commit (one
 * multi-row INSERT instead of one per work), in the order the works appended them.
 */
export class TransactionGroups {
  private readonly groups: GroupCommit<(repos: Repositories) => Promise<unknown>, unknown>;

  constructor(run: GroupTransaction, options: TransactionGroupsOptions) {
    const together = options.concurrent === true;
    this.groups = new GroupCommit(
      (works) =>
        run(
          async (repos) => {
            const events = new BufferedEventLog(repos.events);
            const shared: Repositories = { ...repos, events };
            const outcomes: GroupOutcome<unknown>[] = [];
            if (together && works.length > 1) {
              // Every work settles before the transaction ends, so none writes after its rollback.
              const settled = await Promise.allSettled(works.map((work) => work(shared)));
              for (const result of settled) {
                if (result.status === 'rejected') throw result.reason;
                outcomes.push({ ok: true, value: result.value });
              }
            } else {
              for (const work of works) outcomes.push({ ok: true, value: await work(shared) });
            }
            await events.flush();
            return outcomes;
          },
          together ? works.length : 1,
        ),
      options,
    );
  }

  run<T>(key: string | number, work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.groups.submit(key, work) as Promise<T>;
  }
}

/**
 * An EventLog whose appends are held until `flush`; anything else asked of it flushes first, so
 * a read inside the group sees what the group appended.
 */
class BufferedEventLog implements EventLog {
  private pending: DomainEvent[] = [];

  constructor(private readonly log: EventLog) {}

  async append(events: DomainEvent[]): Promise<void> {
    this.pending.push(...events);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0) return;
    const events = this.pending;
    this.pending = [];
    await this.log.append(events);
  }

  async findByEventId(companyId: number, eventId: string): Promise<LoggedEvent | null> {
    await this.flush();
    return this.log.findByEventId(companyId, eventId);
  }

  async list(companyId: number, filter: EventFilter, page: PageRequest): Promise<Page<LoggedEvent>> {
    await this.flush();
    return this.log.list(companyId, filter, page);
  }

  async findById(id: number): Promise<LoggedEvent | null> {
    await this.flush();
    return this.log.findById(id);
  }

  async lastId(): Promise<number> {
    await this.flush();
    return this.log.lastId();
  }

  async headersAfter(afterId: number, limit: number): Promise<EventHeader[]> {
    await this.flush();
    return this.log.headersAfter(afterId, limit);
  }

  async headersIn(ranges: { from: number; to: number }[]): Promise<EventHeader[]> {
    await this.flush();
    return this.log.headersIn(ranges);
  }
}

/** Requests that share one transaction at most (a group holds its rows' locks until it commits). */
export const MAX_TRANSACTION_GROUP = 32;

/**
 * Groups of one key (an organization, a company) written at once where a group's works share
 * their statements: one commits while the next runs, and what arrives meanwhile waits and joins
 * the group after them instead of starting a transaction of its own. At 32 connections a create
 * then makes 0.5–0.8 statements instead of 0.9–1.3, and the database spends about a tenth less
 * CPU on it (docs/performance.md); one at a time halved the statements again and saved the
 * database a third, but left the API idle while a group committed.
 */
export const MAX_GROUPS_IN_FLIGHT = 2;

/**
 * A UnitOfWork from its `run`: `runGrouped` groups over that same `run` (TransactionGroups), its
 * works one after the other. A test's wrapper around a unit of work is built with it.
 */
export function unitOfWork(run: <T>(work: (repos: Repositories) => Promise<T>) => Promise<T>): UnitOfWork {
  const groups = new TransactionGroups((work) => run(work), { maxGroupSize: MAX_TRANSACTION_GROUP, maxInFlight: MAX_GROUPS_IN_FLIGHT });
  return { run, runGrouped: (key, work) => groups.run(key, work) };
}
