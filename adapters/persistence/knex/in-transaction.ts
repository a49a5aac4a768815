import type { Knex } from 'knex';

/**
 * Runs `work` in the caller's transaction, or in one of its own when `db` is not one: for a
 * repository method whose statements must agree (or whose row locks must last) even when it is
 * called outside a unit of work.
 */
export function inTransaction<T>(db: Knex | Knex.Transaction, work: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db as Knex.Transaction) : db.transaction(work);
}
