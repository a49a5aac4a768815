import type { Job } from '../../../ports/job-queue';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import { copy, type MemoryStore } from './memory-store';

export class MemoryJobOutbox implements JobOutbox {
  constructor(private readonly store: MemoryStore) {}

  async add(job: Required<Job>, at: Date, options: { group?: string } = {}): Promise<void> {
    const rows = this.store.tables.outbox;
    if (rows.some((r) => r.jobId === job.jobId)) return;
    rows.push({ ...copy(job), id: this.store.nextId(), createdAt: at, dispatchedAt: null, group: options.group ?? null, deferred: false });
  }

  async pending(limit: number): Promise<OutboxEntry[]> {
    return this.entries((r) => !r.deferred, limit);
  }

  async pendingInGroup(group: string, limit: number): Promise<OutboxEntry[]> {
    return this.entries((r) => r.group === group, limit);
  }

  async markDispatched(jobIds: string[], at: Date): Promise<void> {
    for (const row of this.store.tables.outbox) if (jobIds.includes(row.jobId) && row.dispatchedAt === null) row.dispatchedAt = at;
  }

  async defer(jobIds: string[]): Promise<void> {
    for (const row of this.store.tables.outbox) if (jobIds.includes(row.jobId) && row.dispatchedAt === null) row.deferred = true;
  }

  private entries(match: (row: MemoryStore['tables']['outbox'][number]) => boolean, limit: number): OutboxEntry[] {
    return copy(
      this.store.tables.outbox
        .filter((r) => r.dispatchedAt === null && match(r))
        .slice(0, limit)
        .map(({ id, name, jobId, data }) => ({ id, name, jobId, data }) as OutboxEntry),
    );
  }
}
