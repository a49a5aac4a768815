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
 * A state change of many rows, oldest first: the rows matching `where` and `narrow` (at most
 * `limit` of them when given) are locked as lockRowId does, given `patch`, and their ids
 * returned, so two processes never move the same row twice (the scheduled jobs, cancellations).
 */
export async function transitionRows(
  db: Knex | Knex.Transaction,
  table: string,
  where: Record<string, unknown>,
  narrow: (query: Knex.QueryBuilder) => void,
  patch: Record<string, unknown>,
  limit?: number,
): Promise<number[]> {
  return (await transitionRowsFrom(db, table, where, narrow, patch, [], limit)).map((row) => row.id);
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
  limit?: number,
): Promise<({ id: number } & Record<C, any>)[]> {
  const query = db(table).where(where).select('id', ...columns).orderBy('id');
  narrow(query);
  if (limit !== undefined) query.limit(limit);
  sqlDialect(db).lockRows(query);
  const rows = ((await query) as ({ id: number | string } & Record<C, any>)[]).map((row) => ({ ...row, id: Number(row.id) }));
  if (rows.length > 0) await db(table).whereIn('id', rows.map((row) => row.id)).update(patch);
  return rows;
}
