import type { JobName } from '../../../ports/job-queue';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import { copy, type MemoryStore } from './memory-store';

export class MemoryJobOutbox implements JobOutbox {
  constructor(private readonly store: MemoryStore) {}

  async add(job: { name: JobName; data: Record<string, unknown>; jobId: string }, at: Date): Promise<void> {
    const rows = this.store.tables.outbox;
    if (rows.some((r) => r.jobId === job.jobId)) return;
    rows.push({ ...copy(job), id: this.store.nextId(), createdAt: at, dispatchedAt: null });
  }

  async pending(limit: number): Promise<OutboxEntry[]> {
    return copy(
      this.store.tables.outbox
        .filter((r) => r.dispatchedAt === null)
        .slice(0, limit)
        .map(({ id, name, jobId, data }) => ({ id, name, jobId, data })),
    );
  }

  async markDispatched(ids: number[], at: Date): Promise<void> {
    for (const row of this.store.tables.outbox) if (ids.includes(row.id)) row.dispatchedAt = at;
  }
}
