import type { Knex } from 'knex';
import { dialectOf } from './connection';

/**
 * Locks the row matching `where` until the transaction ends and returns its id (null when there
 * is none): SELECT … FOR UPDATE on MySQL; SQLite has a single writer, so the transaction itself
 * is the lock there.
 */
export async function lockRowId(db: Knex | Knex.Transaction, table: string, where: Record<string, unknown>): Promise<number | null> {
  const query = db(table).where(where).select('id');
  if (dialectOf(db) === 'mysql') query.forUpdate();
  const row = await query.first();
  return row ? Number(row.id) : null;
}
