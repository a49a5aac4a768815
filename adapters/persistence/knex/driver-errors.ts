import type { Knex } from 'knex';
import { ConflictError } from '../../../internal/shared/errors';
import { guardedWrite } from './dialect';

/**
 * True for a unique-key violation: MySQL/MariaDB (ER_DUP_ENTRY), SQLite, or PostgreSQL
 * (SQLSTATE 23505, unique_violation).
 */
export function isDuplicateKey(error: unknown): boolean {
  const e = error as { code?: string; errno?: number };
  return error instanceof TakenKeyError || e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === '23505';
}

/**
 * A row an INSERT skipped because one of its unique keys was taken (SqlDialect.insertIdsSkippingTaken):
 * a duplicate key to its caller, without the statement having failed.
 */
export class TakenKeyError extends Error {
  constructor(readonly table: string) {
    super(`a unique key of the row is taken in ${table}`);
    this.name = 'TakenKeyError';
  }
}

/**
 * True when the database rolled this transaction back whole and running it again from the start
 * is safe: MySQL/MariaDB chose it as a deadlock victim (ER_LOCK_DEADLOCK), or PostgreSQL did
 * (40P01, deadlock_detected) or could not serialize it (40001, serialization_failure).
 */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; errno?: number; name?: string; cause?: unknown };
  // A work of a shared transaction told that another's statement lost a deadlock (shared-transaction.ts).
  if (e?.name === 'SharedTransactionStopped') return isDeadlock(e.cause);
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213 || e?.code === '40P01' || e?.code === '40001';
}

/**
 * Runs an insert or update on `db`, turning a duplicate key into the domain's ConflictError. The
 * write gets the Knex to run on: inside a transaction on PostgreSQL, a savepoint (guardedWrite),
 * so a caller that handles the conflict can go on with the transaction.
 */
export async function translatingDuplicates<T>(db: Knex | Knex.Transaction, what: string, write: (db: Knex | Knex.Transaction) => Promise<T>): Promise<T> {
  try {
    return await guardedWrite(db, write);
  } catch (error) {
    if (isDuplicateKey(error)) throw conflictOf(what);
    throw error;
  }
}

/** The domain's answer to a taken unique key of `what` (a Contact, a Debt, …). */
export function conflictOf(what: string): ConflictError {
  return new ConflictError(`${what} already exists`);
}
