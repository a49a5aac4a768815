import type { DebtWriteItem, DebtWriteOutcome, DebtWriter } from './debt-writer';

/** At most this many requests share one write. */
export const MAX_GROUP_SIZE = 50;

interface Waiting {
  item: DebtWriteItem;
  resolve(outcome: DebtWriteOutcome): void;
  reject(error: unknown): void;
}

/**
 * Group commit for single debt creations. Requests of one company that arrive in the same turn
 * of the event loop are written together: one read per kind of reference, one multi-row insert
 * and one transaction, instead of one of each per request. Each request keeps its own outcome
 * (its debt, its replay, or its own error), exactly as if it had been written alone; under light
 * traffic a group is a single request and nothing waits.
 *
 * - Requests with the same key in one group: the first is written, the others answer its debt as
 *   a replay (or, if it failed, go into the next group, where they are tried on their own merits).
 * - A write that fails for a reason other than a domain error is retried request by request, so
 *   one bad request cannot fail the others.
 */
export class GroupedDebtCreations {
  private readonly waiting = new Map<number, Waiting[]>();
  private scheduled = false;

  constructor(
    private readonly writer: DebtWriter,
    private readonly defer: (flush: () => void) => void = (flush) => setImmediate(flush),
  ) {}

  submit(item: DebtWriteItem): Promise<DebtWriteOutcome> {
    return new Promise((resolve, reject) => {
      const companyId = item.scope.company.id;
      const queue = this.waiting.get(companyId) ?? [];
      queue.push({ item, resolve, reject });
      this.waiting.set(companyId, queue);
      if (!this.scheduled) {
        this.scheduled = true;
        this.defer(() => this.flush());
      }
    });
  }

  private flush(): void {
    this.scheduled = false;
    const queues = [...this.waiting.values()];
    this.waiting.clear();
    for (const queue of queues) {
      for (let i = 0; i < queue.length; i += MAX_GROUP_SIZE) void this.write(queue.slice(i, i + MAX_GROUP_SIZE));
    }
  }

  private async write(group: Waiting[]): Promise<void> {
    const leaders = new Map<string, Waiting>();
    const followers: Waiting[] = [];
    for (const waiting of group) {
      if (leaders.has(waiting.item.externalRequestId)) followers.push(waiting);
      else leaders.set(waiting.item.externalRequestId, waiting);
    }
    let outcomes: DebtWriteOutcome[];
    try {
      outcomes = await this.writer.write(
        [...leaders.values()].map((w) => w.item),
        { kind: 'single' },
      );
    } catch (error) {
      if (group.length === 1) return group[0]!.reject(error);
      // Alone, each request meets only its own failure.
      for (const waiting of group) void this.write([waiting]);
      return;
    }
    const byKey = new Map<string, DebtWriteOutcome>();
    [...leaders.values()].forEach((waiting, index) => {
      byKey.set(waiting.item.externalRequestId, outcomes[index]!);
      waiting.resolve(outcomes[index]!);
    });
    for (const follower of followers) {
      const first = byKey.get(follower.item.externalRequestId)!;
      if (first.debt) follower.resolve({ debt: first.debt, created: false });
      else this.submit(follower.item).then(follower.resolve, follower.reject);
    }
  }
}
