import type { Knex } from 'knex';
import { conflictOf, isDuplicateKey, TakenKeyError, translatingDuplicates } from './driver-errors';
import { sqlDialect, writeWithoutSavepoints } from './dialect';
import { type ReadAll, readTogether } from './read-batches';

/**
 * A transaction shared by works running side by side (a group of creates, see
 * TransactionGroupsOptions.concurrent in internal/shared/group-commit.ts). Three things differ from
 * a transaction of one work:
 *
 * - **Their single-row INSERTs meet.** The rows the works insert into one table meanwhile go as
 *   one multi-row INSERT, and each caller still gets its own row's id (insertedId), or its own
 *   conflict when a unique key of its row is taken, as alone:
 *   - on MySQL and SQLite, which undo only a failed statement, an INSERT that fails on a duplicate
 *     key sends its rows again one by one;
 *   - on PostgreSQL, where a failed statement ends the transaction (and a savepoint's rollback
 *     would undo the other works' statements too), the INSERT skips the rows whose keys are taken
 *     (SqlDialect.insertIdsSkippingTaken) and their callers meet a TakenKeyError, the transaction
 *     going on; the works' writes take no savepoint.
 * - **Their reads by key meet** the same way (lookUp): a group of subscriptions reads its contacts
 *   in one SELECT and its products in another.
 * - **A failure that may have ended the transaction stops it.** InnoDB rolls a deadlock victim
 *   back whole, PostgreSQL refuses every statement after any failure, and on MySQL the statements
 *   that follow would each commit on their own. So the transaction's statements are sent one at a
 *   time, as the connection does anyway, and after a failure (other than a duplicate key where
 *   only the statement is undone) every later one fails at once, except the ROLLBACK; the works'
 *   errors then roll back the group and its works run again alone.
 */
interface Shared {
  /** Rows waiting for the next INSERT, by table. */
  pending: Map<string, PendingRow[]>;
  /** Reads by key waiting for the next SELECT, by what they read (lookUp). */
  lookups: Map<string, PendingLookup>;
  scheduled: boolean;
  /** Settles when the last statement sent so far has (stopAfterFailure). */
  statements: Promise<unknown>;
}

interface PendingLookup {
  readAll(keys: string[]): Promise<Map<string, unknown>>;
  waiting: Map<string, { resolve(found: unknown): void; reject(error: unknown): void }[]>;
}

interface PendingRow {
  row: Record<string, unknown>;
  resolve(id: number): void;
  reject(error: unknown): void;
}

const sharedTransactions = new WeakMap<object, Shared>();

/** From now on, `trx` is shared by works side by side (see above). */
export function shareTransaction(trx: Knex.Transaction): void {
  const shared: Shared = { pending: new Map(), lookups: new Map(), scheduled: false, statements: Promise.resolve() };
  sharedTransactions.set(trx, shared);
  writeWithoutSavepoints(trx);
  stopAfterFailure(trx, shared);
}

/**
 * Inserts one row into `table` and answers its id, as the database's dialect recovers it; in a
 * shared transaction together with the other rows its works insert into `table` meanwhile. The
 * INSERT waits until the statements already sent have been answered and the works waiting on them
 * have made their next move: works that read before they insert (a subscription reads its contact
 * and product) reach their INSERT one answer after another, on one connection that answers one
 * statement at a time, and would otherwise each send their own.
 */
export function insertedId(db: Knex | Knex.Transaction, table: string, row: Record<string, unknown>): Promise<number> {
  const shared = sharedTransactions.get(db);
  if (!shared) return sqlDialect(db).insertedId(db(table).insert(row));
  return new Promise((resolve, reject) => {
    const rows = shared.pending.get(table);
    if (rows) rows.push({ row, resolve, reject });
    else shared.pending.set(table, [{ row, resolve, reject }]);
    schedule(db as Knex.Transaction, shared);
  });
}

/**
 * insertedId, a taken unique key becoming the domain's ConflictError (`<what> already exists`) after
 * which the caller's transaction goes on. In a transaction of one work on PostgreSQL the INSERT
 * skips the taken key (SqlDialect.insertIdsSkippingTaken) instead of failing inside a savepoint of
 * its own (translatingDuplicates): one statement instead of three.
 */
export function insertedIdOrConflict(db: Knex | Knex.Transaction, what: string, table: string, row: Record<string, unknown>): Promise<number> {
  const skippingTaken = sqlDialect(db).insertIdsSkippingTaken;
  if (!skippingTaken || !(db as Knex.Transaction).isTransaction || sharedTransactions.has(db)) {
    return translatingDuplicates(db, what, (on) => insertedId(on, table, row));
  }
  return skippingTaken(db as Knex.Transaction, table, [row]).then(([id]) => {
    if (id == null) throw conflictOf(what);
    return id;
  });
}

/**
 * A read by key (a contact by externalClientId, a product by name): `readAll` of some keys on `db`
 * answers what it found by key, and each caller gets its own row or null.
 *
 * - In a shared transaction, the reads of one `what` its works make meanwhile go as one SELECT,
 *   sent when the INSERT would be (insertedId), after the rows waiting for it: a read sees what
 *   the group inserted before it.
 * - Outside a transaction, with the reads of one `what` made at the same moment (read-batches.ts).
 * - In a transaction of one work, alone.
 */
export function lookUp<T>(db: Knex | Knex.Transaction, what: string, key: string, readAll: ReadAll<T>): Promise<T | null> {
  const shared = sharedTransactions.get(db);
  if (!shared) {
    // hasOwnProperty: a read-routing Knex answers property reads from the Knex it would send a statement to.
    if (!Object.prototype.hasOwnProperty.call(db, 'isTransaction')) return readTogether(db as Knex, what, key, readAll);
    return readAll([key], db).then((found) => found.get(key) ?? null);
  }
  return new Promise((resolve, reject) => {
    let lookup = shared.lookups.get(what);
    if (!lookup) {
      lookup = { readAll: (keys) => readAll(keys, db), waiting: new Map() };
      shared.lookups.set(what, lookup);
    }
    const waiting = lookup.waiting.get(key);
    const caller = { resolve: (found: unknown) => resolve((found as T | undefined) ?? null), reject };
    if (waiting) waiting.push(caller);
    else lookup.waiting.set(key, [caller]);
    schedule(db as Knex.Transaction, shared);
  });
}

export { endsInSpace, withoutTrailingSpaces } from './read-batches';

function schedule(trx: Knex.Transaction, shared: Shared): void {
  if (shared.scheduled) return;
  shared.scheduled = true;
  void whenIdle(shared).then(() => flush(trx, shared));
}

/** Once no statement is waiting for its answer and no work that got one still has a move to make. */
async function whenIdle(shared: Shared): Promise<void> {
  for (;;) {
    const last = shared.statements;
    await last;
    await new Promise((resolve) => setImmediate(resolve));
    if (shared.statements === last) return;
  }
}

/** The waiting rows, table by table in name order (one order for every transaction), then the waiting reads. */
async function flush(trx: Knex.Transaction, shared: Shared): Promise<void> {
  shared.scheduled = false;
  const tables = [...shared.pending.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  shared.pending.clear();
  const lookups = [...shared.lookups.values()];
  shared.lookups.clear();
  for (const [table, rows] of tables) await insertTogether(trx, table, rows);
  for (const lookup of lookups) await readLookup(lookup);
}

async function readLookup({ readAll, waiting }: PendingLookup): Promise<void> {
  let found: Map<string, unknown>;
  try {
    found = await readAll([...waiting.keys()]);
  } catch (error) {
    for (const callers of waiting.values()) for (const caller of callers) caller.reject(error);
    return;
  }
  for (const [key, callers] of waiting) for (const caller of callers) caller.resolve(found.get(key));
}

async function insertTogether(trx: Knex.Transaction, table: string, rows: PendingRow[]): Promise<void> {
  const dialect = sqlDialect(trx);
  if (dialect.insertIdsSkippingTaken) {
    let ids: (number | null)[];
    try {
      ids = await dialect.insertIdsSkippingTaken(trx, table, rows.map((r) => r.row));
    } catch (error) {
      return rows.forEach((r) => r.reject(error));
    }
    return rows.forEach((r, i) => (ids[i] == null ? r.reject(new TakenKeyError(table)) : r.resolve(ids[i]!)));
  }
  if (rows.length > 1 && (await dialect.tellsInsertedIds(trx))) {
    try {
      const ids = await dialect.insertedIds(trx, trx(table).insert(rows.map((r) => r.row)), rows.length);
      rows.forEach((r, i) => r.resolve(ids![i]!));
      return;
    } catch (error) {
      // A taken key refused the whole statement: each row alone meets only its own.
      if (!isDuplicateKey(error)) return rows.forEach((r) => r.reject(error));
    }
  }
  for (const r of rows) {
    await dialect.insertedId(trx(table).insert(r.row)).then(r.resolve, r.reject);
  }
}

/**
 * The transaction's statements one at a time; after a failure that may have ended it, no more
 * (see above). Its end, COMMIT or ROLLBACK, goes straight to Knex, which checks there that the
 * transaction is still open; a COMMIT after such a failure is a ROLLBACK (and fails), so that no
 * connection goes back to the pool with a transaction open (its next BEGIN would commit it).
 */
function stopAfterFailure(trx: Knex.Transaction, shared: Shared): void {
  const client = trx.client as { query(connection: unknown, statement: unknown): Promise<unknown> };
  const query = client.query.bind(client);
  // A duplicate key undoes only its statement, except where any failure ends the transaction.
  const survivesDuplicates = !sqlDialect(trx).failedStatementAbortsTransaction;
  let failure: unknown = null;
  client.query = (connection, statement) => {
    const sql = typeof statement === 'string' ? statement : ((statement as { sql?: string }).sql ?? '');
    if (/^ROLLBACK\b/i.test(sql)) return query(connection, statement);
    if (/^COMMIT\b/i.test(sql)) {
      if (failure === null) return query(connection, statement);
      const stopped = new SharedTransactionStopped(failure);
      return query(connection, 'ROLLBACK').then(() => Promise.reject(stopped));
    }
    const sent = shared.statements.then(() => {
      if (failure !== null) throw new SharedTransactionStopped(failure);
      return query(connection, statement);
    });
    shared.statements = sent.then(
      () => undefined,
      (error: unknown) => {
        if (failure === null && !(survivesDuplicates && isDuplicateKey(error)) && !(error instanceof SharedTransactionStopped)) failure = error;
      },
    );
    return sent;
  };
}

/** A statement of a shared transaction refused after an earlier one failed (see above). */
export class SharedTransactionStopped extends Error {
  constructor(override readonly cause: unknown) {
    super(`an earlier statement of this shared transaction failed: ${cause instanceof Error ? cause.message : String(cause)}`);
    this.name = 'SharedTransactionStopped';
  }
}
