import type { Knex } from 'knex';

/**
 * The exact total of a company's unfiltered debt list without counting rows (migration
 * 20261129100000_debt_tallies): every debt write adds what it changed to the count of live (not
 * CANCELLED) debts in the same transaction, to one of DEBT_TALLY_SHARDS rows of the company chosen
 * at random, so concurrent writers rarely wait on the same row; a read sums the company's rows.
 *
 * A transaction keeps to the one shard it drew first: a grouped transaction (many creates in one,
 * see UnitOfWork.runGrouped) that drew a shard per write would hold several rows of the company,
 * taken in random order, and two of them would deadlock (PostgreSQL then waits out its
 * deadlock_timeout before breaking it; InnoDB breaks it at once, and the group runs again alone).
 */
export const DEBT_TALLY_SHARDS = 16;

/** The shard each open transaction drew (gone with the transaction object). */
const shardOfTransaction = new WeakMap<object, number>();

function shardFor(db: Knex | Knex.Transaction): number {
  if (!db.isTransaction) return Math.floor(Math.random() * DEBT_TALLY_SHARDS);
  let shard = shardOfTransaction.get(db);
  if (shard === undefined) {
    shard = Math.floor(Math.random() * DEBT_TALLY_SHARDS);
    shardOfTransaction.set(db, shard);
  }
  return shard;
}

/** Whether a debt in this status counts in the unfiltered list (and so in the tally). */
export function isLive(status: string): boolean {
  return status !== 'CANCELLED';
}

/** Adds `delta` live debts to the company's tally (in the caller's transaction). */
export async function addToTally(db: Knex | Knex.Transaction, companyId: number, delta: number): Promise<void> {
  if (delta === 0) return;
  const shard = shardFor(db);
  await db('debt_tallies')
    .insert({ company_id: companyId, shard, live: delta })
    .onConflict(['company_id', 'shard'])
    .merge({ live: db.raw('?? + ?', ['debt_tallies.live', delta]) });
}

/** The company's live debts, as a subquery (the SUM of its tally rows). */
export function tallyTotal(db: Knex | Knex.Transaction, companyId: number): Knex.QueryBuilder {
  return db('debt_tallies').where('company_id', companyId).sum({ n: 'live' });
}

/** Live debts per company among `rows` (snake_case rows of the debts table). */
export function liveByCompany(rows: Record<string, any>[]): Map<number, number> {
  const counts = new Map<number, number>();
  for (const row of rows) if (isLive(row.status)) counts.set(row.company_id, (counts.get(row.company_id) ?? 0) + 1);
  return counts;
}
