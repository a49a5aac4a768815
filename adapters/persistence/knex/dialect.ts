import type { Knex } from 'knex';
import { likeContains } from './rows/columns';

export type Dialect = 'mysql' | 'sqlite' | 'postgres';

/** What a replica says of its replication (SqlDialect.replicaStatus). */
export type ReplicaStatus =
  | { kind: 'not-a-replica'; detail: string }
  | { kind: 'stopped'; detail: string }
  | { kind: 'replicating'; lagSeconds: number };

/**
 * Everything the Knex repositories and migrations do differently per database, in one place.
 * A Knex client without an entry here is refused (sqlDialect throws) rather than treated as one
 * of the others: a new database is added by writing its SqlDialect, and the compiler then asks
 * for every member.
 */
export interface SqlDialect {
  readonly name: Dialect;
  /** The rows of a `db.raw` SELECT: mysql2 answers `[rows, fields]`, node-postgres `{ rows }`, better-sqlite3 the rows. */
  rawRows<R>(result: unknown): R[];
  /**
   * Makes a SELECT lock the rows it reads until the transaction ends (FOR UPDATE; with
   * `skipLocked`, rows another transaction holds are skipped instead of waited on). SQLite has a
   * single writer: the transaction itself is the lock, and the query is left as it is.
   */
  lockRows(query: Knex.QueryBuilder, options?: { skipLocked?: boolean }): Knex.QueryBuilder;
  /** Runs a one-row INSERT and answers the new row's id (MySQL and SQLite report it; PostgreSQL is asked with RETURNING). */
  insertedId(insert: Knex.QueryBuilder): Promise<number>;
  /**
   * Runs a multi-row INSERT of `rows` rows and answers their ids in the order of the rows, or null
   * when the driver cannot tell them (then the caller reads them back by key).
   */
  insertedIds(db: Knex | Knex.Transaction, insert: Knex.QueryBuilder, rows: number): Promise<number[] | null>;
  /** Whether insertedIds answers the ids (MySQL only under consecutive numbering, see mysqlConsecutiveIdStep). */
  tellsInsertedIds(db: Knex | Knex.Transaction): Promise<boolean>;
  /**
   * Whether a failed statement aborts the whole transaction (PostgreSQL: every later statement
   * fails until ROLLBACK), so a write whose failure the caller handles and carries on from must
   * not fail (an INSERT skipping a taken key, insertIdsSkippingTaken) or must run in a savepoint
   * (see guardedWrite). MySQL and SQLite undo only the failed statement.
   */
  failedStatementAbortsTransaction: boolean;
  /**
   * The largest id an `increments` column holds (MySQL's INT UNSIGNED, PostgreSQL's INTEGER,
   * SQLite's 64-bit rowid). A number a client sends as an id may be larger: it names no row, and
   * must not reach PostgreSQL, which refuses the whole statement for it (value out of range).
   */
  maxRowId: number;
  /** Whether VARCHAR(n) widths are enforced (SQLite ignores them): a wider value needs the column widened. */
  enforcesStringWidths: boolean;
  /**
   * `table` for a FROM whose ORDER BY the primary key would serve badly (a newest-first page of
   * one organization): the planner is told to use the organization's index instead.
   */
  orderedByOwnIndex(db: Knex | Knex.Transaction, table: string): string | Knex.Raw;
  /**
   * `table AS alias` read along `index` only, where the database takes hints (MySQL/MariaDB's
   * FORCE INDEX): for a query whose best index the planner misjudges on some data (see its use).
   */
  alongIndex(db: Knex | Knex.Transaction, table: string, alias: string, index: string): string | Knex.Raw;
  /**
   * Whether alongIndex holds the planner to the index (MySQL/MariaDB). A query that reads well
   * only along one index is built that way only where it does: PostgreSQL, misjudging how many
   * rows a key matches, joined all of a batch's debts and sorted them for a page of 50.
   */
  takesIndexHints: boolean;
  /**
   * The ORDER BY key of a page sorted by `column` whose WHERE reads a range that a walk along
   * `column` finds late: a creation window, whose rows' ids grow with their creation time, so a
   * newest-first walk passes every newer row before the first match. A key no index serves makes
   * the planner read the range and sort its matches, no more than the exact total's count of them
   * reads. PostgreSQL estimates the walk as if the matches were spread evenly and takes it
   * (`column + 0` there). MySQL and SQLite keep the column: SQLite reads the range of its own
   * accord, and MariaDB does for the debts and is told to for the events (alongIndex).
   */
  sortedAfterRange(db: Knex | Knex.Transaction, column: string): string | Knex.Raw;
  /**
   * An ORDER BY item on a nullable column that sorts NULL as the lowest value, as MySQL and SQLite
   * do (first ascending, last descending); PostgreSQL sorts NULL highest unless told.
   */
  nullsLowest(column: string, order: 'asc' | 'desc'): { column: string; order: 'asc' | 'desc'; nulls?: 'first' | 'last' };
  /**
   * A WHERE condition: `column` holds `text` anywhere, compared as the column compares (the
   * search columns hold folded text, and so does `text`). MySQL answers INSTR a third faster than
   * an equivalent `LIKE '%…%'` over an organization's index (5.7 against 8.0 ms for 40,000
   * contacts); PostgreSQL estimates a LIKE's selectivity and an opaque function's not, so it keeps
   * LIKE, as SQLite does.
   */
  containsText(column: string, text: string): { sql: string; bindings: string[] };
  /** CREATE TABLE options: engine, character set, and a binary collation (keys compare exactly). */
  tableOptions(table: Knex.CreateTableBuilder): void;
  /** SQL joining string expressions (each a column or a `?` placeholder) end to end. */
  concat(...parts: string[]): string;
  /**
   * INSERTs `rows`, skipping those whose `conflict` key is taken, and answers how many it inserted
   * (in `trx`: the count is the connection's own).
   */
  insertSkippingTaken(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[], conflict: string[]): Promise<number>;
  /**
   * INSERTs `rows` into `table` without failing on a taken unique key (any of the table's): answers
   * each row's new id, or null for a row a taken key skipped, and the transaction goes on as if
   * that row had not been sent. For the INSERTs of works sharing a transaction where a failed
   * statement ends it (PostgreSQL, see shared-transaction.ts). Null where a failed INSERT undoes
   * only itself (MySQL, SQLite): the works there send a plain INSERT and meet their conflicts as
   * errors.
   */
  insertIdsSkippingTaken: ((trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]) => Promise<(number | null)[]>) | null;
  /** Where a replica stands: replicating and how far behind, stopped, or not a replica at all. */
  replicaStatus(replica: Knex): Promise<ReplicaStatus>;
}

const MYSQL: SqlDialect = {
  name: 'mysql',
  rawRows: <R>(result: unknown) => (result as [R[]])[0],
  lockRows: (query, options) => (options?.skipLocked ? query.forUpdate().skipLocked() : query.forUpdate()),
  insertedId: async (insert) => Number((await insert)[0]),
  // MySQL reports the first row's id; the others follow it when the ids are consecutive.
  insertedIds: async (db, insert, rows) => {
    const [reported] = await insert;
    const step = await mysqlConsecutiveIdStep(db);
    return step === null ? null : idsFrom(Number(reported), rows, step);
  },
  tellsInsertedIds: async (db) => (await mysqlConsecutiveIdStep(db)) !== null,
  failedStatementAbortsTransaction: false,
  maxRowId: 4_294_967_295,
  enforcesStringWidths: true,
  // MariaDB/MySQL would read "newest first" along the primary key, through every organization's
  // rows, until the page is full: the organization's index gives the same order over its rows only.
  orderedByOwnIndex: (db, table) => db.raw('?? IGNORE INDEX FOR ORDER BY (PRIMARY)', [table]),
  alongIndex: (db, table, alias, index) => db.raw('?? AS ?? FORCE INDEX (??)', [table, alias, index]),
  takesIndexHints: true,
  sortedAfterRange: (_db, column) => column,
  nullsLowest: (column, order) => ({ column, order }),
  containsText: (column, text) => ({ sql: `INSTR(${column}, ?) > 0`, bindings: [text] }),
  tableOptions: (table) => {
    table.engine('InnoDB');
    table.charset('utf8mb4');
    table.collate('utf8mb4_bin');
  },
  concat: (...parts) => `CONCAT(${parts.join(', ')})`,
  insertSkippingTaken: async (trx, table, rows, conflict) => {
    await trx(table).insert(rows).onConflict(conflict).ignore();
    const [changed] = (await trx.raw('SELECT ROW_COUNT() AS n')) as [{ n: number | string }[]];
    return Number(changed[0]!.n);
  },
  insertIdsSkippingTaken: null,
  replicaStatus: mysqlReplicaStatus,
};

const SQLITE: SqlDialect = {
  name: 'sqlite',
  rawRows: <R>(result: unknown) => result as R[],
  lockRows: (query) => query,
  insertedId: async (insert) => Number((await insert)[0]),
  // One writer: the rows of one INSERT are numbered one after the other, and SQLite reports the
  // last row's id.
  insertedIds: async (_db, insert, rows) => {
    const [reported] = await insert;
    return idsFrom(Number(reported) - (rows - 1), rows, 1);
  },
  tellsInsertedIds: async () => true,
  failedStatementAbortsTransaction: false,
  maxRowId: Number.MAX_SAFE_INTEGER,
  enforcesStringWidths: false,
  orderedByOwnIndex: (_db, table) => table,
  alongIndex: (_db, table, alias) => `${table} as ${alias}`,
  takesIndexHints: false,
  sortedAfterRange: (_db, column) => column,
  nullsLowest: (column, order) => ({ column, order }),
  containsText: (column, text) => ({ sql: `${column} LIKE ? ESCAPE '!'`, bindings: [likeContains(text)] }),
  // SQLite compares TEXT exactly (BINARY) by default.
  tableOptions: () => undefined,
  concat: (...parts) => parts.join(' || '),
  insertSkippingTaken: async (trx, table, rows, conflict) => {
    await trx(table).insert(rows).onConflict(conflict).ignore();
    const changed = (await trx.raw('SELECT changes() AS n')) as { n: number }[];
    return Number(changed[0]!.n);
  },
  insertIdsSkippingTaken: null,
  replicaStatus: async () => ({ kind: 'not-a-replica', detail: 'SQLite has no replicas' }),
};

const POSTGRES: SqlDialect = {
  name: 'postgres',
  rawRows: <R>(result: unknown) => (result as { rows: R[] }).rows,
  lockRows: (query, options) => (options?.skipLocked ? query.forUpdate().skipLocked() : query.forUpdate()),
  // node-postgres reports no ids: RETURNING lists them, in the order of the VALUES rows.
  insertedId: async (insert) => {
    const [row] = (await insert.returning('id')) as { id: number | string }[];
    return Number(row!.id);
  },
  insertedIds: async (_db, insert) => ((await insert.returning('id')) as { id: number | string }[]).map((r) => Number(r.id)),
  tellsInsertedIds: async () => true,
  failedStatementAbortsTransaction: true,
  maxRowId: 2_147_483_647,
  enforcesStringWidths: true,
  // The planner picks the organization's index for a newest-first page without being told.
  orderedByOwnIndex: (_db, table) => table,
  alongIndex: (_db, table, alias) => `${table} as ${alias}`,
  takesIndexHints: false,
  sortedAfterRange: (db, column) => db.raw('?? + 0', [column]),
  nullsLowest: (column, order) => ({ column, order, nulls: order === 'desc' ? 'last' : 'first' }),
  containsText: (column, text) => ({ sql: `${column} LIKE ? ESCAPE '!'`, bindings: [likeContains(text)] }),
  // Every table of the database shares its encoding and collation (create it UTF8, and with a
  // deterministic collation such as C so keys compare and sort exactly).
  tableOptions: () => undefined,
  // A bare `?` has no type for PostgreSQL to resolve `||` with: it is said to be text.
  concat: (...parts) => parts.map((p) => (p === '?' ? 'CAST(? AS TEXT)' : p)).join(' || '),
  // RETURNING lists exactly the rows the statement inserted.
  insertSkippingTaken: async (trx, table, rows, conflict) => ((await trx(table).insert(rows).onConflict(conflict).ignore().returning(conflict)) as unknown[]).length,
  insertIdsSkippingTaken: postgresInsertIdsSkippingTaken,
  replicaStatus: postgresReplicaStatus,
};

const DIALECTS: Readonly<Record<string, SqlDialect>> = { mysql2: MYSQL, 'better-sqlite3': SQLITE, pg: POSTGRES };

/** The dialect of a Knex instance or transaction; throws for a client no dialect is written for. */
export function sqlDialect(db: Knex | Knex.Transaction): SqlDialect {
  // The client as configured by name, or a subclass of a Knex client (openKnex's PostgreSQL one): its driverName.
  const configured: unknown = db.client.config.client;
  const client = typeof configured === 'string' ? configured : String((db.client as { driverName?: string }).driverName);
  const dialect = DIALECTS[client];
  if (!dialect) throw new Error(`No SQL dialect for the Knex client "${client}" (adapters/persistence/knex/dialect.ts)`);
  return dialect;
}

function idsFrom(first: number, rows: number, step: number): number[] {
  return Array.from({ length: rows }, (_, i) => first + i * step);
}

/**
 * Runs a write whose failure the caller may handle and carry on from (a duplicate key turned into
 * a ConflictError, then the winner read): inside a transaction on a database where a failed
 * statement aborts the transaction (PostgreSQL), it runs in a savepoint that the failure rolls
 * back alone. Elsewhere, and outside transactions, it runs as it is.
 */
export function guardedWrite<T>(db: Knex | Knex.Transaction, write: (db: Knex | Knex.Transaction) => Promise<T>): Promise<T> {
  if (!(db as Knex.Transaction).isTransaction || !sqlDialect(db).failedStatementAbortsTransaction || unguarded.has(db)) return write(db);
  return db.transaction((savepoint) => write(savepoint));
}

const unguarded = new WeakSet<object>();

/**
 * `trx`'s writes take no savepoint (guardedWrite): a transaction shared by works side by side,
 * where a savepoint's rollback would also undo the statements other works sent meanwhile. Its
 * INSERTs skip taken keys instead of failing (insertIdsSkippingTaken), and any other failure ends
 * the whole transaction (shared-transaction.ts).
 */
export function writeWithoutSavepoints(trx: Knex.Transaction): void {
  unguarded.add(trx);
}

/**
 * ON CONFLICT DO NOTHING skips a row any unique key of the table refuses, and RETURNING lists the
 * rows inserted. Which of several rows were skipped shows only in ids known beforehand: they are
 * drawn from the table's sequence first (one more statement for the rows of a whole group).
 */
async function postgresInsertIdsSkippingTaken(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]): Promise<(number | null)[]> {
  if (rows.length === 1) {
    const [inserted] = (await trx(table).insert(rows[0]!).onConflict().ignore().returning('id')) as { id: number | string }[];
    return [inserted === undefined ? null : Number(inserted.id)];
  }
  const { rows: drawn } = (await trx.raw('SELECT nextval(pg_get_serial_sequence(?, ?)) AS id FROM generate_series(1, ?)', [table, 'id', rows.length])) as {
    rows: { id: number | string }[];
  };
  const ids = drawn.map((r) => Number(r.id));
  const inserted = (await trx(table)
    .insert(rows.map((row, i) => ({ ...row, id: ids[i] })))
    .onConflict()
    .ignore()
    .returning('id')) as { id: number | string }[];
  const insertedIds = new Set(inserted.map((r) => Number(r.id)));
  return ids.map((id) => (insertedIds.has(id) ? id : null));
}

/** SHOW SLAVE STATUS: empty on a server that is not a replica. */
async function mysqlReplicaStatus(replica: Knex): Promise<ReplicaStatus> {
  const [rows] = (await replica.raw('SHOW SLAVE STATUS')) as [Record<string, unknown>[]];
  const status = rows[0];
  if (!status) return { kind: 'not-a-replica', detail: 'SHOW SLAVE STATUS is empty' };
  if (status.Slave_IO_Running !== 'Yes' || status.Slave_SQL_Running !== 'Yes' || status.Seconds_Behind_Master == null) {
    return { kind: 'stopped', detail: `IO ${status.Slave_IO_Running}, SQL ${status.Slave_SQL_Running}` };
  }
  return { kind: 'replicating', lagSeconds: Number(status.Seconds_Behind_Master) };
}

/**
 * A standby answers pg_is_in_recovery(); its lag is the age of the last transaction it replayed
 * (pg_last_xact_replay_timestamp()), or 0 when it has replayed everything it received (an idle
 * primary sends nothing, and the last replayed transaction only grows older). No WAL receiver
 * (streaming stopped) is a stopped replica.
 */
async function postgresReplicaStatus(replica: Knex): Promise<ReplicaStatus> {
  const { rows } = (await replica.raw(
    `SELECT pg_is_in_recovery() AS standby,
            (SELECT status FROM pg_stat_wal_receiver LIMIT 1) AS receiver,
            CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0
                 ELSE EXTRACT(EPOCH FROM now() - pg_last_xact_replay_timestamp()) END AS lag`,
  )) as { rows: { standby: boolean; receiver: string | null; lag: number | string | null }[] };
  const status = rows[0]!;
  if (!status.standby) return { kind: 'not-a-replica', detail: 'pg_is_in_recovery() is false' };
  if (status.receiver !== 'streaming' || status.lag === null) return { kind: 'stopped', detail: `WAL receiver ${status.receiver ?? 'absent'}` };
  return { kind: 'replicating', lagSeconds: Math.max(0, Math.floor(Number(status.lag))) };
}

/**
 * MySQL/MariaDB numbers the rows of a "simple insert" consecutively under innodb_autoinc_lock_mode
 * 0 or 1 (MariaDB's default is 1), spaced by auto_increment_increment; MySQL 8's default, 2
 * (interleaved), promises no such thing. Asked once per database server, the settings being
 * read-only.
 */
function mysqlConsecutiveIdStep(db: Knex | Knex.Transaction): Promise<number | null> {
  const config = db.client.config as object;
  let step = ID_STEPS.get(config);
  if (!step) {
    step = db
      .raw('SELECT @@innodb_autoinc_lock_mode AS mode, @@auto_increment_increment AS increment')
      .then(([rows]: [{ mode: number | string; increment: number | string }[]]) => {
        const { mode, increment } = rows[0]!;
        return Number(mode) <= 1 ? Number(increment) : null;
      });
    ID_STEPS.set(config, step);
  }
  return step;
}

const ID_STEPS = new WeakMap<object, Promise<number | null>>();
