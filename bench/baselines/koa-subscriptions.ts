import { sqlDialect } from '../../adapters/persistence/knex/dialect';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { addToTallies, alphanumeric, type Create, db, eventRow, insertRows, serveGroupedWrites, signedUrl } from './grouped-writes';

/**
 * Baseline 6, the floor of a subscription create (issue 19): Koa and Knex writing what a
 * POST /subscriptions of the bench's body (a known debtor and product, 12 monthly cycles) must
 * write, grouped as the API groups it (grouped-writes.ts), and nothing else: one transaction with
 * the debtors' and the products' reads, one multi-row INSERT of the subscriptions, one of their
 * generation jobs into the outbox, one of their subscription.created events (the subscription
 * rendered, with its signed URL) and the upserts of the event and subscription tallies (per
 * status and per debtor); then the jobs handed to BullMQ (the API's own queue adapter: one
 * addBulk per turn) before the answers, and their outbox entries marked dispatched together 50 ms
 * later (MARK_AFTER_MS), as the API's DispatchOutbox does. The jobs go to a queue of the floor's
 * own (QUEUE_PREFIX), which no worker reads.
 *
 * The body names the organization, company, contact (externalClientId) and product name the
 * scenario made for it (bench/scenarios/baselines.ts); the Idempotency-Key header is the
 * externalSubscriptionId.
 */
interface Body {
  organizationId: number;
  companyId: number;
  externalClientId: string;
  productName: string;
  amount: number;
  startDate: string;
  totalCycles: number;
  description: string;
}

const MARK_AFTER_MS = 50;
const queue = new BullmqJobQueue(process.env.REDIS_URL!, process.env.QUEUE_PREFIX!);

/** The monthly due date `months` after `start` (YYYY-MM-DD; the day kept, as the bench's is the 1st to 28th). */
function addMonths(start: string, months: number): string {
  const date = new Date(`${start}T00:00:00Z`);
  date.setUTCMonth(date.getUTCMonth() + months);
  return date.toISOString().slice(0, 10);
}

let unmarked: string[] = [];
let markTimer: ReturnType<typeof setTimeout> | null = null;

/** The outbox entries handed over meanwhile, marked dispatched in one transaction (the ones no other marking holds). */
function markSoon(): void {
  markTimer ??= setTimeout(() => {
    markTimer = null;
    const jobIds = unmarked;
    unmarked = [];
    void db
      .transaction(async (trx) => {
        const free: { id: number; dispatched_at: unknown }[] = await sqlDialect(trx).lockRows(trx('job_outbox').whereIn('job_id', jobIds).orderBy('id').select('id', 'dispatched_at'), { skipLocked: true });
        const pending = free.filter((r) => r.dispatched_at === null).map((r) => r.id);
        if (pending.length > 0) await trx('job_outbox').whereIn('id', pending).update({ dispatched_at: Date.now() });
      })
      .catch(() => undefined);
  }, MARK_AFTER_MS);
}

async function write(group: Create<Body>[]): Promise<Record<string, unknown>[]> {
  const { organizationId, companyId } = group[0]!.body;
  const { answers, jobs } = await db.transaction(async (trx) => {
    const contacts = await trx('contacts').where('organization_id', organizationId).whereIn('external_client_id', [...new Set(group.map((w) => w.body.externalClientId))]);
    const contactOf = new Map(contacts.map((c) => [c.external_client_id as string, c]));
    const products = await trx('products').where('company_id', companyId).whereIn('name', [...new Set(group.map((w) => w.body.productName))]);
    const productOf = new Map(products.map((p) => [p.name as string, p]));
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const rows = group.map(({ key, body }) => ({
      organization_id: organizationId, company_id: companyId, code: alphanumeric(20), external_subscription_id: key,
      contact_id: Number(contactOf.get(body.externalClientId)!.id), contact_created_inline: false, product_id: Number(productOf.get(body.productName)!.id),
      product_created_inline: false, status: 'ACTIVE', amount_cents: Math.round(body.amount * 100), currency: 'MXN', interval_unit: 'month',
      interval_count: 1, start_date: body.startDate, total_cycles: body.totalCycles, end_date: null, billing_day: null, billing_month: null,
      last_due_date: addMonths(body.startDate, body.totalCycles - 1), enforce_payment_order: false, autopay: false, allow_overdue_payment: true,
      allow_partial_payments: true, payment_methods: null, description: body.description, additional_data: null, resume_count: 0, created_at: now, updated_at: now,
    }));
    const ids = await insertRows(trx, 'subscriptions', rows);
    const jobs = rows.map((row, i) => ({ name: 'subscriptions.generate-cycles' as const, jobId: `sub-${row.code}-generate-0`, data: { subscriptionId: ids[i]!, resume: 0, fromDate: null } }));
    await trx('job_outbox').insert(
      jobs.map((job) => ({ job_name: job.name, job_id: job.jobId, data: JSON.stringify(job.data), created_at: now, dispatched_at: null, group_key: null, deferred: false })),
    );
    const answers = rows.map((row, i) => {
      const contact = contactOf.get(group[i]!.body.externalClientId)!;
      const product = productOf.get(group[i]!.body.productName)!;
      const subscriptionId = `sub_${row.code}`;
      return {
        subscriptionId, externalSubscriptionId: row.external_subscription_id, status: 'ACTIVE',
        scheduling: { intervalUnit: 'month', intervalCount: 1, startDate: row.start_date, totalCycles: row.total_cycles, endDate: null, billingDay: null },
        externalClientId: contact.external_client_id, amount: row.amount_cents / 100, currency: row.currency, paymentUrl: signedUrl('subscriptions', subscriptionId),
        enforcePaymentOrder: false, autopay: false, allowOverduePayment: true, allowPartialPayments: true, description: row.description,
        contact: { contactId: contact.code, externalClientId: contact.external_client_id, createdInline: false },
        product: { productId: `prd_${product.id}`, name: product.name, active: Boolean(product.active), createdInline: false },
        createdAt, updatedAt: createdAt,
      };
    });
    await trx('events').insert(answers.map((s) => eventRow(organizationId, companyId, 'subscription.created', s.subscriptionId, s, now)));
    const perDebtor = new Map<number, number>();
    for (const row of rows) perDebtor.set(row.contact_id, (perDebtor.get(row.contact_id) ?? 0) + 1);
    await addToTallies(trx, companyId, [
      { table: 'event_tallies', live: rows.length },
      ...[...perDebtor].sort(([a], [b]) => a - b).map(([contactId, live]) => ({ table: 'subscription_contact_tallies', live, by: { contact_id: contactId } })),
      { table: 'subscription_tallies', live: rows.length, by: { status: 'ACTIVE' } },
    ]);
    return { answers, jobs };
  });
  // Answered once the queue holds the jobs (one addBulk for the turn); marked together later.
  await Promise.all(jobs.map((job) => queue.enqueue(job)));
  unmarked.push(...jobs.map((job) => job.jobId));
  markSoon();
  return answers;
}

serveGroupedWrites('koa-subscriptions', write);
