import fs from 'node:fs';
import path from 'node:path';
import knex, { type Knex } from 'knex';
import pg from 'pg';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { migrationSource } from './migrations';
import { formatQuery } from './mysql-query-format';

/**
 * One Knex instance for `mysql://…` (mysql2), `postgres://…` or `postgresql://…` (node-postgres),
 * or `sqlite:<path>` (better-sqlite3). Everything above this file is one code path for all three
 * (what differs lives in dialect.ts).
 */
export function openKnex(databaseUrl: string, options: { poolMax?: number } = {}): Knex {
  if (databaseUrl.startsWith('mysql://')) {
    return knex({
      client: 'mysql2',
      connection: {
        uri: databaseUrl,
        // Instants are stored as epoch milliseconds and dates as strings; nothing depends on
        // the session time zone, but pin it so ad-hoc SQL reads the same everywhere.
        timezone: 'Z',
        supportBigNumbers: true,
        charset: 'utf8mb4',
        // mysql2's own formatting, with each statement text's placeholders found once (mysql-query-format.ts).
        queryFormat: formatQuery,
      } as Knex.MySql2ConnectionConfig,
      pool: {
        min: 0,
        max: options.poolMax ?? 10,
        // READ COMMITTED: a statement sees what committed before it, so re-reading after a
        // duplicate-key race finds the winner's row, and inserts take no gap locks.
        afterCreate(conn: { query(sql: string, cb: (err: Error | null) => void): void }, done: (err: Error | null, conn: unknown) => void) {
          conn.query('SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED', (err) => done(err, conn));
        },
      },
    });
  }
  if (databaseUrl.startsWith('postgres://') || databaseUrl.startsWith('postgresql://')) {
    return knex({
      client: NulRefusingPgClient as unknown as typeof Knex.Client,
      connection: { connectionString: databaseUrl, types: POSTGRES_TYPES } as Knex.PgConnectionConfig,
      // PostgreSQL's default isolation is READ COMMITTED already (as the MySQL sessions set it).
      pool: { min: 0, max: options.poolMax ?? 10 },
    });
  }
  if (databaseUrl.startsWith('sqlite:')) {
    const file = databaseUrl.slice('sqlite:'.length);
    if (file !== ':memory:') ownerOnlyDatabaseFile(file);
    return knex({
      client: 'better-sqlite3',
      connection: { filename: file },
      useNullAsDefault: true,
      pool: {
        min: 1,
        max: 1,
        afterCreate(conn: { pragma(sql: string): unknown }, done: (err: Error | null, conn: unknown) => void) {
          // WAL lets readers of other processes (admin CLI) work beside the server; the busy
          // timeout waits for a writer instead of failing.
          conn.pragma('journal_mode = WAL');
          conn.pragma('busy_timeout = 5000');
          conn.pragma('foreign_keys = ON');
          done(null, conn);
        },
      },
    });
  }
  throw new Error(`Unsupported DATABASE_URL ${databaseUrl}: use mysql://…, postgres://… or sqlite:<path>`);
}

const INT8 = 20;
const NUMERIC = 1700;

/**
 * node-postgres answers BIGINT (int8: ids of BIGINT columns, epoch-millisecond instants, cents,
 * COUNT(*)) and NUMERIC (SUM of a BIGINT) as strings, lest a value beyond 2^53 lose precision.
 * Every such value here is far below 2^53, and the repositories expect numbers as the other
 * drivers give them: these connections parse both, without changing node-postgres's parsers for
 * the rest of the process.
 */
const POSTGRES_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format);
  },
};

/**
 * Knex's PostgreSQL client, refusing a string holding U+0000 before it is sent: PostgreSQL's text
 * cannot hold that character (MySQL and SQLite store it), and the statement would fail there
 * ("invalid byte sequence for encoding UTF8: 0x00"). The value is the request's fault: a 400
 * INVALID_REQUEST (where MySQL would store it or find nothing). A subclass, so that the clients
 * of transactions (made from its prototype) refuse it as well; sqlDialect knows it by its
 * driverName, pg.
 */
// Knex publishes no types for its dialect classes.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const KnexPgClient = require('knex/lib/dialects/postgres') as new (config: Knex.Config) => { prepBindings(bindings: unknown[] | undefined): unknown[] | undefined };
class NulRefusingPgClient extends KnexPgClient {
  override prepBindings(bindings: unknown[] | undefined): unknown[] | undefined {
    if (bindings?.some((value) => typeof value === 'string' && value.includes('\u0000'))) {
      throw new InvalidRequestError('Text may not contain the NUL character (U+0000) on this server (PostgreSQL cannot store it)');
    }
    return super.prepBindings(bindings);
  }
}

/**
 * The SQLite file holds every tenant's data and the sealed webhook secrets: its directory is
 * created 0700 and the file 0600 before SQLite opens it (SQLite gives its -wal and -shm files the
 * database file's mode). A file or journal already there readable by others is narrowed to 0600.
 */
function ownerOnlyDatabaseFile(file: string): void {
  const resolved = path.resolve(file);
  fs.mkdirSync(path.dirname(resolved), { recursive: true, mode: 0o700 });
  fs.closeSync(fs.openSync(resolved, 'a', 0o600));
  for (const name of [resolved, `${resolved}-wal`, `${resolved}-shm`, `${resolved}-journal`]) {
    try {
      const { mode, uid } = fs.statSync(name);
      if ((mode & 0o077) !== 0 && (typeof process.getuid !== 'function' || uid === process.getuid())) fs.chmodSync(name, 0o600);
    } catch {
      // not there (yet)
    }
  }
}

export async function migrateLatest(db: Knex): Promise<void> {
  await db.migrate.latest({ migrationSource });
}
