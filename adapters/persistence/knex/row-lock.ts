import type { Knex } from 'knex';
import { sqlDialect } from './dialect';

/**
 * Locks the row matching `where` until the transaction ends and returns its id (null when there
 * is none): SELECT … FOR UPDATE (see SqlDialect.lockRows).
 */
export async function lockRowId(db: Knex | Knex.Transaction, table: string, where: Record<string, unknown>): Promise<number | null> {
  const row = await sqlDialect(db).lockRows(db(table).where(where).select('id')).first();
  return row ? Number(row.id) : null;
}

/**
 * The first rows of a scheduled job's chunk: at most `limit`, the earliest by `by` (then by id),
 * read along an index that holds the `where` columns and then `by` (the debts' (organization_id,
 * status, due_date)). Ordered by id alone, the chunk's locking read walked the primary key from its
 * start, or sorted every match, for every chunk: a backlog's later chunks each read, and momentarily
 * locked, nearly the whole table (docs/performance.md, "The scheduled jobs read their chunk along
 * their index").
 */
export interface FirstRows {
  limit: number;
  by: string;
}

/**
 * A state change of many rows: the rows matching `where` and `narrow` (with `first`, the first of
 * them; otherwise all, in id order) are locked as lockRowId does, given `patch`, and their ids
 * returned, so two processes never move the same row twice (the scheduled jobs, cancellations).
 */
export async function transitionRows(
  db: Knex | Knex.Transaction,
  table: string,
  where: Record<string, unknown>,
  narrow: (query: Knex.QueryBuilder) => void,
  patch: Record<string, unknown>,
  first?: FirstRows,
): Promise<number[]> {
  return (await transitionRowsFrom(db, table, where, narrow, patch, [], first)).map((row) => row.id);
}

/**
 * transitionRows, answering also the `columns` of each row as they were before the change, read
 * under the same lock (the status each row leaves, for a tally kept by status).
 */
export async function transitionRowsFrom<C extends string>(
  db: Knex | Knex.Transaction,
  table: string,
  where: Record<string, unknown>,
  narrow: (query: Knex.QueryBuilder) => void,
  patch: Record<string, unknown>,
  columns: C[],
  first?: FirstRows,
): Promise<({ id: number } & Record<C, any>)[]> {
  const query = db(table).where(where).select('id', ...columns);
  narrow(query);
  if (first) query.orderBy(first.by).orderBy('id').limit(first.limit);
  else query.orderBy('id');
  sqlDialect(db).lockRows(query);
  const rows = ((await query) as ({ id: number | string } & Record<C, any>)[]).map((row) => ({ ...row, id: Number(row.id) }));
  if (rows.length > 0) await db(table).whereIn('id', rows.map((row) => row.id)).update(patch);
  return rows;
}
