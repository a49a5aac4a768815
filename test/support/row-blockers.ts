/**
 * Stopping another connection's transaction at a chosen statement, whatever the machine's speed
 * (MySQL/MariaDB only: SQLite has a single writer). Used by the system tests and the
 * reliability suite to crash a worker, or drop a connection, half-way through a transaction.
 */
import type { Knex } from 'knex';

/**
 * Holds a unique key with an uncommitted copy of `template` (a row of `table`, its `id`
 * dropped) changed by `changes`: an INSERT of the same key by another connection waits on this
 * row's lock until the returned transaction is rolled back.
 */
export async function holdUniqueKey(db: Knex, table: string, template: Record<string, unknown>, changes: Record<string, unknown>): Promise<Knex.Transaction> {
  const { id: _id, ...row } = template;
  const blocker = await db.transaction();
  try {
    await blocker(table).insert({ ...row, ...changes });
  } catch (error) {
    await blocker.rollback();
    throw error;
  }
  return blocker;
}

/**
 * Holds the gap of a non-unique index where `column = value` would go (REPEATABLE READ locking
 * read, so a next-key lock): another connection's INSERT of a row with that value waits until
 * the returned transaction is rolled back, while rows whose value falls in another gap of the
 * index go through. Put existing rows on both sides of `value` to keep the gap narrow.
 */
export async function holdIndexGap(db: Knex, table: string, column: string, value: number | string): Promise<Knex.Transaction> {
  const blocker = await db.transaction({ isolationLevel: 'repeatable read' });
  try {
    await blocker(table).where(column, value).forUpdate().select('id');
  } catch (error) {
    await blocker.rollback();
    throw error;
  }
  return blocker;
}
