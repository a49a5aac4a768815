import { expect } from 'chai';
import type { Knex } from 'knex';
import type { Repositories } from '../../ports/unit-of-work';
import { openMariaDbPlanStore, type PlanStore } from '../support/mariadb-plans';
import { pageStatement } from '../support/page-statement';
import { newContact, newDebt, newLink, newProduct, newTenant, T1, type TenantFixture, uid } from './fixtures';

/**
 * The scheduled jobs' chunks on MariaDB (the overdue debts, the expired payment links, the ended
 * subscriptions): each chunk's locking read takes its rows along the (organization_id, status,
 * <date>) index, the earliest first, and reads no more than the chunk. Ordered by id, it walked
 * the primary key from the start through every organization's rows, or sorted every match, on
 * every chunk: once the first chunks of a backlog were marked, each later one read past them again
 * (0.8 s a chunk of 500 with 600,000 overdue debts in a table of 1,000,000, locking each row it
 * read for a moment). Here the tenant's rows already moved come first by id, those still to move
 * after them, and another organization's rows are interleaved throughout. Checked with MariaDB's
 * ANALYZE (the statement run, with the rows each table actually gave), after ANALYZE TABLE.
 */
describe('MariaDB scheduled-job chunk plans', function () {
  let store: PlanStore | null = null;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;
  let crowd: TenantFixture;
  /** Per table: the tenant's rows already moved, then those still to move, and as many of another organization's. */
  const MOVED = 2000;
  const WAITING = 500;
  const CHUNK = 100;

  before(async function () {
    store = await openMariaDbPlanStore(this);
    ({ db, repos } = store);
    tenant = await newTenant(repos);
    crowd = await newTenant(repos);
  });

  after(async () => {
    await store?.close();
  });

  /**
   * `template`'s row copied: the tenant's MOVED rows (`moved`) first, then its WAITING rows
   * (`waiting`), with another organization's rows (`other`) between them all.
   */
  async function seed(table: string, templateId: number, rows: { moved: object; waiting: object; other: object }, unique: (i: number) => object): Promise<void> {
    const { id: _id, ...row } = (await db(table).where({ id: templateId }).first()) as Record<string, unknown>;
    const copies: Record<string, unknown>[] = [];
    for (let i = 0; i < MOVED + WAITING; i++) {
      copies.push({ ...row, ...(i < MOVED ? rows.moved : rows.waiting), ...unique(2 * i) });
      copies.push({ ...row, ...rows.other, ...unique(2 * i + 1) });
    }
    await db.batchInsert(table, copies, 500);
    await db.raw(`ANALYZE TABLE ${table}`);
  }

  /** MariaDB's ANALYZE of the chunk's locking read (the one statement of `move` with a LIMIT). */
  async function chunkPlan(move: () => Promise<unknown>): Promise<{ plan: Record<string, unknown>[]; sql: string }> {
    const { sql, bindings } = await pageStatement(db, move);
    const [plan] = (await db.raw(`ANALYZE ${sql}`, bindings)) as [Record<string, unknown>[]];
    return { plan, sql };
  }

  function expectAlongIndex(plan: Record<string, unknown>[], sql: string, index: RegExp): void {
    const shown = `${sql}\n${JSON.stringify(plan, null, 1)}`;
    expect(plan, shown).to.have.length(1);
    const [read] = plan;
    expect(String(read!.key), shown).to.match(index);
    expect(String(read!.Extra), shown).to.not.include('filesort');
    expect(Number(read!.r_rows), shown).to.be.at.most(CHUNK + 1);
  }

  it('the overdue job reads its chunk of debts along (organization_id, status, due_date), the earliest due first', async () => {
    const contact = await repos.contacts.insert(newContact(tenant.organization.id));
    const crowdContact = await repos.contacts.insert(newContact(crowd.organization.id));
    const template = await repos.debts.insert(newDebt({ ...tenant, contact }, { dueDate: '2026-01-31' }));
    await seed(
      'debts', template.id,
      {
        moved: { status: 'OVERDUE', due_date: '2026-01-15' },
        waiting: { status: 'PENDING', due_date: '2026-02-15' },
        other: { organization_id: crowd.organization.id, company_id: crowd.company.id, contact_id: crowdContact.id, status: 'PENDING', due_date: '2026-02-15' },
      },
      (i) => ({ external_request_id: `chunk-${i}-${uid()}` }),
    );
    const { plan, sql } = await chunkPlan(() => repos.debts.markOverdue(tenant.organization.id, '2026-03-01', T1, CHUNK));
    expectAlongIndex(plan, sql, /^debts_organization_id_status_due_date_index$/);
    // The template, due before the seeded ones, went first.
    const first = await repos.debts.markOverdue(tenant.organization.id, '2026-03-01', T1, 1);
    expect(first).to.have.length(1);
    expect(first[0]!.dueDate).to.equal('2026-02-15');
    expect(first[0]!.organizationId).to.equal(tenant.organization.id);
    expect(await db('debts').where({ id: template.id }).first('status')).to.deep.equal({ status: 'OVERDUE' });
  });

  it('the expiry job reads its chunk of payment links along (organization_id, status, expires_at)', async () => {
    const template = await repos.paymentLinks.insert(newLink(tenant));
    const expires = (iso: string) => new Date(iso).getTime();
    await seed(
      'payment_links', template.id,
      {
        moved: { status: 'EXPIRED', expires_at: expires('2026-01-15T00:00:00Z') },
        waiting: { status: 'ACTIVE', expires_at: expires('2026-02-15T00:00:00Z') },
        other: { organization_id: crowd.organization.id, company_id: crowd.company.id, status: 'ACTIVE', expires_at: expires('2026-02-15T00:00:00Z') },
      },
      (i) => ({ code: `CH${i}${uid()}`, debt_external_request_id: `plk_chunk_${i}_${uid()}` }),
    );
    const { plan, sql } = await chunkPlan(() => repos.paymentLinks.markExpired(tenant.organization.id, new Date('2026-03-01T00:00:00Z'), CHUNK));
    expectAlongIndex(plan, sql, /^payment_links_organization_id_status_expires_at_index$/);
  });

  it('the end job reads its chunk of subscriptions along (organization_id, status, last_due_date)', async () => {
    const contact = await repos.contacts.insert(newContact(tenant.organization.id));
    const product = await repos.products.insert(newProduct(tenant.company));
    const crowdContact = await repos.contacts.insert(newContact(crowd.organization.id));
    const crowdProduct = await repos.products.insert(newProduct(crowd.company));
    const subscription = {
      organization_id: tenant.organization.id, company_id: tenant.company.id, code: `S${uid()}${uid()}`, external_subscription_id: `chunk-template-${uid()}`,
      contact_id: contact.id, contact_created_inline: false, product_id: product.id, product_created_inline: false, status: 'ACTIVE',
      amount_cents: 100, currency: 'MXN', interval_unit: 'month', interval_count: 1, start_date: '2026-01-15', total_cycles: 1,
      last_due_date: '2026-01-15', enforce_payment_order: false, autopay: false, allow_overdue_payment: true, allow_partial_payments: true,
      resume_count: 0, created_at: T1.getTime(), updated_at: T1.getTime(),
    };
    const [templateId] = await db('subscriptions').insert(subscription);
    await seed(
      'subscriptions', Number(templateId),
      {
        moved: { status: 'ENDED', last_due_date: '2026-01-15' },
        waiting: { status: 'ACTIVE', last_due_date: '2026-02-15' },
        other: { organization_id: crowd.organization.id, company_id: crowd.company.id, contact_id: crowdContact.id, product_id: crowdProduct.id, status: 'ACTIVE', last_due_date: '2026-02-15' },
      },
      (i) => ({ code: `SC${i}${uid()}`, external_subscription_id: `chunk-${i}-${uid()}` }),
    );
    const { plan, sql } = await chunkPlan(() => repos.subscriptions.markEnded(tenant.organization.id, '2026-03-01', T1, CHUNK));
    expectAlongIndex(plan, sql, /^subscriptions_organization_status_last_due_index$/);
  });
});
