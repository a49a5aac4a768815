import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Knex } from 'knex';
import { openKnex } from '../../adapters/persistence/knex/connection';

/**
 * The floor of a list (issue 19): Koa and the API's own Knex setup (openKnex: pool of 10, READ
 * COMMITTED) running the statements one API request of that list ran, recorded in the API process
 * (bench/lib/cpu-probe.cjs), and answering the page's rows as they come from the driver, as JSON.
 * No authentication, rate limit, validation, mapping, presenting, metrics or logging: what the
 * list's statements and its rows' JSON cost on this machine, and nothing else.
 *
 * `PUT /<list>` with the statements (`[{ sql, bindings }]`) sets a list up; `GET /<list>` runs them
 * in order, one after the other as the API does, and answers the first one's rows as `data` and
 * every row of the others in `meta.more` (until 2026-11-29 only their first row: a list that read
 * its debtor first had its floor serialize one row of its page).
 */
interface Statement {
  sql: string;
  bindings: Knex.RawBinding[];
}

const db = openKnex(process.env.DATABASE_URL!);
const postgres = !process.env.DATABASE_URL!.startsWith('mysql');
const lists = new Map<string, Statement[]>();

/** A raw result's rows: mysql2 answers `[rows, fields]`, node-postgres `{ rows }`. */
const rowsOf = (result: unknown): unknown[] => (postgres ? (result as { rows: unknown[] }).rows : (result as [unknown[]])[0]);

const app = new Koa();
app.use(async (ctx) => {
  const name = decodeURIComponent(ctx.path.slice(1));
  if (ctx.method === 'PUT') {
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    lists.set(name, JSON.parse(Buffer.concat(chunks).toString('utf8')) as Statement[]);
    ctx.status = 204;
    return;
  }
  const statements = lists.get(name);
  if (ctx.method !== 'GET' || !statements) {
    ctx.status = ctx.method !== 'GET' ? 405 : 404;
    return;
  }
  const results: unknown[][] = [];
  for (const { sql, bindings } of statements) results.push(rowsOf(await db.raw(sql, bindings)));
  ctx.body = { data: results[0] ?? [], meta: { more: results.slice(1) }, requestId: 'req_bench' };
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ service: 'koa-page', port: (server.address() as AddressInfo).port }));
});
const stop = () => server.close(() => void db.destroy().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
