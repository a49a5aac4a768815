import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import mysql from 'mysql2/promise';
import pg from 'pg';

/**
 * Baseline 2: Koa + one INSERT per POST (pool of 10, like the API's Knex pool), into a table of
 * its own in the bench database. It reads and parses the JSON body and answers 201 with the new
 * id: the least any "create" endpoint has to do on this machine. On MySQL it uses mysql2's
 * `query` (client-side escaping), as Knex does, not server-side prepared statements; on
 * PostgreSQL a node-postgres Pool with `RETURNING id` (the extended protocol, unnamed statements,
 * as Knex's pg client does).
 *
 * Baseline 3 (koa-select) is the same process answering `GET /<id>` with one SELECT by primary
 * key of a row the POSTs left, as JSON: the least any read served from the database has to do.
 */
const TABLE = 'bench_baseline_insert';

/** The baseline's three statements on one server. */
interface Store {
  insert(values: [string, string, string, string, number]): Promise<number>;
  byId(id: number): Promise<Record<string, unknown> | undefined>;
  end(): Promise<void>;
}

async function mysqlStore(url: string): Promise<Store> {
  const pool = mysql.createPool({ uri: url, connectionLimit: 10, charset: 'utf8mb4' });
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (
       id BIGINT UNSIGNED NOT NULL AUTO_INCREMENT PRIMARY KEY,
       external_id VARCHAR(100) NOT NULL,
       name VARCHAR(200) NOT NULL,
       email VARCHAR(320) NOT NULL,
       payload JSON NOT NULL,
       created_at BIGINT NOT NULL
     ) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4`,
  );
  return {
    async insert(values) {
      const [result] = await pool.query<mysql.ResultSetHeader>(`INSERT INTO ${TABLE} (external_id, name, email, payload, created_at) VALUES (?, ?, ?, ?, ?)`, values);
      return result.insertId;
    },
    async byId(id) {
      const [rows] = await pool.query<mysql.RowDataPacket[]>(`SELECT id, external_id, name, email, created_at FROM ${TABLE} WHERE id = ?`, [id]);
      return rows[0];
    },
    end: () => pool.end(),
  };
}

async function postgresStore(url: string): Promise<Store> {
  // BIGINT as numbers, as the app's connections parse them (adapters/persistence/knex/connection.ts).
  const types = {
    getTypeParser: (oid: number, format?: 'text' | 'binary') => (oid === 20 ? (value: string) => Number(value) : pg.types.getTypeParser(oid, format)),
  };
  const pool = new pg.Pool({ connectionString: url, max: 10, types });
  // jsonb: stored parsed, as MySQL's JSON is.
  await pool.query(
    `CREATE TABLE IF NOT EXISTS ${TABLE} (
       id BIGSERIAL PRIMARY KEY,
       external_id VARCHAR(100) NOT NULL,
       name VARCHAR(200) NOT NULL,
       email VARCHAR(320) NOT NULL,
       payload JSONB NOT NULL,
       created_at BIGINT NOT NULL
     )`,
  );
  return {
    async insert(values) {
      const result = await pool.query<{ id: number }>(`INSERT INTO ${TABLE} (external_id, name, email, payload, created_at) VALUES ($1, $2, $3, $4, $5) RETURNING id`, values);
      return result.rows[0]!.id;
    },
    async byId(id) {
      const result = await pool.query(`SELECT id, external_id, name, email, created_at FROM ${TABLE} WHERE id = $1`, [id]);
      return result.rows[0] as Record<string, unknown> | undefined;
    },
    end: () => pool.end(),
  };
}

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL ?? '';
  const store = url.startsWith('mysql://')
    ? await mysqlStore(url)
    : /^postgres(ql)?:\/\//.test(url)
      ? await postgresStore(url)
      : null;
  if (!store) throw new Error('DATABASE_URL must be a mysql:// or postgres:// URL');

  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET') {
      const row = await store.byId(Number(ctx.path.slice(1)));
      if (!row) {
        ctx.status = 404;
        return;
      }
      ctx.body = { data: row, requestId: 'req_baseline' };
      return;
    }
    if (ctx.method !== 'POST') {
      ctx.status = 405;
      return;
    }
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const body = JSON.parse(text) as { externalClientId?: string; name?: string; email?: string };
    const id = await store.insert([body.externalClientId ?? '', body.name ?? '', body.email ?? '', text, Date.now()]);
    ctx.status = 201;
    ctx.body = { data: { id }, requestId: 'req_baseline' };
  });

  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ service: 'koa-insert', port: (server.address() as AddressInfo).port }) + '\n');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => server.close(() => void store.end().finally(() => process.exit(0))));
  }
}

main().catch((error) => {
  process.stderr.write(`koa-insert baseline failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
