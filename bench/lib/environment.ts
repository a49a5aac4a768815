import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import mysql from 'mysql2/promise';

export interface BenchDatabase {
  name: string;
  url: string;
  /** One-off queries against the bench database (row counts, versions). */
  query<T>(sql: string, values?: unknown[]): Promise<T[]>;
  drop(): Promise<void>;
}

/** A fresh `bench_<random>` database on the server; `drop` removes it (idempotent). */
export async function createBenchDatabase(serverUrl: string): Promise<BenchDatabase> {
  const name = `bench_${Date.now().toString(36)}_${crypto.randomBytes(4).toString('hex')}`;
  const admin = await mysql.createConnection({ uri: serverUrl });
  try {
    await admin.query(`CREATE DATABASE \`${name}\` CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  const url = `${serverUrl.replace(/\/+$/, '')}/${name}`;
  let dropped = false;
  return {
    name,
    url,
    async query<T>(sql: string, values: unknown[] = []) {
      const conn = await mysql.createConnection({ uri: url });
      try {
        const [rows] = await conn.query(sql, values);
        return rows as T[];
      } finally {
        await conn.end();
      }
    },
    async drop() {
      if (dropped) return;
      const conn = await mysql.createConnection({ uri: serverUrl });
      try {
        await conn.query(`DROP DATABASE IF EXISTS \`${name}\``);
        dropped = true;
      } finally {
        await conn.end();
      }
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
  const [version] = await db.query<{ v: string }>('SELECT VERSION() AS v');
  const [pool] = await db.query<{ b: number | string | null }>('SELECT @@innodb_buffer_pool_size AS b').catch(() => []);
  return {
    cpu,
    cores: os.cpus().length,
    memoryGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    database: version ? `${/mariadb/i.test(version.v) ? 'MariaDB' : 'MySQL'} ${version.v}` : 'unknown',
    bufferPoolMiB: pool?.b ? Math.round(Number(pool.b) / 1024 ** 2) : null,
  };
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
 * 5.7+ resize it online; this waits until the new size is in place.
 */
export async function setBufferPool(serverUrl: string, mib: number): Promise<() => Promise<void>> {
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
