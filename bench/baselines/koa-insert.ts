import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import mysql from 'mysql2/promise';

/**
 * Baseline 2: Koa + one mysql2 INSERT per POST (pool of 10, like the API's Knex pool), into a
 * table of its own in the bench database. It reads and parses the JSON body and answers 201
 * with the new id: the least any "create" endpoint has to do on this machine. It uses
 * `query` (client-side escaping), as Knex does, not server-side prepared statements.
 *
 * Baseline 3 (koa-select) is the same process answering `GET /<id>` with one SELECT by primary
 * key of a row the POSTs left, as JSON: the least any read served from MySQL has to do.
 */
const TABLE = 'bench_baseline_insert';

async function main(): Promise<void> {
  const url = process.env.DATABASE_URL;
  if (!url?.startsWith('mysql://')) throw new Error('DATABASE_URL must be a mysql:// URL');
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

  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method === 'GET') {
      const [rows] = await pool.query<mysql.RowDataPacket[]>(`SELECT id, external_id, name, email, created_at FROM ${TABLE} WHERE id = ?`, [
        Number(ctx.path.slice(1)),
      ]);
      if (rows.length === 0) {
        ctx.status = 404;
        return;
      }
      ctx.body = { data: rows[0], requestId: 'req_baseline' };
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
    const [result] = await pool.query<mysql.ResultSetHeader>(
      `INSERT INTO ${TABLE} (external_id, name, email, payload, created_at) VALUES (?, ?, ?, ?, ?)`,
      [body.externalClientId ?? '', body.name ?? '', body.email ?? '', text, Date.now()],
    );
    ctx.status = 201;
    ctx.body = { data: { id: result.insertId }, requestId: 'req_baseline' };
  });

  const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
    process.stdout.write(JSON.stringify({ service: 'koa-insert', port: (server.address() as AddressInfo).port }) + '\n');
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.on(signal, () => server.close(() => void pool.end().finally(() => process.exit(0))));
  }
}

main().catch((error) => {
  process.stderr.write(`koa-insert baseline failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
