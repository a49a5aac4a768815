import { addToTallies, type Create, db, eventRow, insertRows, serveGroupedWrites, signedUrl } from './grouped-writes';

/**
 * Baseline 4, the floor of a single debt create (issue 19): Koa and Knex writing what a
 * POST /v2/debts must write, grouped as the API groups it (grouped-writes.ts), and nothing else:
 * the product read, then one transaction with the debtors' read, one multi-row INSERT of the
 * debts, one of their debt.created events (each carrying the debt rendered as JSON, about 1 KB,
 * and a signed payment URL) and the upserts of the debt and event tallies; each request is
 * answered its debt.
 *
 * The body names the organization, company, contact (externalClientId) and product the scenario
 * made for it (bench/scenarios/baselines.ts); the Idempotency-Key header is the externalRequestId.
 */
interface Body {
  organizationId: number;
  companyId: number;
  externalClientId: string;
  productId: number;
  amount: number;
  dueDate: string;
  description: string;
}

async function write(group: Create<Body>[]): Promise<Record<string, unknown>[]> {
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
    const ids = await insertRows(trx, 'debts', rows);
    const createdAt = new Date(now).toISOString();
    const debts = rows.map((row, i) => {
      const contact = contactOf.get(group[i]!.body.externalClientId)!;
      const product = productOf.get(row.product_id)!;
      const debtId = `debt_${row.external_request_id}`;
      return {
        id: ids[i],
        debtId, externalRequestId: row.external_request_id, status: 'PENDING', amount: row.amount_cents / 100, amountPaid: 0, currency: row.currency,
        dueDate: row.due_date, allowOverduePayment: true, allowPartialPayments: true, description: row.description,
        paymentUrl: signedUrl('debts', debtId),
        contact: { contactId: contact.code, externalClientId: contact.external_client_id, createdInline: false },
        product: { productId: `prd_${product.id}`, name: product.name, active: Boolean(product.active), createdInline: false },
        autopay: false, autopayReason: row.autopay_reason, createdAt,
      };
    });
    await trx('events').insert(debts.map((debt) => eventRow(organizationId, companyId, 'debt.created', debt.debtId, debt, now)));
    await addToTallies(trx, companyId, [{ table: 'debt_tallies', live: rows.length, by: { status: 'PENDING' } }, { table: 'event_tallies', live: rows.length }]);
    return debts;
  });
}

serveGroupedWrites('koa-debts', write);
