import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import Koa from 'koa';
import type { Knex } from 'knex';
import { openKnex } from '../../adapters/persistence/knex/connection';

/**
 * Baseline 4, the floor of a single debt create (issue 19): Koa and Knex, the API's own Knex
 * setup (openKnex: pool of 10, READ COMMITTED), writing what a POST /v2/debts must write and
 * nothing else. The creates that arrive in one turn of the event loop are one group (at most 50,
 * two groups in flight, as the API's group commit): the product read, then one transaction with
 * the debtors' read, one multi-row INSERT of the debts, one of their debt.created events (each
 * carrying the debt rendered as JSON, about 1 KB, and a signed payment URL) and the upserts of the
 * debt and event tallies; each request is answered its debt. No authentication, rate limit,
 * validation, idempotency replay, metrics, logging or domain layer: the difference between this
 * and POST /v2/debts is what those cost.
 *
 * The body names the organization, company, contact (externalClientId) and product the scenario
 * made for it (bench/scenarios/baselines.ts); the Idempotency-Key header is the externalRequestId.
 */
const MAX_GROUP = 50;
const MAX_IN_FLIGHT = 2;
const SHARDS = 16;

interface Body {
  organizationId: number;
  companyId: number;
  externalClientId: string;
  productId: number;
  amount: number;
  dueDate: string;
  description: string;
}
interface Waiting {
  key: string;
  body: Body;
  resolve(debt: Record<string, unknown>): void;
  reject(error: unknown): void;
}

const db: Knex = openKnex(process.env.DATABASE_URL!);
const postgres = !process.env.DATABASE_URL!.startsWith('mysql');
const signingKey = crypto.randomBytes(32);
let waiting: Waiting[] = [];
let inFlight = 0;
let scheduled = false;

function submit(key: string, body: Body): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    waiting.push({ key, body, resolve, reject });
    schedule();
  });
}

function schedule(): void {
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
        (debts) => group.forEach((w, i) => w.resolve(debts[i]!)),
        (error) => group.forEach((w) => w.reject(error)),
      )
      .finally(() => {
        inFlight -= 1;
        schedule();
      });
  });
}

async function write(group: Waiting[]): Promise<Record<string, unknown>[]> {
  const { organizationId, companyId } = group[0]!.body;
  const products = await db('products').where('company_id', companyId).whereIn('id', [...new Set(group.map((w) => w.body.productId))]);
  const productOf = new Map(products.map((p) => [Number(p.id), p]));
  return db.transaction(async (trx) => {
    const contacts = await trx('contacts').where('organization_id', organizationId).whereIn('external_client_id', [...new Set(group.map((w) => w.body.externalClientId))]);
    const contactOf = new Map(contacts.map((c) => [c.external_client_id as string, c]));
    const now = Date.now();
    const rows = group.map(({ key, body }) => ({
      additional_data: null, allow_overdue_payment: true, allow_partial_payments: true, amount_cents: Math.round(body.amount * 100), amount_paid_cents: 0,
      autopay: false, autopay_payment_method_id: null, autopay_reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY', batch_id: null, company_id: companyId,
      contact_created_inline: false, contact_id: Number(contactOf.get(body.externalClientId)!.id), created_at: now, currency: 'MXN', description: body.description,
      due_date: body.dueDate, external_request_id: key, organization_id: organizationId, payment_link_id: null, payment_methods: null,
      product_id: body.productId, status: 'PENDING', subscription_id: null, updated_at: now,
    }));
    const inserted = postgres ? await trx('debts').insert(rows).returning('id') : await trx('debts').insert(rows);
    // PostgreSQL returns every id; MySQL the first, the others following it (one multi-row INSERT).
    const idOf = (i: number) => (postgres ? Number((inserted[i] as { id: number }).id) : Number(inserted[0]) + i);
    const createdAt = new Date(now).toISOString();
    const debts = rows.map((row, i) => {
      const contact = contactOf.get(group[i]!.body.externalClientId)!;
      const product = productOf.get(row.product_id)!;
      const debtId = `debt_${row.external_request_id}`;
      const tag = crypto.createHmac('sha256', signingKey).update(debtId).digest().subarray(0, 16).toString('base64url');
      return {
        id: idOf(i),
        debtId, externalRequestId: row.external_request_id, status: 'PENDING', amount: row.amount_cents / 100, amountPaid: 0, currency: row.currency,
        dueDate: row.due_date, allowOverduePayment: true, allowPartialPayments: true, description: row.description,
        paymentUrl: `http://localhost/pay/BENCH/debts/${debtId}/${tag}`,
        contact: { contactId: contact.code, externalClientId: contact.external_client_id, createdInline: false },
        product: { productId: `prd_${product.id}`, name: product.name, active: Boolean(product.active), createdInline: false },
        autopay: false, autopayReason: row.autopay_reason, createdAt,
      };
    });
    await trx('events').insert(
      debts.map((debt) => {
        const eventId = `evt_${crypto.randomBytes(18).toString('base64url')}`;
        const requestId = `req_${crypto.randomBytes(18).toString('base64url')}`;
        const payload = { eventId, type: 'debt.created', createdAt, companyCode: 'BENCH', data: { object: debt }, requestId };
        return {
          event_id: eventId, organization_id: organizationId, company_id: companyId, type: 'debt.created', resource_id: debt.debtId,
          payload: JSON.stringify(payload), request_id: requestId, client_user_id: null, api_key_prefix: null, created_at: now,
        };
      }),
    );
    const shard = crypto.randomInt(SHARDS);
    for (const table of ['debt_tallies', 'event_tallies']) {
      await trx(table).insert({ company_id: companyId, shard, live: rows.length }).onConflict(['company_id', 'shard']).merge({ live: trx.raw('?? + ?', [`${table}.live`, rows.length]) });
    }
    return debts;
  });
}

const app = new Koa();
app.use(async (ctx) => {
  if (ctx.method !== 'POST') ctx.throw(405);
  const chunks: Buffer[] = [];
  for await (const chunk of ctx.req) chunks.push(chunk as Buffer);
  const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Body;
  ctx.status = 201;
  ctx.body = { data: await submit(ctx.get('idempotency-key'), body), requestId: 'req_bench' };
});

const server = app.listen(0, '127.0.0.1', () => {
  console.log(JSON.stringify({ service: 'koa-debts', port: (server.address() as AddressInfo).port }));
});
const stop = () => server.close(() => void db.destroy().then(() => process.exit(0)));
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
