import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Knex } from 'knex';
import { EVENT_ID_LENGTH, EVENT_ID_PREFIX } from '../../adapters/events/event-renderer';
import { RandomIdGenerator } from '../../adapters/ids/random-id-generator';
import { openKnex } from '../../adapters/persistence/knex/connection';

/**
 * What the create floors (koa-debts.ts, koa-links.ts, koa-subscriptions.ts) share: Koa, the
 * API's own Knex setup (openKnex: pool of 10, READ COMMITTED) and id generator (random bytes
 * drawn a pool at a time: one CSPRNG call per id cost the floors up to a tenth of their CPU,
 * 2026-12-06), and the API's grouping of
 * concurrent creates. The creates that arrive in one turn of the event loop are one group (at
 * most 50, two groups in flight, as the API's group commit); the floor's `write` writes a group
 * and answers each create its object. No authentication, rate limit, validation, idempotency
 * replay, metrics, logging or domain layer: the difference between a floor and the API's create
 * is what those cost.
 *
 * It groups with these few lines rather than the API's GroupCommit on purpose: a floor must not
 * carry the API's layers.
 */
const MAX_GROUP = 50;
const MAX_IN_FLIGHT = 2;
const SHARDS = 16;

/** One create: the Idempotency-Key header (the create's own key) and the JSON body. */
export interface Create<B> {
  key: string;
  body: B;
}

export const db: Knex = openKnex(process.env.DATABASE_URL!);
const postgres = !process.env.DATABASE_URL!.startsWith('mysql');
const signingKey = crypto.randomBytes(32);

const ids = new RandomIdGenerator();

/** A random code of `length` letters and digits, made as the API makes its public codes. */
export function alphanumeric(length: number): string {
  return ids.alphanumeric(length);
}

/** A signed payment URL as the API's portal makes one: an HMAC tag of the id. */
export function signedUrl(root: string, id: string): string {
  const tag = crypto.createHmac('sha256', signingKey).update(id).digest().subarray(0, 16).toString('base64url');
  return `http://localhost/pay/BENCH/${root}/${id}/${tag}`;
}

/** The ids a multi-row INSERT made: PostgreSQL returns each; MySQL the first, the others following it. */
export async function insertRows(trx: Knex.Transaction, table: string, rows: Record<string, unknown>[]): Promise<number[]> {
  if (postgres) return ((await trx(table).insert(rows).returning('id')) as { id: number }[]).map((r) => Number(r.id));
  const [first] = await trx(table).insert(rows);
  return rows.map((_, i) => Number(first) + i);
}

/** An events row as the event log writes it: the public event, its object rendered, as the payload. */
export function eventRow(organizationId: number, companyId: number, type: string, resourceId: string, object: unknown, now: number): Record<string, unknown> {
  const eventId = EVENT_ID_PREFIX + ids.alphanumeric(EVENT_ID_LENGTH);
  const requestId = `req_${ids.alphanumeric(24)}`;
  const payload = { eventId, type, createdAt: new Date(now).toISOString(), companyCode: 'BENCH', data: { object }, requestId };
  return {
    event_id: eventId, organization_id: organizationId, company_id: companyId, type, resource_id: resourceId,
    payload: JSON.stringify(payload), request_id: requestId, client_user_id: null, api_key_prefix: null, created_at: now,
  };
}

/**
 * The tally upserts of one transaction, on the one shard it drew (tallies.ts), in one order: each
 * of the company's, or of its `by` column's value (a status, a debtor) when it has one.
 */
export async function addToTallies(
  trx: Knex.Transaction,
  companyId: number,
  tallies: { table: string; live: number; by?: Record<string, string | number> }[],
): Promise<void> {
  // As tallies.ts draws it (Math.random: a shard spreads writers, it guards nothing).
  const shard = Math.floor(Math.random() * SHARDS);
  for (const { table, live, by = {} } of tallies) {
    await trx(table)
      .insert({ company_id: companyId, ...by, shard, live })
      .onConflict(['company_id', ...Object.keys(by), 'shard'])
      .merge({ live: trx.raw('?? + ?', [`${table}.live`, live]) });
  }
}

/** Serves POST / on 127.0.0.1, writing the creates of each turn with `write` as one group. */
export function serveGroupedWrites<B, R>(service: string, write: (group: Create<B>[]) => Promise<R[]>): void {
  interface Waiting extends Create<B> {
    resolve(created: R): void;
    reject(error: unknown): void;
  }
  let waiting: Waiting[] = [];
  let inFlight = 0;
  let scheduled = false;

  const schedule = (): void => {
    if (scheduled || waiting.length === 0 || inFlight >= MAX_IN_FLIGHT) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      if (waiting.length === 0 || inFlight >= MAX_IN_FLIGHT) return;
      const group = waiting.slice(0, MAX_GROUP);
      waiting = waiting.slice(MAX_GROUP);
      inFlight += 1;
      write(group)
        .then(
          (created) => group.forEach((w, i) => w.resolve(created[i]!)),
          (error) => group.forEach((w) => w.reject(error)),
        )
        .finally(() => {
          inFlight -= 1;
          schedule();
        });
    });
  };

  const app = new Koa();
  app.use(async (ctx) => {
    if (ctx.method !== 'POST') ctx.throw(405);
    const chunks: Buffer[] = [];
    for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as B;
    const created = await new Promise<R>((resolve, reject) => {
      waiting.push({ key: ctx.get('idempotency-key'), body, resolve, reject });
      schedule();
    });
    ctx.status = 201;
    ctx.body = { data: created, requestId: 'req_bench' };
  });

  const server = app.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ service, port: (server.address() as AddressInfo).port }));
  });
  const stop = () => server.close(() => void db.destroy().then(() => process.exit(0)));
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}
