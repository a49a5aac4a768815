import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Contact } from '../../internal/contacts/contact';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import type { Repositories } from '../../ports/unit-of-work';
import { createTestDatabase, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { pageStatement } from '../support/page-statement';
import { testSecretBox } from '../support/secrets';
import { seedDebtLedger } from './debt-ledger';
import { newContact, newProduct, newTenant, type TenantFixture } from './fixtures';
import { newSubscription } from './subscriptions.contract';

/**
 * The embedded default's plans where a list could read far more than its matches: a lookup of
 * contacts by email, compared without case, reads the index on their lower-cased emails (migration
 * 20261207200000), which SQLite matches to the lookup's `LOWER(contacts.email)` only while the two
 * expressions are the same; otherwise it reads every contact of the organization. A debtor's page
 * of subscriptions reads their own index in the page's order (migration 20261207210000) and its
 * total from the debtor's tally (20261207220000). A debtor's or a batch's page of debts takes its
 * ids and its total from their index alone, the status there (20261207230000).
 */
describe('SQLite list plans', function () {
  let database: TestDatabase;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;

  before(async () => {
    database = await createTestDatabase('sqlite');
    db = openKnex(database.url);
    await migrateLatest(db);
    repos = knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() });
    tenant = await newTenant(repos);
    for (let n = 1; n <= 300; n++) await repos.contacts.insert(newContact(tenant.organization.id, { externalClientId: `plan-${n}`, email: `Plan${n}@Example.com` }));
    await db.raw('ANALYZE');
  });

  after(async () => {
    await db.destroy();
    await database.drop();
  });

  /** SQLite's EXPLAIN QUERY PLAN of the one statement `list` runs that reads the page (the one with a LIMIT). */
  async function pagePlan(list: () => Promise<unknown>): Promise<string> {
    const { sql, bindings } = await pageStatement(db, list);
    return ((await db.raw(`EXPLAIN QUERY PLAN ${sql}`, bindings)) as { detail: string }[]).map((row) => row.detail).join('\n');
  }

  it("GET /contacts?email reads the organization's lower-cased email index, not every contact", async () => {
    const list = () => repos.contacts.list(tenant.organization.id, { email: 'PLAN123@example.COM' }, { page: 1, limit: 50 });
    const plan = await pagePlan(list);
    expect(plan, plan).to.match(/SEARCH contacts USING (COVERING )?INDEX contacts_organization_id_email_lower_index \(organization_id=\? AND <expr>=\?\)/);
    const page = await list();
    expect([page.items.map((c) => c.externalClientId), page.total]).to.deep.equal([['plan-123'], 1]);
  });

  it("GET /subscriptions?externalClientId reads the debtor's page from its index in the page's order, and the total from the debtor's tally", async () => {
    const debtors: Contact[] = [];
    for (let i = 0; i < 3; i++) debtors.push(await repos.contacts.insert(newContact(tenant.organization.id)));
    const product = await repos.products.insert(newProduct(tenant.company));
    for (let i = 0; i < 300; i++) {
      await repos.subscriptions.insert(newSubscription({ ...tenant, contact: debtors[i % 3]!, product }, { externalSubscriptionId: `plan-${String(i).padStart(3, '0')}` }));
    }
    await db.raw('ANALYZE');
    const debtor = { organizationId: tenant.organization.id, externalClientId: debtors[0]!.externalClientId };
    const list = () => repos.subscriptions.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 50 });
    const plan = await pagePlan(list);
    // The debtor's index, once (no count reads it), in the page's order: nothing sorted.
    expect(plan.match(/subscriptions_company_contact_external_id_index/g), plan).to.have.length(1);
    expect(plan, plan).to.match(/SEARCH s USING (COVERING )?INDEX subscriptions_company_contact_external_id_index \(company_id=\? AND contact_id=\?\)/);
    expect(plan, plan).not.to.match(/TEMP B-TREE/);
    expect(plan, plan).to.match(/SEARCH subscription_contact_tallies/);
    const page = await repos.subscriptions.list(tenant.company.id, { today: '2026-01-01', debtor }, { page: 1, limit: 2 });
    expect([page.items.map((s) => s.externalSubscriptionId), page.total]).to.deep.equal([['plan-297', 'plan-294'], 100]);
  });

  it("GET /debts?externalClientId and ?batchId read the page's ids and the total from their index alone, CANCELLED left out there", async () => {
    const ledger = await seedDebtLedger(db, repos);
    await db.raw('ANALYZE');
    for (const [list, index, column] of [[ledger.debtor, 'debts_company_id_contact_id_id_status_index', 'contact_id'], [ledger.batch, 'debts_company_id_batch_id_id_status_index', 'batch_id']] as const) {
      const plan = await pagePlan(() => repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 50 }));
      // The total and the page's ids, each from the covering index; then the page's rows by id.
      const covering = new RegExp(`SEARCH d USING COVERING INDEX ${index} \\(company_id=\\? AND ${column}=\\?\\)`, 'g');
      expect(plan.match(covering), plan).to.have.length(2);
      expect(plan.match(/SEARCH d USING INDEX/g), plan).to.equal(null);
      const page = await repos.debts.list(ledger.tenant.company.id, list.filter, { page: 1, limit: 2 });
      expect([page.items.map((d) => d.externalRequestId), page.total]).to.deep.equal([list.newestTwo, list.total]);
    }
  });
});
