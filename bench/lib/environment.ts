import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import mysql from 'mysql2/promise';
import pg from 'pg';

/** The database server a bench run measures the API on (`--database`, MySQL by default). */
export type DatabaseKind = 'mysql' | 'postgres';

/**
 * One connection of the bench's own (seeding, polling, plans, row counts), on either server.
 * SQL is written with `?` placeholders on both; on PostgreSQL they become `$1, $2, …` here.
 * Results are plain objects; on PostgreSQL BIGINT and NUMERIC come back as numbers and DATE,
 * JSON and timestamps as the server's text, as mysql2 gives them (so a row read can be written again).
 */
export interface BenchConnection {
  query<T = Record<string, unknown>>(sql: string, values?: unknown[]): Promise<T[]>;
  /** A multi-row INSERT of `rows` (split into statements under PostgreSQL's 65,535 parameters). */
  insertRows(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  end(): Promise<void>;
}

/** A secondary index of a table, as the server prints it, and how to drop and build it again. */
export interface SecondaryIndex {
  name: string;
  /** What is compared after a rebuild (MySQL: the SHOW CREATE TABLE line; PostgreSQL: pg_indexes.indexdef or the constraint). */
  definition: string;
}

/**
 * Everything the bench does differently per database server, in one place (the app's own
 * differences live in adapters/persistence/knex/dialect.ts). Chosen by the URL's scheme.
 */
export interface BenchDialect {
  kind: DatabaseKind;
  /** Process names (/proc/<pid>/comm) of the server, for its CPU time (bench/lib/cpu.ts). */
  serverCommands: string[];
  connect(url: string): Promise<BenchConnection>;
  /** A fresh database on the server; answers its URL. */
  createDatabase(serverUrl: string, name: string): Promise<string>;
  dropDatabase(serverUrl: string, name: string): Promise<void>;
  /** Product and version, and the server's page cache (InnoDB buffer pool or shared_buffers). */
  describeServer(conn: BenchConnection): Promise<Pick<Machine, 'database' | 'bufferPoolMiB' | 'sharedBuffersMiB'>>;
  /** Statements a bench session runs first: READ COMMITTED (PostgreSQL's default, set on MySQL as the app does). */
  sessionSetup: string[];
  /** Statements a seeding session runs first: no foreign key (and, on MySQL, unique) checks; the generator guarantees both. */
  bulkLoadSetup: string[];
  quote(identifier: string): string;
  secondaryIndexes(conn: BenchConnection, table: string): Promise<SecondaryIndex[]>;
  dropIndexes(conn: BenchConnection, table: string, indexes: SecondaryIndex[]): Promise<void>;
  createIndexes(conn: BenchConnection, table: string, indexes: SecondaryIndex[]): Promise<void>;
  /** Fresh planner statistics for the tables (and on PostgreSQL their pages' visibility: VACUUM). */
  analyze(conn: BenchConnection, tables: string[]): Promise<void>;
  /**
   * The plan of a statement (bindings inlined), as rows: MariaDB `ANALYZE` (runs it, adds the rows
   * actually read), MySQL `EXPLAIN`, PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)` (one row per line of text).
   */
  explain(conn: BenchConnection, sql: string): Promise<Record<string, unknown>[]>;
  /** How the plans are made, for the report. */
  planMethod: string;
  /**
   * Statements the server has received from every client so far (MariaDB's `Questions`), to count
   * a scenario's statements per request; null where the server keeps no such count (PostgreSQL
   * without pg_stat_statements).
   */
  statementsSoFar(db: { query<T>(sql: string, values?: unknown[]): Promise<T[]> }): Promise<number | null>;
}

export function benchDialect(url: string): BenchDialect {
  if (url.startsWith('mysql://')) return MYSQL;
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) return POSTGRES;
  throw new Error(`the bench runs on mysql://… or postgres://… servers, not ${url}`);
}

const MYSQL: BenchDialect = {
  kind: 'mysql',
  serverCommands: ['mariadbd', 'mysqld'],
  async connect(url) {
    const conn = await mysql.createConnection({ uri: url, charset: 'utf8mb4' });
    return {
      async query<T>(sql: string, values: unknown[] = []) {
        const [rows] = await conn.query(sql, values);
        return (Array.isArray(rows) ? rows : [rows]) as T[];
      },
      async insertRows(table, columns, rows) {
        if (rows.length === 0) return;
        await conn.query(`INSERT INTO ${table} (${columns.map((c) => `\`${c}\``).join(', ')}) VALUES ?`, [rows]);
      },
      end: () => conn.end(),
    };
  },
  async createDatabase(serverUrl, name) {
    const admin = await mysql.createConnection({ uri: serverUrl });
    try {
      await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
    } finally {
      await admin.end();
    }
    return `${serverUrl.replace(/\/+$/, '')}/${name}`;
  },
  async dropDatabase(serverUrl, name) {
    const admin = await mysql.createConnection({ uri: serverUrl });
    try {
      await admin.query(`DROP DATABASE IF EXISTS \`${name}\``);
    } finally {
      await admin.end();
    }
  },
  async describeServer(conn) {
    const [version] = await conn.query<{ v: string }>('SELECT VERSION() AS v');
    const [pool] = await conn.query<{ b: number | string | null }>('SELECT @@innodb_buffer_pool_size AS b').catch(() => []);
    return {
      database: version ? `${/mariadb/i.test(version.v) ? 'MariaDB' : 'MySQL'} ${version.v}` : 'unknown',
      bufferPoolMiB: pool?.b ? Math.round(Number(pool.b) / 1024 ** 2) : null,
      sharedBuffersMiB: null,
    };
  },
  sessionSetup: ['SET SESSION TRANSACTION ISOLATION LEVEL READ COMMITTED'],
  bulkLoadSetup: ['SET SESSION foreign_key_checks = 0, unique_checks = 0'],
  quote: (identifier) => `\`${identifier}\``,
  // The KEY and UNIQUE KEY clauses of SHOW CREATE TABLE (not the primary key).
  async secondaryIndexes(conn, table) {
    const [row] = await conn.query<Record<string, unknown>>(`SHOW CREATE TABLE \`${table}\``);
    return String(row?.['Create Table'] ?? '')
      .split('\n')
      .map((line) => line.trim().replace(/,$/, ''))
      .flatMap((line) => {
        const match = /^(?:UNIQUE )?KEY `([^`]+)` \(/.exec(line);
        return match ? [{ name: match[1]!, definition: line }] : [];
      });
  },
  async dropIndexes(conn, table, indexes) {
    if (indexes.length > 0) await conn.query(`ALTER TABLE \`${table}\` ${indexes.map((i) => `DROP INDEX \`${i.name}\``).join(', ')}`);
  },
  // One ALTER TABLE: one sorted build of each.
  async createIndexes(conn, table, indexes) {
    if (indexes.length > 0) await conn.query(`ALTER TABLE \`${table}\` ${indexes.map((i) => `ADD ${i.definition}`).join(', ')}`);
  },
  async analyze(conn, tables) {
    await conn.query(`ANALYZE TABLE ${tables.join(', ')}`);
  },
  async explain(conn, sql) {
    const [version] = await conn.query<{ v: string }>('SELECT VERSION() AS v');
    const rows = await conn.query<Record<string, unknown>>(`${/mariadb/i.test(String(version?.v)) ? 'ANALYZE' : 'EXPLAIN'} ${sql}`);
    return rows.map((row) => ({ ...row }));
  },
  planMethod: 'MariaDB `ANALYZE`: the plan plus r_rows, the rows actually read (plain `EXPLAIN` on MySQL)',
  async statementsSoFar(db) {
    const [row] = await db.query<{ Value: string }>("SHOW GLOBAL STATUS LIKE 'Questions'");
    return row ? Number(row.Value) : null;
  },
};

const PG_INT8 = 20;
const PG_NUMERIC = 1700;
/** date, json, jsonb, timestamp, timestamptz: left as the server's text. */
const PG_AS_TEXT = new Set([1082, 114, 3802, 1114, 1184]);
const PG_TYPES = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === PG_INT8 || oid === PG_NUMERIC) return (value: string) => Number(value);
    if (PG_AS_TEXT.has(oid)) return (value: string) => value;
    return pg.types.getTypeParser(oid, format);
  },
};
/** PostgreSQL's limit of bind parameters in one statement. */
const PG_MAX_PARAMETERS = 65_535;

/** `?` placeholders (outside quoted literals and identifiers) as `$1, $2, …`. */
export function numberedPlaceholders(sql: string): string {
  let n = 0;
  let quote: string | null = null;
  let out = '';
  for (const ch of sql) {
    if (quote) {
      if (ch === quote) quote = null;
      out += ch;
    } else if (ch === "'" || ch === '"') {
      quote = ch;
      out += ch;
    } else {
      out += ch === '?' ? `$${++n}` : ch;
    }
  }
  return out;
}

async function pgClient(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url, types: PG_TYPES });
  await client.connect();
  return client;
}

/** The server URL with another database name in its path. */
function pgUrlFor(serverUrl: string, database: string): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

const POSTGRES: BenchDialect = {
  kind: 'postgres',
  // The postmaster and one backend per connection, all named postgres (cpu.ts adds the exited ones).
  serverCommands: ['postgres'],
  async connect(url) {
    const client = await pgClient(url);
    const query = async <T>(sql: string, values: unknown[] = []) => (await client.query(numberedPlaceholders(sql), values)).rows as T[];
    return {
      query,
      async insertRows(table, columns, rows) {
        const perStatement = Math.max(1, Math.floor(PG_MAX_PARAMETERS / columns.length));
        for (let at = 0; at < rows.length; at += perStatement) {
          const chunk = rows.slice(at, at + perStatement);
          const tuple = `(${columns.map(() => '?').join(', ')})`;
          await query(`INSERT INTO ${table} (${columns.map((c) => `"${c}"`).join(', ')}) VALUES ${chunk.map(() => tuple).join(', ')}`, chunk.flat());
        }
      },
      end: () => client.end(),
    };
  },
  async createDatabase(serverUrl, name) {
    // As the tests do: UTF8 and the C collation (keys compare byte by byte, as utf8mb4_bin does).
    const admin = await pgClient(serverUrl);
    try {
      await admin.query(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
    } finally {
      await admin.end();
    }
    return pgUrlFor(serverUrl, name);
  },
  async dropDatabase(serverUrl, name) {
    const admin = await pgClient(serverUrl);
    try {
      await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    } finally {
      await admin.end();
    }
  },
  async describeServer(conn) {
    const [version] = await conn.query<{ v: string }>("SELECT current_setting('server_version') AS v");
    const [buffers] = await conn.query<{ b: number }>("SELECT setting::bigint * pg_size_bytes(unit) AS b FROM pg_settings WHERE name = 'shared_buffers'");
    return {
      database: version ? `PostgreSQL ${version.v.split(' ')[0]}` : 'unknown',
      bufferPoolMiB: null,
      sharedBuffersMiB: buffers?.b ? Math.round(Number(buffers.b) / 1024 ** 2) : null,
    };
  },
  sessionSetup: [],
  // Foreign keys are triggers on PostgreSQL: a replica-role session skips them (needs a superuser).
  bulkLoadSetup: ["SET session_replication_role = 'replica'"],
  quote: (identifier) => `"${identifier}"`,
  // Plain indexes by their CREATE INDEX; the unique constraints (whose index the constraint owns) by their constraint.
  async secondaryIndexes(conn, table) {
    const rows = await conn.query<{ name: string; definition: string; constraint: string | null }>(
      `SELECT i.indexname AS name, COALESCE('CONSTRAINT ' || quote_ident(c.conname) || ' ' || pg_get_constraintdef(c.oid), i.indexdef) AS definition, c.contype AS "constraint"
         FROM pg_indexes i
         LEFT JOIN pg_constraint c ON c.conindid = (quote_ident(i.schemaname) || '.' || quote_ident(i.indexname))::regclass AND c.conrelid = (quote_ident(i.schemaname) || '.' || quote_ident(i.tablename))::regclass
        WHERE i.schemaname = current_schema() AND i.tablename = ? AND c.contype IS DISTINCT FROM 'p'
        ORDER BY i.indexname`,
      [table],
    );
    return rows.map((r) => ({ name: r.name, definition: r.definition }));
  },
  async dropIndexes(conn, table, indexes) {
    const constraints = indexes.filter((i) => i.definition.startsWith('CONSTRAINT '));
    if (constraints.length > 0) await conn.query(`ALTER TABLE "${table}" ${constraints.map((i) => `DROP CONSTRAINT "${i.name}"`).join(', ')}`);
    for (const index of indexes.filter((i) => !i.definition.startsWith('CONSTRAINT '))) await conn.query(`DROP INDEX "${index.name}"`);
  },
  async createIndexes(conn, table, indexes) {
    await conn.query("SET maintenance_work_mem = '256MB'");
    for (const index of indexes) {
      await conn.query(index.definition.startsWith('CONSTRAINT ') ? `ALTER TABLE "${table}" ADD ${index.definition}` : index.definition);
    }
  },
  // VACUUM as well, as autovacuum keeps a table that only grows (PostgreSQL 13 and later vacuum after
  // inserts too): it sets the pages' visibility, without which a count or a page read from an index
  // visits each match's row to learn whether it is visible (an index-only scan in name only).
  async analyze(conn, tables) {
    await conn.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
  },
  async explain(conn, sql) {
    const rows = await conn.query<{ 'QUERY PLAN': string }>(`EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${sql}`);
    return rows.map((row) => ({ 'QUERY PLAN': row['QUERY PLAN'] }));
  },
  planMethod: 'PostgreSQL `EXPLAIN (ANALYZE, BUFFERS)`: the plan as run, with the rows and buffers each node actually read',
  async statementsSoFar() {
    return null;
  },
};

export interface BenchDatabase {
  name: string;
  url: string;
  dialect: BenchDialect;
  /** One-off queries against the bench database (row counts, versions), `?` placeholders. */
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  /** A multi-row INSERT on a connection of its own. */
  insertRows(table: string, columns: string[], rows: unknown[][]): Promise<void>;
  /** Has the server take the tables' planner statistics now (what its own background work does within a minute). */
  analyze(tables: string[]): Promise<void>;
  drop(): Promise<void>;
}

/** A fresh `bench_<random>` database on the server; `drop` removes it (idempotent). */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const dialect = benchDialect(serverUrl);
  const name = `bench_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  const url = await dialect.createDatabase(serverUrl, name);
  let dropped = false;
  const withConnection = async <R>(work: (conn: BenchConnection) => Promise<R>): Promise<R> => {
    const conn = await dialect.connect(url);
    try {
      return await work(conn);
    } finally {
      await conn.end();
    }
  };
  return {
    name,
    url,
    dialect,
    query: <T>(sql: string, values: unknown[] = []) => withConnection((conn) => conn.query<T>(sql, values)),
    insertRows: (table, columns, rows) => withConnection((conn) => conn.insertRows(table, columns, rows)),
    analyze: (tables) => withConnection((conn) => dialect.analyze(conn, tables)),
    async drop() {
      if (dropped) return;
      await dialect.dropDatabase(serverUrl, name);
      dropped = true;
    },
  };
}

export interface Machine {
  cpu: string;
  cores: number;
  memoryGiB: number;
  os: string;
  node: string;
  database: string;
  /** innodb_buffer_pool_size: whether the seeded tables fit in the server's cache matters to the lists. */
  bufferPoolMiB: number | null;
  /** PostgreSQL's shared_buffers (its own cache; the OS page cache holds the rest). */
  sharedBuffersMiB?: number | null;
}

export async function describeMachine(db: BenchDatabase): Promise<Machine> {
  let cpu = os.cpus()[0]?.model ?? 'unknown';
  try {
    const info = fs.readFileSync('/proc/cpuinfo', 'utf8');
    const model = /^model name\s*:\s*(.+)$/m.exec(info)?.[1]?.trim();
    const mhz = /^cpu MHz\s*:\s*([\d.]+)$/m.exec(info)?.[1];
    if (model) cpu = mhz ? `${model} @ ${Math.round(Number(mhz))} MHz` : model;
  } catch {
    // not Linux: keep os.cpus()
  }
  const conn = await db.dialect.connect(db.url);
  try {
    return {
      cpu,
      cores: os.cpus().length,
      memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
      os: `${os.type()} ${os.release()} ${os.arch()}`,
      node: process.version,
      ...(await db.dialect.describeServer(conn)),
    };
  } finally {
    await conn.end();
  }
}

/** Removes the BullMQ keys the API created under its unique queue prefix. */
export async function deleteRedisPrefix(redisUrl: string, prefix: string): Promise<number> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1, retryStrategy: () => null });
  redis.on('error', () => undefined);
  let deleted = 0;
  try {
    await redis.connect();
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}:*`, 'COUNT', 500);
      cursor = next;
      if (keys.length > 0) deleted += await redis.del(...keys);
    } while (cursor !== '0');
  } finally {
    redis.disconnect();
  }
  return deleted;
}

/**
 * Sets the server's InnoDB buffer pool for the run (`--innodb-buffer-pool <MiB>`, opt-in: it is a
 * server-wide setting) and returns how to put the previous size back. MariaDB 10.2+ and MySQL
 * 5.7+ resize it online; this waits until the new size is in place. MySQL only: PostgreSQL's
 * shared_buffers needs a server restart, which the bench does not do.
 */
export async function setBufferPool(serverUrl: string, mib: number): Promise<() => Promise<void>> {
  if (benchDialect(serverUrl).kind !== 'mysql') {
    throw new Error('--innodb-buffer-pool sizes a MariaDB/MySQL server; PostgreSQL\'s shared_buffers needs a restart (set it in postgresql.conf)');
  }
  const conn = await mysql.createConnection({ uri: serverUrl });
  try {
    const sizeOf = async () => Number(((await conn.query('SELECT @@innodb_buffer_pool_size AS size'))[0] as { size: number }[])[0]!.size);
    const previous = await sizeOf();
    const resize = async (bytes: number) => {
      await conn.query('SET GLOBAL innodb_buffer_pool_size = ?', [bytes]);
      const deadline = Date.now() + 60_000;
      while ((await sizeOf()) !== bytes && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 200));
    };
    await resize(mib * 1024 * 1024);
    return async () => {
      const again = await mysql.createConnection({ uri: serverUrl });
      try {
        await again.query('SET GLOBAL innodb_buffer_pool_size = ?', [previous]);
      } finally {
        await again.end();
      }
    };
  } finally {
    await conn.end();
  }
}
