import type { Knex } from 'knex';
import type { Job, JobName } from '../../../ports/job-queue';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import { sqlDialect } from './dialect';
import { toMillis } from './rows/columns';
import { inTransaction } from './in-transaction';
import { flushDeferredWrites, insertRows } from './deferred-writes';

export class KnexJobOutbox implements JobOutbox {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async add(job: Required<Job>, at: Date, options: { group?: string } = {}): Promise<void> {
    // The same jobId twice (a retried request) is one entry. In a unit of work the entry goes in
    // just before the commit, with the others of the transaction (deferred-writes.ts).
    const entry = {
      job_name: job.name,
      job_id: job.jobId,
      data: JSON.stringify(job.data),
      created_at: toMillis(at),
      dispatched_at: null,
      group_key: options.group ?? null,
      deferred: false,
    };
    await insertRows(this.db, 'job_outbox', [entry], ['job_id']);
  }

  async pending(limit: number): Promise<OutboxEntry[]> {
    await flushDeferredWrites(this.db);
    const rows = await this.db('job_outbox').whereNull('dispatched_at').where('deferred', false).orderBy('id').limit(limit);
    return rows.map(toEntry);
  }

  async pendingInGroup(group: string, limit: number): Promise<OutboxEntry[]> {
    await flushDeferredWrites(this.db);
    const rows = await this.db('job_outbox').where('group_key', group).whereNull('dispatched_at').orderBy('id').limit(limit);
    return rows.map(toEntry);
  }

  async markDispatched(jobIds: string[], at: Date): Promise<void> {
    if (jobIds.length === 0) return;
    await flushDeferredWrites(this.db);
    // Several dispatchers (every API and worker process, and the commit that wrote the entry)
    // hand over overlapping entries. Each marks only those it can lock at once: an entry another
    // dispatcher is marking is being marked dispatched anyway. Without that, two UPDATEs of
    // overlapping entries could lock them in different orders and deadlock (PostgreSQL did, each
    // time waiting out its deadlock_timeout).
    // (Found through the job_id key and updated by primary key: a range of the dispatched_at index
    // would also wait on the index entries the other dispatcher's UPDATE moved.)
    await inTransaction(this.db, async (trx) => {
      const free: { id: number; dispatched_at: unknown }[] = await sqlDialect(trx).lockRows(trx('job_outbox').whereIn('job_id', jobIds).orderBy('id').select('id', 'dispatched_at'), { skipLocked: true });
      const pending = free.filter((r) => r.dispatched_at === null).map((r) => r.id);
      if (pending.length > 0) await trx('job_outbox').whereIn('id', pending).update({ dispatched_at: toMillis(at) });
    });
  }

  async defer(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await flushDeferredWrites(this.db);
    await this.db('job_outbox').whereIn('job_id', jobIds).whereNull('dispatched_at').update({ deferred: true });
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
