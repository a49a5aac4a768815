import type { Knex } from 'knex';

export type Dialect = 'mysql' | 'sqlite';

/**
 * Everything the Knex repositories and migrations do differently per database, in one place.
 * A Knex client without an entry here is refused (sqlDialect throws) rather than treated as one
 * of the others: a new database is added by writing its SqlDialect, and the compiler then asks
 * for every member.
 */
export interface SqlDialect {
  readonly name: Dialect;
  /**
   * Makes a SELECT lock the rows it reads until the transaction ends (FOR UPDATE; with
   * `skipLocked`, rows another transaction holds are skipped instead of waited on). SQLite has a
   * single writer: the transaction itself is the lock, and the query is left as it is.
   */
  lockRows(query: Knex.QueryBuilder, options?: { skipLocked?: boolean }): Knex.QueryBuilder;
  /**
   * The id step between the rows of one multi-row INSERT when they are sure to be consecutive,
   * or null when they may not be (then the ids are read back).
   */
  consecutiveIdStep(db: Knex | Knex.Transaction): Promise<number | null>;
  /** The first row's id of a multi-row INSERT of `rows` rows, from the id the driver reported. */
  firstInsertedId(reported: number, rows: number, step: number): number;
  /**
   * `table` for a FROM whose ORDER BY the primary key would serve badly (a newest-first page of
   * one organization): the planner is told to use the organization's index instead.
   */
  orderedByOwnIndex(db: Knex | Knex.Transaction, table: string): string | Knex.Raw;
  /** CREATE TABLE options: engine, character set, and a binary collation (keys compare exactly). */
  tableOptions(table: Knex.CreateTableBuilder): void;
  /** SQL joining string expressions (each a column or a `?` placeholder) end to end. */
  concat(...parts: string[]): string;
  /**
   * INSERTs `rows`, skipping those whose `conflict` key is taken, and answers how many it inserted
   * (in `trx`: the count is the connection's own).
   */
  insertSkippingTaken(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[], conflict: string[]): Promise<number>;
}

const MYSQL: SqlDialect = {
  name: 'mysql',
  lockRows: (query, options) => (options?.skipLocked ? query.forUpdate().skipLocked() : query.forUpdate()),
  consecutiveIdStep: mysqlConsecutiveIdStep,
  // MySQL reports the first row's id.
  firstInsertedId: (reported) => reported,
  // MariaDB/MySQL would read "newest first" along the primary key, through every organization's
  // rows, until the page is full: the organization's index gives the same order over its rows only.
  orderedByOwnIndex: (db, table) => db.raw('?? IGNORE INDEX FOR ORDER BY (PRIMARY)', [table]),
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
};

const SQLITE: SqlDialect = {
  name: 'sqlite',
  lockRows: (query) => query,
  // One writer: the rows of one INSERT are numbered one after the other.
  consecutiveIdStep: async () => 1,
  // SQLite reports the last row's id.
  firstInsertedId: (reported, rows, step) => reported - (rows - 1) * step,
  orderedByOwnIndex: (_db, table) => table,
  // SQLite compares TEXT exactly (BINARY) by default.
  tableOptions: () => undefined,
  concat: (...parts) => parts.join(' || '),
  insertSkippingTaken: async (trx, table, rows, conflict) => {
    await trx(table).insert(rows).onConflict(conflict).ignore();
    const changed = (await trx.raw('SELECT changes() AS n')) as { n: number }[];
    return Number(changed[0]!.n);
  },
};

const DIALECTS: Readonly<Record<string, SqlDialect>> = { mysql2: MYSQL, 'better-sqlite3': SQLITE };

/** The dialect of a Knex instance or transaction; throws for a client no dialect is written for. */
export function sqlDialect(db: Knex | Knex.Transaction): SqlDialect {
  const client = String(db.client.config.client);
  const dialect = DIALECTS[client];
  if (!dialect) throw new Error(`No SQL dialect for the Knex client "${client}" (adapters/persistence/knex/dialect.ts)`);
  return dialect;
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
