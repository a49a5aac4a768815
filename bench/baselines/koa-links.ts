import { addToTallies, alphanumeric, type Create, db, eventRow, insertRows, serveGroupedWrites, signedUrl } from './grouped-writes';

/**
 * Baseline 5, the floor of a payment link create (issue 19): Koa and Knex writing what a
 * POST /payment-links without debtor or product must write (the bench's body), grouped as the API
 * groups it (grouped-writes.ts), and nothing else: one transaction with one multi-row INSERT of
 * the links, one of their associated debts, one of their payment_link.created and debt.created
 * events (each carrying its object rendered as JSON, with its URL) and the upserts of the debt,
 * event and link tallies; each request is answered its link.
 *
 * The body names the organization and company the scenario made for it
 * (bench/scenarios/baselines.ts) and the link's amount, description and expiresAt; the
 * Idempotency-Key header is the externalPaymentLinkId.
 */
interface Body {
  organizationId: number;
  companyId: number;
  amount: number;
  description: string;
  expiresAt: string;
}


async function write(group: Create<Body>[]): Promise<Record<string, unknown>[]> {
  const { organizationId, companyId } = group[0]!.body;
  return db.transaction(async (trx) => {
    const now = Date.now();
    const createdAt = new Date(now).toISOString();
    const links = group.map(({ key, body }) => {
      const code = alphanumeric(20);
      const identifier = `ben-${alphanumeric(10).toLowerCase()}`;
      return {
        organization_id: organizationId, company_id: companyId, code, external_payment_link_id: key, debt_external_request_id: `plk_${code}`,
        status: 'ACTIVE', amount_cents: Math.round(body.amount * 100), currency: 'MXN', description: body.description, single_use: true,
        expires_at: Date.parse(body.expiresAt), success_url: null, metadata: null, identifier_value: identifier, url_identifier: identifier,
        short_code: null, product_id: null, product_created_inline: false, contact_id: null, payments_count: 0, created_at: now, updated_at: now,
      };
    });
    const linkIds = await insertRows(trx, 'payment_links', links);
    const debts = links.map((link, i) => ({
      additional_data: null, allow_overdue_payment: false, allow_partial_payments: false, amount_cents: link.amount_cents, amount_paid_cents: 0,
      autopay: false, autopay_payment_method_id: null, autopay_reason: null, batch_id: null, company_id: companyId,
      contact_created_inline: false, contact_id: null, created_at: now, currency: link.currency, description: link.description,
      due_date: new Date(link.expires_at).toISOString().slice(0, 10), external_request_id: link.debt_external_request_id, organization_id: organizationId,
      payment_link_id: linkIds[i], payment_methods: null, product_id: null, status: 'PENDING', subscription_id: null, updated_at: now,
    }));
    await insertRows(trx, 'debts', debts);
    const events: Record<string, unknown>[] = [];
    const answers = links.map((link, i) => {
      const debt = debts[i]!;
      const debtId = `debt_${debt.external_request_id}`;
      const paymentLink = {
        paymentLinkId: `plk_${link.code}`, externalPaymentLinkId: link.external_payment_link_id, debtId, status: 'ACTIVE', amount: link.amount_cents / 100,
        currency: link.currency, description: link.description, singleUse: true, expiresAt: group[i]!.body.expiresAt, successUrl: null, metadata: null,
        paymentUrl: `http://localhost/pay/BENCH/${link.url_identifier}`, identifierValue: link.identifier_value, contact: null, product: null, createdAt,
      };
      const debtObject = {
        debtId, externalRequestId: debt.external_request_id, status: 'PENDING', amount: debt.amount_cents / 100, amountPaid: 0, currency: debt.currency,
        dueDate: debt.due_date, allowOverduePayment: false, allowPartialPayments: false, description: debt.description,
        paymentUrl: signedUrl('debts', debtId), contact: null, product: null, autopay: false, autopayReason: null, createdAt,
      };
      events.push(
        eventRow(organizationId, companyId, 'payment_link.created', paymentLink.paymentLinkId, paymentLink, now),
        eventRow(organizationId, companyId, 'debt.created', debtId, debtObject, now),
      );
      return paymentLink;
    });
    await trx('events').insert(events);
    await addToTallies(trx, companyId, [
      { table: 'debt_tallies', live: debts.length, by: { status: 'PENDING' } },
      { table: 'event_tallies', live: events.length },
      { table: 'payment_link_tallies', live: links.length, by: { status: 'ACTIVE' } },
    ]);
    return answers;
  });
}

serveGroupedWrites('koa-links', write);
