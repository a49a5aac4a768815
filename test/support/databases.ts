import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import knex from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';

export type DatabaseKind = 'sqlite' | 'mysql' | 'postgres';

export interface TestDatabase {
  kind: DatabaseKind;
  url: string;
  drop(): Promise<void>;
}

/** MariaDB/MySQL server for tests; each test file gets a database of its own on it. */
export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306';
/** PostgreSQL server for tests (15+); each test file gets a database of its own on it. */
export const TEST_POSTGRES_URL = process.env.TEST_POSTGRES_URL ?? 'postgres://root@127.0.0.1:5432/postgres';
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Under CI a missing MySQL, PostgreSQL or Redis fails the run; on a laptop the tests that need it skip. */
export const REQUIRE_SERVICES = process.env.CI === 'true';

export const DATABASE_KINDS: DatabaseKind[] = ['sqlite', 'mysql', 'postgres'];

/** A test database with every migration applied (for processes started with migrate off). */
export async function createMigratedTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const database = await createTestDatabase(kind);
  const db = openKnex(database.url);
  try {
    await migrateLatest(db);
  } finally {
    await db.destroy();
  }
  return database;
}

export async function createTestDatabase(kind: DatabaseKind): Promise<TestDatabase> {
  const name = `test_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  if (kind === 'sqlite') {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-test-'));
    return { kind, url: `sqlite:${path.join(dir, `${name}.sqlite`)}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  }
  if (kind === 'postgres') return createPostgresDatabase(name);
  const admin = knex({ client: 'mysql2', connection: { uri: TEST_MYSQL_URL } as never, pool: { min: 0, max: 1 } });
  try {
    await admin.raw(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.destroy();
  }
  return {
    kind,
    url: `${TEST_MYSQL_URL.replace(/\/+$/, '')}/${name}`,
    drop: async () => {
      const db = knex({ client: 'mysql2', connection: { uri: TEST_MYSQL_URL } as never, pool: { min: 0, max: 1 } });
      try {
        await db.raw(`DROP DATABASE IF EXISTS \`${name}\``);
      } finally {
        await db.destroy();
      }
    },
  };
}

/** The server's URL with another database name in its path. */
export function postgresUrlOf(database: string, serverUrl = TEST_POSTGRES_URL): string {
  const url = new URL(serverUrl);
  url.pathname = `/${database}`;
  return url.toString();
}

/**
 * A fresh database on the test PostgreSQL server: UTF8 with the C collation, so text compares and
 * sorts byte by byte as on MySQL's utf8mb4_bin and SQLite's BINARY. Dropped WITH (FORCE), which
 * ends the connections a test left open (PostgreSQL 13+).
 */
async function createPostgresDatabase(name: string): Promise<TestDatabase> {
  const admin = () => knex({ client: 'pg', connection: { connectionString: TEST_POSTGRES_URL }, pool: { min: 0, max: 1 } });
  const db = admin();
  try {
    await db.raw(`CREATE DATABASE "${name}" TEMPLATE template0 ENCODING 'UTF8' LC_COLLATE 'C' LC_CTYPE 'C'`);
  } finally {
    await db.destroy();
  }
  return {
    kind: 'postgres',
    url: postgresUrlOf(name),
    drop: async () => {
      const db = admin();
      try {
        await db.raw(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
      } finally {
        await db.destroy();
      }
    },
  };
}

/** True when the PostgreSQL server answers; throws instead under CI, where it must be there. */
export async function postgresAvailable(): Promise<boolean> {
  const db = knex({ client: 'pg', connection: { connectionString: TEST_POSTGRES_URL, connectionTimeoutMillis: 2000 }, pool: { min: 0, max: 1 } });
  try {
    await db.raw('select 1');
    return true;
  } catch (error) {
    if (REQUIRE_SERVICES) throw new Error(`CI=true and PostgreSQL at ${TEST_POSTGRES_URL} is unreachable: ${(error as Error).message}`);
    return false;
  } finally {
    await db.destroy();
  }
}

/**
 * TEST_DATABASES=sqlite,mysql runs only the legs of those databases (default: every one). A leg
 * left out skips (pending), also under CI: a lever on the CI time budget, never a silent drop.
 */
export const SELECTED_DATABASE_KINDS: DatabaseKind[] = process.env.TEST_DATABASES
  ? DATABASE_KINDS.filter((kind) => process.env.TEST_DATABASES!.split(',').map((k) => k.trim()).includes(kind))
  : DATABASE_KINDS;

/**
 * Whether the legs of `kind` run: selected (TEST_DATABASES) and its server answers (SQLite always
 * does); throws under CI when a selected server does not answer.
 */
export async function databaseAvailable(kind: DatabaseKind): Promise<boolean> {
  if (!SELECTED_DATABASE_KINDS.includes(kind)) return false;
  if (kind === 'mysql') return mysqlAvailable();
  if (kind === 'postgres') return postgresAvailable();
  return true;
}

/** True when the MySQL server answers; throws instead under CI, where it must be there. */
export async function mysqlAvailable(): Promise<boolean> {
  const db = knex({ client: 'mysql2', connection: { uri: TEST_MYSQL_URL, connectTimeout: 2000 } as never, pool: { min: 0, max: 1 } });
  try {
    await db.raw('select 1');
    return true;
  } catch (error) {
    if (REQUIRE_SERVICES) throw new Error(`CI=true and MySQL at ${TEST_MYSQL_URL} is unreachable: ${(error as Error).message}`);
    return false;
  } finally {
    await db.destroy();
  }
}

/** True when Redis answers; throws instead under CI. */
export async function redisAvailable(): Promise<boolean> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, connectTimeout: 2000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    await redis.ping();
    return true;
  } catch (error) {
    if (REQUIRE_SERVICES) throw new Error(`CI=true and Redis at ${TEST_REDIS_URL} is unreachable: ${(error as Error).message}`);
    return false;
  } finally {
    redis.disconnect();
  }
}

/** Deletes the keys matching `pattern` (this test's prefix, never the whole shared Redis). */
export async function deleteRedisKeys(url: string, pattern: string): Promise<number> {
  const { Redis } = await import('ioredis');
  const redis = new Redis(url);
  try {
    let deleted = 0;
    let cursor = '0';
    do {
      const [next, keys] = await redis.scan(cursor, 'MATCH', pattern, 'COUNT', 1000);
      if (keys.length > 0) deleted += await redis.del(...keys);
      cursor = next;
    } while (cursor !== '0');
    return deleted;
  } finally {
    redis.disconnect();
  }
}
