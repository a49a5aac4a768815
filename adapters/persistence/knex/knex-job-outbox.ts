import type { Knex } from 'knex';
import type { Job, JobName } from '../../../ports/job-queue';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import { toMillis } from './rows/columns';

export class KnexJobOutbox implements JobOutbox {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async add(job: Required<Job>, at: Date, options: { group?: string } = {}): Promise<void> {
    // The same jobId twice (a retried request) is one entry.
    await this.db('job_outbox')
      .insert({
        job_name: job.name,
        job_id: job.jobId,
        data: JSON.stringify(job.data),
        created_at: toMillis(at),
        dispatched_at: null,
        group_key: options.group ?? null,
        deferred: false,
      })
      .onConflict('job_id')
      .ignore();
  }

  async pending(limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db('job_outbox').whereNull('dispatched_at').where('deferred', false).orderBy('id').limit(limit);
    return rows.map(toEntry);
  }

  async pendingInGroup(group: string, limit: number): Promise<OutboxEntry[]> {
    const rows = await this.db('job_outbox').where('group_key', group).whereNull('dispatched_at').orderBy('id').limit(limit);
    return rows.map(toEntry);
  }

  async markDispatched(ids: number[], at: Date): Promise<void> {
    if (ids.length === 0) return;
    await this.db('job_outbox').whereIn('id', ids).update({ dispatched_at: toMillis(at) });
  }

  async defer(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.db('job_outbox').whereIn('id', ids).whereNull('dispatched_at').update({ deferred: true });
  }
}

function toEntry(r: Record<string, any>): OutboxEntry {
  // The payload its producer typed for that name (JobPayloads), back from JSON.
  return { id: Number(r.id), name: r.job_name as JobName, jobId: r.job_id, data: JSON.parse(r.data) } as OutboxEntry;
}

/** The outbox's pending entries and the oldest one's creation (cf_outbox_* metrics); one indexed read. */
export async function outboxBacklog(db: Knex): Promise<{ pending: number; oldestCreatedAtMs: number | null }> {
  const row = (await db('job_outbox').whereNull('dispatched_at').where('deferred', false).count({ pending: '*' }).min({ oldest: 'created_at' }).first()) as
    | { pending: number | string; oldest: number | string | null }
    | undefined;
  return { pending: Number(row?.pending ?? 0), oldestCreatedAtMs: row?.oldest == null ? null : Number(row.oldest) };
}
