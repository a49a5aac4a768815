import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Repositories } from '../../ports/unit-of-work';
import { openMariaDbPlanStore, type PlanStore } from '../support/mariadb-plans';
import { onlyStatement, pageStatement } from '../support/page-statement';
import { seedDebtLedger } from './debt-ledger';
import { newContact, newDebt, newLink, newProduct, newTenant, T1, type TenantFixture, uid } from './fixtures';

/**
 * The page of GET /subscriptions on MariaDB reads the page's rows along the company's
 * (company_id, external_subscription_id) index and stops there (its first page the rows
 * themselves, a later page its ids first), even when one debtor and one
 * product hold every subscription: joined first, MariaDB drove the join from that contact and
 * sorted all of the company's subscriptions for every page. Checked with MariaDB's ANALYZE (the
 * statement run, with the rows each table actually gave), after ANALYZE TABLE. The page of
 * GET /debts reads the company's debts along its own index: along the primary key, MariaDB read
 * every company's debts backward until the page was full. Its first page reads each of its rows
 * once, along that index; a later page its ids first. The unfiltered first page of GET /contacts
 * reads its rows along the organization's index; a later page reads its ids from it first. The
 * page and the total of GET /events in a creation window read the window from its own index. A
 * lookup by email reads the organization's lower-cased email index. A debtor's subscriptions are
 * read in the page's order from their own index, and their total from the debtor's tally. A
 * debtor's or a batch's first page of debts reads its rows along their index, a later page its ids
 * from it, and the total comes from the index alone, the status there (migration 20261207230000).
 */
describe('MariaDB list plans', function () {
  let store: PlanStore | null = null;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;
  let crowd: TenantFixture;
  const ROWS = 2000;
  const DEBTS = 40_000;

  before(async function () {
    store = await openMariaDbPlanStore(this);
    ({ db, repos } = store);
    tenant = await newTenant(repos);
    const contact = await repos.contacts.insert(newContact(tenant.organization.id));
    const product = await repos.products.insert(newProduct(tenant.company));
    // Contacts and products by the hundred, as a company has them: with one row each, MariaDB
    // joins them first (a join buffer) whatever the statement says.
    // Without email_lower, which MariaDB computes (a VIRTUAL column: a value given for it is an error).
    const { id: _contactId, email_lower: _emailLower, ...contactRow } = (await db('contacts').where({ id: contact.id }).first()) as Record<string, unknown>;
    const { id: _productId, ...productRow } = (await db('products').where({ id: product.id }).first()) as Record<string, unknown>;
    await db.batchInsert('contacts', Array.from({ length: 500 }, (_, i) => ({ ...contactRow, code: `PC${i}${uid()}`, external_client_id: `plan-contact-${i}` })), 500);
    await db.batchInsert('products', Array.from({ length: 500 }, (_, i) => ({ ...productRow, name: `Plan product ${i}` })), 500);
    const rows = Array.from({ length: ROWS }, (_, i) => ({
      organization_id: tenant.organization.id, company_id: tenant.company.id, code: `P${uid()}${uid()}`, external_subscription_id: `plan-${i}`,
      contact_id: contact.id, contact_created_inline: false, product_id: product.id, product_created_inline: false, status: 'ACTIVE',
      amount_cents: 100, currency: 'MXN', interval_unit: 'month', interval_count: 1, start_date: '2026-01-15', total_cycles: 6,
      last_due_date: '2026-06-15', enforce_payment_order: false, autopay: false, allow_overdue_payment: true, allow_partial_payments: true,
      resume_count: 0, created_at: T1.getTime(), updated_at: T1.getTime(),
    }));
    await db.batchInsert('subscriptions', rows, 500);
    // What the repository's inserts would have kept (adapters/persistence/knex/tallies.ts).
    await db('subscription_tallies').insert({ company_id: tenant.company.id, status: 'ACTIVE', shard: 0, live: ROWS });
    await db('subscription_contact_tallies').insert({ company_id: tenant.company.id, contact_id: contact.id, shard: 0, live: ROWS });
    await db.raw('ANALYZE TABLE subscriptions, contacts, products');
    // Debts: the tenant's are one in twenty of the table, the rest another company's, interleaved.
    crowd = await newTenant(repos);
    const crowdContact = await repos.contacts.insert(newContact(crowd.organization.id));
    const template = await repos.debts.insert(newDebt({ ...tenant, contact }));
    const { id: _id, ...row } = (await db('debts').where({ id: template.id }).first()) as Record<string, unknown>;
    const debts = Array.from({ length: DEBTS }, (_, i) =>
      i % 20 === 0
        ? { ...row, external_request_id: `mine-${i}`, created_at: T1.getTime() + ((i * 7919) % DEBTS) * 60_000 }
        : { ...row, organization_id: crowd.organization.id, company_id: crowd.company.id, contact_id: crowdContact.id, external_request_id: `crowd-${i}`, created_at: T1.getTime() + ((i * 7919) % DEBTS) * 60_000 },
    );
    await db.batchInsert('debts', debts, 1000);
    // The template's insert counted it on a shard of its own choosing (one in 16): the tenant's
    // seeded debts go onto that same row, as the repository's inserts would have counted them.
    const counted = await db('debt_tallies').where({ company_id: tenant.company.id }).increment('live', DEBTS / 20);
    expect(counted).to.equal(1);
    await db.raw('ANALYZE TABLE debts');
  });

  after(async () => {
    await store?.close();
  });

  /** MariaDB's ANALYZE of the one statement `list` runs that reads the page (the one with a LIMIT). */
  async function pagePlan(list: () => Promise<unknown>): Promise<Record<string, unknown>[]> {
    const { sql, bindings } = await pageStatement(db, list);
    const [rows] = (await db.raw(`ANALYZE ${sql}`, bindings)) as [Record<string, unknown>[]];
    return rows;
  }

  it('GET /subscriptions reads no more subscriptions than its page, besides the total', async () => {
    const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    // (The total's subquery reads the company's few tally rows.)
    const reads = plan.filter((row) => row.table === 's' && row.select_type !== 'SUBQUERY');
    expect(reads, shown).to.not.be.empty;
    for (const row of reads) expect(Number(row.r_rows), shown).to.be.at.most(50);
  });

  it("GET /subscriptions' first page reads its rows along the company's index in the page's order, sorting nothing", async () => {
    const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    // The subscriptions first (the joins are LEFT), along the index, stopping at the page's 50.
    const reads = plan.filter((row) => row.select_type !== 'SUBQUERY');
    expect(reads.map((row) => row.table), shown).to.deep.equal(['s', 'c', 'p']);
    expect(reads[0]!.key, shown).to.equal('subscriptions_company_id_external_subscription_id_index');
    expect(Number(reads[0]!.r_rows), shown).to.be.at.most(50);
    expect(reads.slice(1).map((row) => row.type), shown).to.deep.equal(['eq_ref', 'eq_ref']);
    expect(plan.some((row) => /filesort|temporary/.test(String(row.Extra))), shown).to.equal(false);
  });

  it("GET /subscriptions?status=ACTIVE's first page reads its rows along the status's index in the page's order, sorting nothing", async () => {
    const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { status: 'ACTIVE', today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const reads = plan.filter((row) => row.select_type !== 'SUBQUERY');
    expect(reads.map((row) => row.table), shown).to.deep.equal(['s', 'c', 'p']);
    expect(reads[0]!.key, shown).to.equal('subscriptions_company_status_external_id_index');
    expect(Number(reads[0]!.r_rows), shown).to.be.at.most(50);
    expect(plan.some((row) => /filesort|temporary/.test(String(row.Extra))), shown).to.equal(false);
  });

  it("GET /subscriptions' later pages, and ENDED's first, sort the page's ids by their own key, not the joined rows through a temporary table", async () => {
    for (const [status, page] of [[undefined, 2], ['ACTIVE', 2], ['ENDED', 1]] as const) {
      const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { status, today: '2026-01-01' }, { page, limit: 50 }));
      const shown = JSON.stringify(plan, null, 1);
      // The joined page sorts only the derived table of its 50 ids, before the join (ENDED, read
      // from the status's range, sorts its ids in the derived table too, never the joined rows).
      const sorted = plan.filter((row) => row.select_type === 'PRIMARY' && String(row.Extra).includes('filesort'));
      expect(sorted.map((row) => String(row.table).replace(/\d+/, 'N')), shown).to.deep.equal(['<derivedN>']);
      expect(plan.some((row) => String(row.Extra).includes('temporary')), shown).to.equal(false);
    }
  });

  it("GET /subscriptions?externalClientId reads the debtor's page along its index in the page's order, and counts none: the debtor's tally", async () => {
    // The fixture's debtor holds all of the company's 2,000 subscriptions: the total counted them
    // all on every page.
    const [contact] = (await db('contacts').where({ organization_id: tenant.organization.id }).orderBy('id').limit(1)) as { external_client_id: string }[];
    const debtor = { organizationId: tenant.organization.id, externalClientId: contact!.external_client_id };
    const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const reads = plan.filter((row) => row.table === 's' && row.type !== 'eq_ref');
    expect(reads.map((row) => row.key), shown).to.deep.equal(['subscriptions_company_contact_external_id_index']);
    expect(Number(reads[0]!.r_rows), shown).to.be.at.most(50);
    // Its first page reads the rows themselves along that index: no ids first, nothing sorted.
    expect(plan.some((row) => /derived/.test(String(row.table)) || /filesort|temporary/.test(String(row.Extra))), shown).to.equal(false);
    expect(plan.some((row) => row.table === 'subscription_contact_tallies'), shown).to.equal(true);
    const page = await repos.subscriptions.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 3 });
    expect(page.items.map((s) => s.externalSubscriptionId)).to.deep.equal(['plan-999', 'plan-998', 'plan-997']);
    expect(page.total).to.equal(ROWS);
    // With a status too, the page counts its matches.
    const active = await repos.subscriptions.list(tenant.company.id, { today: '2026-01-01', debtor, status: 'ACTIVE' }, { page: 1, limit: 3 });
    expect(active.total).to.equal(ROWS);
  });

  it('GET /subscriptions?status=ACTIVE counts no subscription: the tally, less the lapsed ones from their index', async () => {
    const plan = await pagePlan(() => repos.subscriptions.list(tenant.company.id, { status: 'ACTIVE', today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const reads = plan.filter((row) => ['s', 'subscriptions'].includes(String(row.table)));
    expect(reads, shown).to.not.be.empty;
    for (const row of reads) expect(Number(row.r_rows), shown).to.be.at.most(50);
    const page = await repos.subscriptions.list(tenant.company.id, { status: 'ACTIVE', today: '2026-01-01' }, { page: 1, limit: 3 });
    expect(page.total).to.equal(ROWS);
    const lapsed = await repos.subscriptions.list(tenant.company.id, { status: 'ENDED', today: '2026-07-01' }, { page: 1, limit: 3 });
    expect(lapsed.total).to.equal(ROWS);
  });

  it("GET /debts reads the company's page along its own index, not the primary key through every company's debts", async () => {
    const plan = await pagePlan(() => repos.debts.list(tenant.company.id, { today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const reads = plan.filter((row) => row.table === 'd');
    expect(reads, shown).to.not.be.empty;
    for (const row of reads) {
      // (r_rows after a filesort counts what the sort kept, not what it read.)
      expect(String(row.Extra), shown).to.not.include('filesort');
      expect(row.type === 'eq_ref' || row.key !== 'PRIMARY', shown).to.equal(true);
      expect(Number(row.r_rows), shown).to.be.at.most(50);
    }
    const page = await repos.debts.list(tenant.company.id, { today: '2026-01-01' }, { page: 2, limit: 50 });
    expect([page.items.length, page.total]).to.deep.equal([50, DEBTS / 20 + 1]);
    expect(page.items.every((d) => d.companyId === tenant.company.id)).to.equal(true);
  });

  it("GET /debts' first page reads each of its rows once, along the company's index; a later page its ids first", async () => {
    const first = await pagePlan(() => repos.debts.list(tenant.company.id, { today: '2026-01-01' }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(first, null, 1);
    const reads = first.filter((row) => row.table === 'd');
    expect(reads.map((row) => [row.select_type, row.key]), shown).to.deep.equal([['PRIMARY', 'debts_company_id_id_index']]);
    expect(Number(reads[0]!.r_rows), shown).to.equal(50);
    const later = await pagePlan(() => repos.debts.list(tenant.company.id, { today: '2026-01-01' }, { page: 2, limit: 50 }));
    const ids = later.filter((row) => row.table === 'd' && row.select_type === 'DERIVED');
    expect(ids.map((row) => row.key), JSON.stringify(later, null, 1)).to.deep.equal(['debts_company_id_id_index']);
  });

  it('GET /debts?status=PENDING counts no debt: the tally, less the PENDING ones past due from their index', async () => {
    const filter = { status: 'PENDING' as const, today: '2026-01-01' };
    const plan = await pagePlan(() => repos.debts.list(tenant.company.id, filter, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    // The page's ids along an index, as far as the page; the past-due range is empty; no count of the 2,001.
    const reads = plan.filter((row) => ['d', 'debts'].includes(String(row.table)));
    expect(reads, shown).to.not.be.empty;
    for (const row of reads) expect(Number(row.r_rows ?? 0), shown).to.be.at.most(50);
    const page = await repos.debts.list(tenant.company.id, filter, { page: 1, limit: 3 });
    expect(page.total).to.equal(DEBTS / 20 + 1);
    const past = await repos.debts.list(tenant.company.id, { status: 'OVERDUE', today: '2026-07-01' }, { page: 1, limit: 3 });
    expect(past.total).to.equal(DEBTS / 20 + 1);
  });

  it("GET /debts?externalClientId finds the debtor in the page's own statement, and reads the page along an index", async () => {
    const [contact] = (await db('contacts').where({ organization_id: tenant.organization.id }).orderBy('id').limit(1)) as { external_client_id: string }[];
    const debtor = { organizationId: tenant.organization.id, externalClientId: contact!.external_client_id };
    const statements: string[] = [];
    const onQuery = (q: { sql: string }) => statements.push(q.sql);
    db.on('query', onQuery);
    const page = await repos.debts.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 50 }).finally(() => db.off('query', onQuery));
    expect(statements, 'one statement, the contact read in it').to.have.length(1);
    expect([page.items.length, page.total]).to.deep.equal([50, DEBTS / 20 + 1]);
    const plan = await pagePlan(() => repos.debts.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    // The contact by its unique key, once; the page's debts along an index, no more than the page.
    const contactReads = plan.filter((row) => row.table === 'debtor');
    expect(contactReads.length, shown).to.be.greaterThan(0);
    for (const row of contactReads) expect(row.key, shown).to.equal('contacts_organization_id_external_client_id_unique');
    const pageReads = plan.filter((row) => row.table === 'd' && row.select_type === 'PRIMARY');
    expect(pageReads, shown).to.have.length(1);
    expect(pageReads[0]!.key, shown).to.equal('debts_company_id_contact_id_id_status_index');
    expect(Number(pageReads[0]!.r_rows), shown).to.be.at.most(50);
  });

  it("GET /debts?externalClientId and ?batchId read a first page's rows along their index; a later page's ids and the total from the index alone, CANCELLED left out there", async () => {
    const ledger = await seedDebtLedger(db, repos);
    await db.raw('ANALYZE TABLE debts');
    for (const [list, index] of [[ledger.debtor, 'debts_company_id_contact_id_id_status_index'], [ledger.batch, 'debts_company_id_batch_id_id_status_index']] as const) {
      const first = await pagePlan(() => repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 50 }));
      let shown = JSON.stringify(first, null, 1);
      // The page's rows (PRIMARY) along the index, as far as the page: its 50 and the CANCELLED ones
      // among them (one in five of the ledger's; MariaDB checks the status on the row, not on the
      // index entry, when it reads an index backward); and the total (SUBQUERY) from the index alone.
      const reads = first.filter((row) => row.table === 'd');
      expect(reads.map((row) => [row.select_type, row.key]), shown).to.deep.equal([['PRIMARY', index], ['SUBQUERY', index]]);
      expect(Math.round((Number(reads[0]!.r_rows) * Number(reads[0]!.r_filtered)) / 100), shown).to.equal(50);
      expect(Number(reads[0]!.r_rows), shown).to.be.below(75);
      expect(String(reads[1]!.Extra), shown).to.match(/Using index(;|$)/);
      // A later page: its ids (DERIVED) and the total (SUBQUERY) from the index, no row of the table.
      const later = await pagePlan(() => repos.debts.list(ledger.tenant.company.id, list.filter, { page: 2, limit: 50 }));
      shown = JSON.stringify(later, null, 1);
      const laterReads = later.filter((row) => row.table === 'd' && row.select_type !== 'PRIMARY');
      expect(laterReads.map((row) => [row.select_type, row.key]), shown).to.deep.equal([['DERIVED', index], ['SUBQUERY', index]]);
      for (const row of laterReads) expect(String(row.Extra), shown).to.match(/Using index(;|$)/);
      const page = await repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 2 });
      expect([page.items.map((d) => d.externalRequestId), page.total]).to.deep.equal([list.newestTwo, list.total]);
    }
  });

  it('GET /debts?minAmount&maxAmount reads its page from the amount index, bounded by the matches, when the newest debts are out of the range', async () => {
    // A company of its own: 1,000 debts in the range, then 20,000 newer ones below it. Newest
    // first along the company's (company_id, id) index, the page is 20,000 debts away.
    const skewed = await newTenant(repos);
    const contact = await repos.contacts.insert(newContact(skewed.organization.id));
    const template = await repos.debts.insert(newDebt({ ...skewed, contact }, { amountCents: 100 }));
    const { id: _id, ...row } = (await db('debts').where({ id: template.id }).first()) as Record<string, unknown>;
    const IN_RANGE = 1000;
    const debts = Array.from({ length: IN_RANGE + 20_000 }, (_, i) => ({ ...row, external_request_id: `skew-${i}`, amount_cents: i < IN_RANGE ? 15_000 + i : 100 }));
    await db.batchInsert('debts', debts, 1000);
    await db.raw('ANALYZE TABLE debts');
    const filter = { today: '2026-01-01', minAmountCents: 15_000, maxAmountCents: 20_000 };
    const plan = await pagePlan(() => repos.debts.list(skewed.company.id, filter, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const pageReads = plan.filter((row) => row.table === 'd' && row.select_type === 'DERIVED');
    expect(pageReads, shown).to.have.length(1);
    expect(pageReads[0]!.key, shown).to.equal('debts_company_id_amount_cents_status_index');
    const page = await repos.debts.list(skewed.company.id, filter, { page: 1, limit: 50 });
    expect(page.total).to.equal(IN_RANGE);
    expect(page.items.map((d) => d.externalRequestId)).to.deep.equal(Array.from({ length: 50 }, (_, i) => `skew-${IN_RANGE - 1 - i}`));
  });

  it('GET /events with a creation window reads the window from its index, page and count, when the newest events are past it', async () => {
    // A company of its own: 1,000 events in the window, then 20,000 newer ones. Newest first along
    // the company's (company_id, id) index, the page is 20,000 events away, and the count read
    // every event of the company.
    const busy = await newTenant(repos);
    const IN_WINDOW = 1000;
    const events = Array.from({ length: IN_WINDOW + 20_000 }, (_, i) => ({
      event_id: `evt_plan${i}${uid()}`, organization_id: busy.organization.id, company_id: busy.company.id, type: 'product.created',
      resource_id: `prd_${i}`, payload: '{}', created_at: T1.getTime() + i * 60_000,
    }));
    await db.batchInsert('events', events, 1000);
    await db.raw('ANALYZE TABLE events');
    const window = { createdFrom: T1.getTime(), createdTo: T1.getTime() + (IN_WINDOW - 1) * 60_000 };
    const plan = await pagePlan(() => repos.events.list(busy.company.id, window, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const pageReads = plan.filter((row) => row.table === 'w');
    expect(pageReads, shown).to.have.length(1);
    expect(pageReads[0]!.key, shown).to.equal('events_company_id_created_at_index');
    expect(String(pageReads[0]!.Extra), shown).to.include('Using index');
    const { sql, bindings } = await onlyStatement(db, () => repos.events.list(busy.company.id, window, { page: 1, limit: 50 }), (q) => /count\(/i.test(q));
    const [counted] = (await db.raw(`ANALYZE ${sql}`, bindings)) as [Record<string, unknown>[]];
    const countShown = JSON.stringify(counted, null, 1);
    expect(counted!.map((row) => row.key), countShown).to.deep.equal(['events_company_id_created_at_index']);
    expect(Number(counted![0]!.r_rows), countShown).to.be.at.most(IN_WINDOW + 1);
    const page = await repos.events.list(busy.company.id, window, { page: 1, limit: 50 });
    expect(page.total).to.equal(IN_WINDOW);
    expect(page.items.map((e) => e.resourceId)).to.deep.equal(Array.from({ length: 50 }, (_, i) => `prd_${IN_WINDOW - 1 - i}`));
  });

  it('GET /payment-links?externalPaymentLinkId reads the one link by its organization\'s unique key, in one statement', async () => {
    // Links by the thousand in the company: ranging over the company's (company_id,
    // external_payment_link_id, id) index for the key found the same link, at half again the cost.
    const template = await repos.paymentLinks.insert(newLink(tenant, { externalPaymentLinkId: 'plan-link-template' }));
    const { id: _id, ...row } = (await db('payment_links').where({ id: template.id }).first()) as Record<string, unknown>;
    const links = Array.from({ length: 3000 }, (_, i) => ({ ...row, code: `PL${i}${uid()}`, debt_external_request_id: `plk_PL${i}${uid()}`, external_payment_link_id: `plan-link-${i}` }));
    await db.batchInsert('payment_links', links, 1000);
    await db.raw('ANALYZE TABLE payment_links');
    const filter = { now: T1, key: { organizationId: tenant.organization.id, externalPaymentLinkId: 'plan-link-1234' } };
    // The page is the read by the key (with the reads of the same moment), the total told by what it found: no count.
    const { sql, bindings } = await onlyStatement(db, () => repos.paymentLinks.list(tenant.company.id, filter, { page: 1, limit: 50 }));
    const [plan] = (await db.raw(`ANALYZE ${sql}`, bindings)) as [Record<string, unknown>[]];
    const shown = JSON.stringify(plan, null, 1);
    const link = plan.find((r) => r.table === 'l');
    expect(link, shown).to.not.equal(undefined);
    expect([link!.type, link!.key], shown).to.deep.equal(['const', 'payment_links_organization_id_external_payment_link_id_unique']);
    const page = await repos.paymentLinks.list(tenant.company.id, filter, { page: 1, limit: 50 });
    expect(page.items.map((l) => l.externalPaymentLinkId)).to.deep.equal(['plan-link-1234']);
    expect(page.total).to.equal(1);
  });

  it("GET /contacts' unfiltered first page reads its rows along the organization's index; a later page its ids first", async () => {
    const first = await pagePlan(() => repos.contacts.list(tenant.organization.id, {}, { page: 1, limit: 50 }));
    const shown = JSON.stringify(first, null, 1);
    // One read of the contacts, besides the tally's subquery: no derived table of ids, no sort.
    const reads = first.filter((row) => row.select_type !== 'SUBQUERY');
    expect(reads.map((row) => [row.table, row.key]), shown).to.deep.equal([['contacts', 'contacts_organization_id_id_name_search_index']]);
    expect(String(reads[0]!.Extra), shown).to.not.include('filesort');
    expect(Number(reads[0]!.r_rows), shown).to.be.at.most(50);
    // Deeper in the list, the ids come from the index alone, then only the page's rows.
    const third = await pagePlan(() => repos.contacts.list(tenant.organization.id, {}, { page: 3, limit: 50 }));
    expect(third.some((row) => /^<derived\d+>$/.test(String(row.table))), JSON.stringify(third, null, 1)).to.equal(true);
    // Both newest first, the second page where the first ends.
    const ids = async (page: number) => (await repos.contacts.list(tenant.organization.id, {}, { page, limit: 50 })).items.map((c) => c.id);
    const all = [...(await ids(1)), ...(await ids(2))];
    expect(all).to.have.length(100);
    expect(all).to.deep.equal([...all].sort((a, b) => b - a));
    const [newest] = (await db('contacts').where({ organization_id: tenant.organization.id }).max({ id: 'id' })) as { id: number }[];
    expect(all[0]).to.equal(newest!.id);
  });

  it("GET /contacts?email reads the one contact from the organization's lower-cased email index, not every contact", async () => {
    // Among the organization's 500 and more contacts: compared without case, the email matched no
    // index, and the lookup read every one of them.
    const person = await repos.contacts.insert(newContact(tenant.organization.id, { email: `Plan.Person.${uid()}@Example.com` }));
    const filter = { email: person.email.toUpperCase() };
    const plan = await pagePlan(() => repos.contacts.list(tenant.organization.id, filter, { page: 1, limit: 50 }));
    const shown = JSON.stringify(plan, null, 1);
    const read = plan.find((row) => row.table === 'contacts' && row.key !== 'PRIMARY');
    expect([read?.type, read?.key], shown).to.deep.equal(['ref', 'contacts_organization_id_email_lower_index']);
    expect(Number(read!.r_rows), shown).to.be.at.most(1);
    const page = await repos.contacts.list(tenant.organization.id, filter, { page: 1, limit: 50 });
    expect([page.items.map((c) => c.id), page.total]).to.deep.equal([[person.id], 1]);
  });

  it('the page holds the newest externalSubscriptionIds and the exact total', async () => {
    const page = await repos.subscriptions.list(tenant.company.id, { today: '2026-01-01' }, { page: 1, limit: 3 });
    expect(page.items.map((s) => s.externalSubscriptionId)).to.deep.equal(['plan-999', 'plan-998', 'plan-997']);
    expect(page.total).to.equal(ROWS);
  });
});
