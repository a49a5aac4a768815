import { ConflictError } from '../../../internal/shared/errors';

/** True for a unique-key violation on MySQL/MariaDB (ER_DUP_ENTRY) or SQLite. */
export function isDuplicateKey(error: unknown): boolean {
  const e = error as { code?: string; errno?: number };
  return e?.code === 'ER_DUP_ENTRY' || e?.errno === 1062 || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * True when MySQL/MariaDB chose this transaction as a deadlock victim (ER_LOCK_DEADLOCK): InnoDB
 * has rolled the whole transaction back, so running it again from the start is safe.
 */
export function isDeadlock(error: unknown): boolean {
  const e = error as { code?: string; errno?: number };
  return e?.code === 'ER_LOCK_DEADLOCK' || e?.errno === 1213;
}

/** Runs an insert or update, turning a duplicate key into the domain's ConflictError. */
export async function translatingDuplicates<T>(what: string, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isDuplicateKey(error)) throw new ConflictError(`${what} already exists`);
    throw error;
  }
}
