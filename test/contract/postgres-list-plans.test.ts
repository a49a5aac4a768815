import { expect } from 'chai';
import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import type { Repositories } from '../../ports/unit-of-work';
import { createTestDatabase, databaseAvailable, type TestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { pageStatement } from '../support/page-statement';
import { testSecretBox } from '../support/secrets';
import { newTenant, type TenantFixture } from './fixtures';

/**
 * The newest-first page of payment links on PostgreSQL walks an index in the page's order and
 * stops at the page, instead of reading all of the company's links and sorting them. The order
 * puts links without an externalPaymentLinkId last, which PostgreSQL's default index order read
 * backward does not give (it sorts NULL highest): migration 20261202100000 adds the index that
 * does. Checked with statistics (after ANALYZE, as autovacuum keeps them); what the planner does
 * on a table that grew since its last analysis is open (docs/postgresql.md).
 */
describe('PostgreSQL list plans', function () {
  let database: TestDatabase | null = null;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;
  const ROWS = 5000;

  before(async function () {
    if (!(await databaseAvailable('postgres'))) this.skip();
    database = await createTestDatabase('postgres');
    db = openKnex(database.url);
    await migrateLatest(db);
    repos = knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() });
    tenant = await newTenant(repos);
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

  it('the contact and link pages hold the newest rows, links without an externalPaymentLinkId last', async () => {
    const contacts = await repos.contacts.list(tenant.organization.id, {}, { page: 1, limit: 3 });
    expect(contacts.items.map((c) => c.externalClientId)).to.deep.equal([`plan-${ROWS}`, `plan-${ROWS - 1}`, `plan-${ROWS - 2}`]);
    const last = await repos.paymentLinks.list(tenant.company.id, { now: new Date() }, { page: ROWS / 50, limit: 50 });
    expect(last.items.every((l) => l.externalPaymentLinkId === null)).to.equal(true);
  });
});
