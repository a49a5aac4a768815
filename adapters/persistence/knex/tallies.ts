import type { Knex } from 'knex';
import { deferredWrites, flushDeferredWrites } from './deferred-writes';
import { sqlDialect } from './dialect';
import { inTransaction } from './in-transaction';

/**
 * The exact total of an owner's unfiltered list without counting rows: every write that changes
 * what the list holds adds the change, in the same transaction, to one of TALLY_SHARDS rows of
 * the owner chosen at random, so concurrent writers rarely wait on the same row; a read sums the
 * owner's rows (16 primary-key reads where a count would read every row, or 10,001 for a capped
 * list). Kept for the debts (migrations 20261129100000_debt_tallies and
 * 20261205100000_debt_status_tallies: every debt but the CANCELLED ones, per company and status),
 * the contacts (per organization), the payment links (per company and status) and the events (per
 * company; migration 20261201100000_list_tallies), and the
 * subscriptions (per company and status; migrations 20261203100000_subscription_tallies and
 * 20261204100000_subscription_status_tallies; and per company and debtor, migration
 * 20261207220000_subscription_contact_tallies).
 * test/support/tally-check.ts holds every suite's database to tally = COUNT(*).
 *
 * A transaction keeps to the one shard it drew first, in every tally: a grouped transaction (many
 * creates in one, see UnitOfWork.runGrouped) that drew a shard per write would hold several rows
 * of the owner, taken in random order, and two of them would deadlock (PostgreSQL then waits out
 * its deadlock_timeout before breaking it; InnoDB breaks it at once, and the group runs again
 * alone). A unit of work's transaction holds its tally writes back and writes them together
 * just before its commit (deferred-writes.ts), in one order for every transaction (table, owner,
 * then status), so two transactions that write the same tallies never take their rows in opposite
 * orders.
 */
export const TALLY_SHARDS = 16;

/** One tally table: the owner column the lists filter by, and `live`, the rows counted. */
export interface Tally {
  table: string;
  owner: string;
  /** A column the rows are also counted by (a payment link's status, a subscription's debtor); none: one count per owner. */
  by?: string;
}

/** A value of a tally's `by` column: a status, or the id of a debtor. */
type By = string | number;

export const DEBT_TALLY: Tally = { table: 'debt_tallies', owner: 'company_id', by: 'status' };
export const CONTACT_TALLY: Tally = { table: 'contact_tallies', owner: 'organization_id' };
export const PAYMENT_LINK_TALLY: Tally = { table: 'payment_link_tallies', owner: 'company_id', by: 'status' };
export const EVENT_TALLY: Tally = { table: 'event_tallies', owner: 'company_id' };
export const SUBSCRIPTION_TALLY: Tally = { table: 'subscription_tallies', owner: 'company_id', by: 'status' };
/** The company's subscriptions of each debtor, every status (GET /subscriptions?externalClientId). */
export const SUBSCRIPTION_DEBTOR_TALLY: Tally = { table: 'subscription_contact_tallies', owner: 'company_id', by: 'contact_id' };

/** The shard each open transaction drew (gone with the transaction object). */
const shardOfTransaction = new WeakMap<object, number>();

function shardFor(db: Knex | Knex.Transaction): number {
  if (!db.isTransaction) return Math.floor(Math.random() * TALLY_SHARDS);
  let shard = shardOfTransaction.get(db);
  if (shard === undefined) {
    shard = Math.floor(Math.random() * TALLY_SHARDS);
    shardOfTransaction.set(db, shard);
  }
  return shard;
}

/**
 * Adds `delta` to the owner's tally (to its `by` value's count, for a tally kept by a column), in
 * the caller's transaction: held back until just before its commit when it defers its writes
 * (deferred-writes.ts), one upsert per tally row for the whole transaction, holding the row's
 * lock only from there to the commit.
 */
export async function addToTally(db: Knex | Knex.Transaction, tally: Tally, ownerId: number, delta: number, by?: By): Promise<void> {
  if (delta === 0) return;
  if ((tally.by === undefined) !== (by === undefined)) throw new Error(`${tally.table} is kept ${tally.by ? `by ${tally.by}` : 'per owner only'}`);
  const held = deferredWrites(db);
  if (!held) return write(db, tally, ownerId, by, delta);
  const key = `${tally.table}:${String(ownerId).padStart(12, '0')}:${typeof by === 'number' ? String(by).padStart(12, '0') : (by ?? '')}`;
  const pending = held.tallies.get(key);
  if (pending) pending.delta += delta;
  else {
    const entry = { delta, write: () => write(db, tally, ownerId, by, entry.delta) };
    held.tallies.set(key, entry);
  }
}

async function write(db: Knex | Knex.Transaction, tally: Tally, ownerId: number, by: By | undefined, delta: number): Promise<void> {
  if (delta === 0) return;
  const keyColumns = tally.by ? [tally.owner, tally.by, 'shard'] : [tally.owner, 'shard'];
  await db(tally.table)
    .insert({ [tally.owner]: ownerId, ...(tally.by ? { [tally.by]: by } : {}), shard: shardFor(db), live: delta })
    .onConflict(keyColumns)
    .merge({ live: db.raw('?? + ?', [`${tally.table}.live`, delta]) });
}

/**
 * A change of one row of `table` that may change its status, for a tally kept by status: the row's
 * status is read under its lock, `write` changes the row and answers it as it now reads, and the
 * row moves from the status's count before to the one after, all in one transaction.
 */
export function changingStatus<T extends { status: string }>(
  db: Knex | Knex.Transaction,
  tally: Tally,
  table: string,
  ownerId: number,
  id: number,
  write: (trx: Knex.Transaction) => Promise<T>,
): Promise<T> {
  return inTransaction(db, async (trx) => {
    const before = (await sqlDialect(trx).lockRows(trx(table).where({ [tally.owner]: ownerId, id }).select('status'))) as { status: string }[];
    const from = before[0]?.status;
    const after = await write(trx);
    if (from !== undefined && from !== after.status) await moveInTally(trx, tally, [ownerId], from, after.status);
    return after;
  });
}

/** Each of `owners` (an owner once per row) moves one row from the `from` count of its tally to the `to` count. */
export async function moveInTally(db: Knex | Knex.Transaction, tally: Tally, owners: number[], from: string, to: string): Promise<void> {
  const rows = new Map<number, number>();
  for (const owner of owners) rows.set(owner, (rows.get(owner) ?? 0) + 1);
  for (const [owner, n] of rows) {
    await addToTally(db, tally, owner, -n, from);
    await addToTally(db, tally, owner, n, to);
  }
}

/** The owner's tally (of the `by` values given, or all), as a subquery (the SUM of its rows, `n`). */
export function tallyTotal(db: Knex | Knex.Transaction, tally: Tally, ownerId: number, by?: string[]): Knex.QueryBuilder {
  const query = db(tally.table).where(tally.owner, ownerId);
  if (by && tally.by) query.whereIn(tally.by, by);
  return query.sum({ n: 'live' });
}

/** The owner's tally (of the `by` values given, or all), read on its own. */
export async function readTally(db: Knex | Knex.Transaction, tally: Tally, ownerId: number, by?: string[]): Promise<number> {
  await flushDeferredWrites(db);
  const rows = (await tallyTotal(db, tally, ownerId, by)) as { n: number | string | null }[];
  return Number(rows[0]?.n ?? 0);
}

/** Whether a debt in this status counts in the unfiltered debt list (and so in the debt tally). */
export function isLive(status: string): boolean {
  return status !== 'CANCELLED';
}

/** Live debts per company and status among `rows` (snake_case rows of the debts table). */
export function liveByCompanyAndStatus(rows: Record<string, any>[]): { companyId: number; status: string; live: number }[] {
  const counts = new Map<string, { companyId: number; status: string; live: number }>();
  for (const row of rows) {
    if (!isLive(row.status)) continue;
    const key = `${row.company_id} ${row.status}`;
    const count = counts.get(key);
    if (count) count.live += 1;
    else counts.set(key, { companyId: row.company_id, status: row.status, live: 1 });
  }
  return [...counts.values()];
}
