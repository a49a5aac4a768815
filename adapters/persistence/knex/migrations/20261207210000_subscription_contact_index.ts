import type { Knex } from 'knex';
import { addLargeTableIndex } from './large-table-index';

const NAME = 'subscriptions_company_contact_external_id_index';
const COLUMNS = ['company_id', 'contact_id', 'external_subscription_id'];
const OLD = 'subscriptions_company_id_contact_id_index';
const OLD_COLUMNS = ['company_id', 'contact_id'];

/**
 * GET /subscriptions?externalClientId= is a page of one debtor's subscriptions in the list's order
 * (external_subscription_id, newest first). (company_id, contact_id) found them but not in that
 * order, so a page either sorted all of the debtor's subscriptions or walked the company's in
 * order until it had found its own (MariaDB took the walk when the debtor held most of them): a
 * business that bills one client many times (its branches, its meters) paid for every one of them
 * on every page, or for the other clients' in between. This index holds a debtor's in the page's
 * order, so a page reads its own rows, and replaces the old one, which nothing else reads (the
 * contact's foreign key has its own index).
 *
 * InnoDB builds it without blocking writes. PostgreSQL's CREATE INDEX blocks writes to the table
 * while it builds, so an operator with many subscriptions can build it beforehand with CREATE
 * INDEX CONCURRENTLY under the same name, which this migration then leaves as it is
 * (docs/operations.md, "Upgrading").
 */
export async function up(db: Knex): Promise<void> {
  await addLargeTableIndex(db, 'subscriptions', COLUMNS, NAME);
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(OLD_COLUMNS, OLD);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.index(OLD_COLUMNS, OLD);
  });
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(COLUMNS, NAME);
  });
}
