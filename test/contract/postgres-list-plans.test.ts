import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Contact } from '../../internal/contacts/contact';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import type { Repositories } from '../../ports/unit-of-work';
import { createTestDatabase, databaseAvailable, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { pageStatement } from '../support/page-statement';
import { testSecretBox } from '../support/secrets';
import { seedDebtLedger } from './debt-ledger';
import { newContact, newDebt, newProduct, newTenant, T1, type TenantFixture } from './fixtures';

/**
 * The newest-first page of payment links on PostgreSQL walks an index in the page's order and
 * stops at the page, instead of reading all of the company's links and sorting them. The order
 * puts links without an externalPaymentLinkId last, which PostgreSQL's default index order read
 * backward does not give (it sorts NULL highest): migration 20261202100000 adds the index that
 * does. A debts page filtered by a creation window reads the window's range and sorts its
 * matches, instead of walking the primary key newest first through every debt newer than the
 * window; so does an events page in a creation window. A lookup of contacts by email reads the
 * index on their lower-cased emails (migration 20261207200000). A debtor's page of subscriptions
 * reads their own index in the page's order (migration 20261207210000) and its total from the
 * debtor's tally (20261207220000). A debtor's or a batch's page of debts takes its ids and its total
 * from their index alone, the status there (20261207230000). Checked with statistics (after ANALYZE, as
 * autovacuum keeps them); what the planner does on a table that grew since its last analysis is
 * open (docs/postgresql.md).
 */
describe('PostgreSQL list plans', function () {
  let database: TestDatabase | null = null;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;
  const ROWS = 5000;
  const DEBTS = 50_000;
  const MINUTE = 60_000;

  before(async function () {
    if (!(await databaseAvailable('postgres'))) this.skip();
    database = await createTestDatabase('postgres');
    db = openKnex(database.url);
    await migrateLatest(db);
    repos = knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() });
    tenant = await newTenant(repos);
    // The debts' contact, older than the contacts the pages below read.
    const contact = await repos.contacts.insert(newContact(tenant.organization.id));
    const rows = Array.from({ length: ROWS }, (_, i) => i + 1);
    await db.batchInsert(
      'contacts',
      rows.map((n) => ({
        organization_id: tenant.organization.id, code: `PLAN${n}`, external_client_id: `plan-${n}`, name: `Plan ${n}`, name_search: `plan ${n}`,
        email: `plan${n}@example.com`, phones: '[]', active: true, created_at: n, updated_at: n,
      })),
      500,
    );
    await db.batchInsert(
      'payment_links',
      rows.map((n) => ({
        organization_id: tenant.organization.id, company_id: tenant.company.id, code: `PLAN${n}`, external_payment_link_id: n % 10 === 0 ? null : `plan-${n}`,
        debt_external_request_id: `plk_PLAN${n}`, status: 'ACTIVE', amount_cents: 100, currency: 'MXN', description: 'Plan', single_use: true,
        expires_at: null, url_identifier: `plan-${n}`, created_at: n, updated_at: n,
      })),
      500,
    );
    await db.raw('ANALYZE contacts, payment_links');
    // Debts created a minute apart in id order, as a table written over time has them.
    const template = await repos.debts.insert(newDebt({ ...tenant, contact }));
    const { id: _id, ...row } = (await db('debts').where({ id: template.id }).first()) as Record<string, unknown>;
    const debts = Array.from({ length: DEBTS }, (_, i) => ({ ...row, external_request_id: `plan-${i}`, created_at: T1.getTime() + i * MINUTE }));
    await db.batchInsert('debts', debts, 1000);
    await db.raw('ANALYZE debts');
  });

  after(async () => {
    if (!database) return;
    await db.destroy();
    await database.drop();
  });

  /** The plan of the statement `list` runs that reads the page (the one with a LIMIT). */
  async function pagePlan(list: () => Promise<unknown>): Promise<string> {
    const { sql, bindings } = await pageStatement(db, list);
    const result = (await db.raw(`EXPLAIN ${sql.replace(/\$\d+/g, '?')}`, bindings)) as { rows: { 'QUERY PLAN': string }[] };
    return result.rows.map((r) => r['QUERY PLAN']).join('\n');
  }

  it('GET /payment-links reads the company index in the page order and sorts nothing', async () => {
    const plan = await pagePlan(() => repos.paymentLinks.list(tenant.company.id, { now: new Date() }, { page: 1, limit: 50 }));
    expect(plan, plan).to.match(/Index (Only )?Scan using payment_links_company_id_newest_index/);
    // (The total's subquery reads the company's few tally rows however it likes.)
    expect(plan, plan).not.to.match(/Sort|Bitmap Heap Scan on payment_links/);
  });

  it('GET /debts with a creation window reads the window and sorts it, not every newer debt along the primary key', async () => {
    // The window holds 2,000 debts created before the newest 40,000.
    const window = { today: '2026-01-01', createdFrom: T1.getTime() + 8_000 * MINUTE, createdTo: T1.getTime() + 9_999 * MINUTE };
    const plan = await pagePlan(() => repos.debts.list(tenant.company.id, window, { page: 1, limit: 50 }));
    expect(plan, plan).not.to.match(/Scan Backward/);
    expect(plan, plan).to.match(/Sort Key: \(\(d(_\d+)?\.id \+ 0\)\) DESC/);
    const page = await repos.debts.list(tenant.company.id, window, { page: 1, limit: 2 });
    expect([page.items.map((d) => d.externalRequestId), page.total]).to.deep.equal([['plan-9999', 'plan-9998'], 2000]);
  });

  it('GET /events with a creation window reads the window and sorts it, not every newer event', async () => {
    // 1,000 events in the window, then 20,000 newer ones, a minute apart in id order.
    const busy = await newTenant(repos);
    const IN_WINDOW = 1000;
    const events = Array.from({ length: IN_WINDOW + 20_000 }, (_, i) => ({
      event_id: `evt_plan${i}_${busy.company.id}`, organization_id: busy.organization.id, company_id: busy.company.id, type: 'product.created',
      resource_id: `prd_${i}`, payload: '{}', created_at: T1.getTime() + i * MINUTE,
    }));
    await db.batchInsert('events', events, 1000);
    await db.raw('ANALYZE events');
    const window = { createdFrom: T1.getTime(), createdTo: T1.getTime() + (IN_WINDOW - 1) * MINUTE };
    const plan = await pagePlan(() => repos.events.list(busy.company.id, window, { page: 1, limit: 50 }));
    expect(plan, plan).not.to.match(/Scan Backward/);
    expect(plan, plan).to.match(/Sort Key: \(\(w\.id \+ 0\)\) DESC/);
    expect(plan, plan).to.match(/events_company_id_created_at_index/);
    const page = await repos.events.list(busy.company.id, window, { page: 1, limit: 2 });
    expect([page.items.map((e) => e.resourceId), page.total]).to.deep.equal([[`prd_${IN_WINDOW - 1}`, `prd_${IN_WINDOW - 2}`], IN_WINDOW]);
  });

  it("GET /contacts?email reads the organization's lower-cased email index, not every contact", async () => {
    const plan = await pagePlan(() => repos.contacts.list(tenant.organization.id, { email: 'PLAN1234@Example.COM' }, { page: 1, limit: 50 }));
    expect(plan, plan).to.match(/Index (Only )?Scan using contacts_organization_id_email_lower_index/);
    expect(plan, plan).not.to.match(/Seq Scan on contacts|contacts_organization_id_id_name_search_index/);
    const page = await repos.contacts.list(tenant.organization.id, { email: 'PLAN1234@Example.COM' }, { page: 1, limit: 50 });
    expect([page.items.map((c) => c.externalClientId), page.total]).to.deep.equal([['plan-1234'], 1]);
  });

  it("GET /subscriptions?externalClientId reads the debtor's page from its index in the page's order, and the total from the debtor's tally", async () => {
    // One debtor holds every third of the company's 6,000 subscriptions.
    const busy = await newTenant(repos);
    const debtors: Contact[] = [];
    for (let i = 0; i < 3; i++) debtors.push(await repos.contacts.insert(newContact(busy.organization.id)));
    const product = await repos.products.insert(newProduct(busy.company));
    const rows = Array.from({ length: 6000 }, (_, i) => ({
      organization_id: busy.organization.id, company_id: busy.company.id, code: `PLANS${i}_${busy.company.id}`, external_subscription_id: `plan-${String(i).padStart(4, '0')}`,
      contact_id: debtors[i % 3]!.id, contact_created_inline: false, product_id: product.id, product_created_inline: false, status: 'ACTIVE',
      amount_cents: 100, currency: 'MXN', interval_unit: 'month', interval_count: 1, start_date: '2026-01-15', total_cycles: 6,
      last_due_date: '2026-06-15', enforce_payment_order: false, autopay: false, allow_overdue_payment: true, allow_partial_payments: true,
      resume_count: 0, created_at: T1.getTime(), updated_at: T1.getTime(),
    }));
    await db.batchInsert('subscriptions', rows, 500);
    // What the repository's inserts would have kept (adapters/persistence/knex/tallies.ts).
    await db('subscription_contact_tallies').insert(debtors.map((d) => ({ company_id: busy.company.id, contact_id: d.id, shard: 0, live: 2000 })));
    await db.raw('ANALYZE subscriptions, subscription_contact_tallies');
    const filter = { today: '2026-01-01', debtor: { organizationId: busy.organization.id, externalClientId: debtors[0]!.externalClientId } };
    const plan = await pagePlan(() => repos.subscriptions.list(busy.company.id, filter, { page: 1, limit: 50 }));
    // The debtor's index, once (no count reads it), backward in the page's order (the one sort is of the page's 50).
    expect(plan.match(/subscriptions_company_contact_external_id_index/g), plan).to.have.length(1);
    expect(plan, plan).to.match(/Index (Only )?Scan Backward using subscriptions_company_contact_external_id_index/);
    expect(plan.match(/Sort Key: .*/g), plan).to.deep.equal(['Sort Key: pg.page_key DESC']);
    expect(plan, plan).to.match(/Scan (using \w+ )?on subscription_contact_tallies/);
    const page = await repos.subscriptions.list(busy.company.id, filter, { page: 1, limit: 2 });
    expect([page.items.map((s) => s.externalSubscriptionId), page.total]).to.deep.equal([['plan-5997', 'plan-5994'], 2000]);
  });

  it("GET /debts?externalClientId and ?batchId read the page's ids and the total from their index alone, CANCELLED left out there", async () => {
    const ledger = await seedDebtLedger(db, repos);
    // As autovacuum keeps it: the visibility map lets an index answer without the table.
    await db.raw('VACUUM ANALYZE debts');
    for (const [list, index] of [[ledger.debtor, 'debts_company_id_contact_id_id_status_index'], [ledger.batch, 'debts_company_id_batch_id_id_status_index']] as const) {
      const plan = await pagePlan(() => repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 50 }));
      // The total, then the page's ids backward in the page's order; no other read of the debts but the page's rows by id.
      expect(plan.match(/Scan( Backward)? using \w+ on debts \w+/g), plan).to.deep.equal([
        `Scan using ${index} on debts d_2`, `Scan Backward using ${index} on debts d_1`, 'Scan using debts_pkey on debts d',
      ]);
      expect(plan.match(/Index Only Scan/g), plan).to.have.length(2);
      const page = await repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 2 });
      expect([page.items.map((d) => d.externalRequestId), page.total]).to.deep.equal([list.newestTwo, list.total]);
    }
  });

  it('the contact and link pages hold the newest rows, links without an externalPaymentLinkId last', async () => {
    const contacts = await repos.contacts.list(tenant.organization.id, {}, { page: 1, limit: 3 });
    expect(contacts.items.map((c) => c.externalClientId)).to.deep.equal([`plan-${ROWS}`, `plan-${ROWS - 1}`, `plan-${ROWS - 2}`]);
    const last = await repos.paymentLinks.list(tenant.company.id, { now: new Date() }, { page: ROWS / 50, limit: 50 });
    expect(last.items.every((l) => l.externalPaymentLinkId === null)).to.equal(true);
  });
});
