import { GroupCommit, type GroupOutcome, MAX_GROUPS_IN_FLIGHT } from '../shared/group-commit';
import type { DebtWriteItem, DebtWriteOutcome, DebtWriter } from './debt-writer';

/** At most this many requests share one write. */
export const MAX_GROUP_SIZE = 50;

/**
 * Group commit for single debt creations (internal/shared/group-commit.ts), with a write of its
 * own: requests of one company that arrive in the same turn of the event loop are written by the
 * DebtWriter together, one read per kind of reference, one multi-row insert and one transaction,
 * instead of one of each per request. Each request keeps its own outcome (its debt, its replay,
 * or its own error), exactly as if it had been written alone.
 *
 * - Requests with the same key in one group: the first is written, the others answer its debt as
 *   a replay (or, if it failed, go into the next group, where they are tried on their own merits).
 * - A write that fails for a reason other than a domain error is retried request by request
 *   (GroupCommit), so one bad request cannot fail the others.
 */
export class GroupedDebtCreations {
  private readonly groups: GroupCommit<DebtWriteItem, DebtWriteOutcome>;

  constructor(
    private readonly writer: DebtWriter,
    defer?: (flush: () => void) => void,
  ) {
    this.groups = new GroupCommit((items) => this.write(items), { maxGroupSize: MAX_GROUP_SIZE, maxInFlight: MAX_GROUPS_IN_FLIGHT, defer });
  }

  submit(item: DebtWriteItem): Promise<DebtWriteOutcome> {
    return this.groups.submit(item.scope.company.id, item);
  }

  private async write(items: DebtWriteItem[]): Promise<GroupOutcome<DebtWriteOutcome>[]> {
    const leaders = new Map<string, number>();
    items.forEach((item, i) => {
      if (!leaders.has(item.externalRequestId)) leaders.set(item.externalRequestId, i);
    });
    const written = await this.writer.write(
      [...leaders.values()].map((i) => items[i]!),
      { kind: 'single' },
    );
    const byKey = new Map([...leaders.keys()].map((key, n) => [key, written[n]!]));
    return items.map((item, i): GroupOutcome<DebtWriteOutcome> => {
      const first = byKey.get(item.externalRequestId)!;
      if (leaders.get(item.externalRequestId) === i) return { ok: true, value: first };
      if (first.debt) return { ok: true, value: { debt: first.debt, created: false } };
      return { again: true };
    });
  }
}
