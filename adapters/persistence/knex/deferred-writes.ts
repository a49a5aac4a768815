import type { Knex } from 'knex';

/**
 * Writes a unit of work holds back and makes just before its commit: rows nobody reads inside
 * the transaction (a contact's phone index rows, the job outbox's entries) and the list tallies
 * (tallies.ts). A group of
 * creates sharing one transaction (UnitOfWork.runGrouped) then writes them in one multi-row
 * INSERT per table and one upsert per tally row instead of one statement per create: each
 * statement is a round trip, whose socket write alone is a fifth of a create's API CPU
 * (docs/performance.md).
 *
 * Only a transaction registered with deferWrites holds writes back (KnexUnitOfWork.run, which
 * calls flushDeferredWrites before it commits); any other transaction, or none, writes at once.
 * A repository that reads what may be held back flushes first (flushDeferredWrites), so a
 * transaction always sees its own writes.
 */
export interface DeferredWrites {
  /** Rows to insert, by table (and, for rows a taken key skips, the key's columns). */
  readonly inserts: Map<string, HeldRows>;
  /** Held-back tally deltas, by a key that orders them (tallies.ts). */
  readonly tallies: Map<string, { write: () => Promise<void>; delta: number }>;
}

interface HeldRows {
  table: string;
  rows: Record<string, unknown>[];
  /** The unique key whose taken values the INSERT skips, if any (insertRows' `skipTaken`). */
  skipTaken?: string[];
}

const deferredOfTransaction = new WeakMap<object, DeferredWrites>();

/** From now until its flush, `trx` holds its deferrable writes back. */
export function deferWrites(trx: Knex.Transaction): void {
  deferredOfTransaction.set(trx, { inserts: new Map(), tallies: new Map() });
}

/** What `db` holds back, when it is a transaction that defers. */
export function deferredWrites(db: Knex | Knex.Transaction): DeferredWrites | undefined {
  return deferredOfTransaction.get(db);
}

/** Rows per INSERT: far below SQLite's variable limit and PostgreSQL's 65,535 parameters. */
const CHUNK = 200;

/**
 * Inserts `rows` into `table`, now or, in a transaction that defers, just before its commit. With
 * `skipTaken`, a row whose values of that unique key are taken is skipped, not an error.
 */
export async function insertRows(db: Knex | Knex.Transaction, table: string, rows: Record<string, unknown>[], skipTaken?: string[]): Promise<void> {
  if (rows.length === 0) return;
  const held = deferredWrites(db);
  if (!held) return insertNow(db, { table, rows, skipTaken });
  const key = skipTaken ? `${table} skipping ${skipTaken.join(',')}` : table;
  const pending = held.inserts.get(key);
  if (pending) pending.rows.push(...rows);
  else held.inserts.set(key, { table, rows: [...rows], skipTaken });
}

async function insertNow(db: Knex | Knex.Transaction, { table, rows, skipTaken }: HeldRows): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK) {
    const insert = db(table).insert(rows.slice(i, i + CHUNK));
    await (skipTaken ? insert.onConflict(skipTaken).ignore() : insert);
  }
}

/**
 * Makes what `db` held back: the rows first, table by table in name order, then the tallies in
 * their keys' order (table, owner, …: one order for every transaction, so two never take tally
 * rows in opposite orders; last, so a tally row is locked only from here to the commit).
 */
export async function flushDeferredWrites(db: Knex | Knex.Transaction): Promise<void> {
  const held = deferredWrites(db);
  if (!held || (held.inserts.size === 0 && held.tallies.size === 0)) return;
  const inserts = [...held.inserts.entries()].sort(([a], [b]) => compare(a, b));
  held.inserts.clear();
  for (const [, rows] of inserts) await insertNow(db, rows);
  const tallies = [...held.tallies.entries()].sort(([a], [b]) => compare(a, b));
  held.tallies.clear();
  for (const [, tally] of tallies) if (tally.delta !== 0) await tally.write();
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
