import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The totals of GET /contacts, GET /payment-links (with or without a status) and GET /events
 * without another filter, as the debts have theirs (20261129100000_debt_tallies,
 * adapters/persistence/knex/tallies.ts): sharded tallies of the organization's contacts, of the
 * company's payment links per status and of its events, kept by every write in its transaction.
 * Before them, a full first page of contacts or links counted up to 10,001 index entries per
 * request (about 1.5 ms of MariaDB CPU per list, 2.1 ms with a status, in docs/performance.md),
 * and the events page counted every event of the company, a count that grows with every write.
 * Existing rows are counted into shard 0.
 */
export async function up(db: Knex): Promise<void> {
  // The debt_tallies shape (20261129100000_debt_tallies): the owner, its shard, the rows counted.
  // `by`: a short text column the rows are also counted by.
  const tallyTable = (name: string, owner: string, ownerTable: string, by?: string) =>
    db.schema.createTable(name, (t) => {
      tableOptions(db, t);
      t.integer(owner).unsigned().notNullable().references(`${ownerTable}.id`);
      if (by) t.string(by, 16).notNullable();
      t.smallint('shard').notNullable();
      t.bigInteger('live').notNullable().defaultTo(0);
      t.primary(by ? [owner, by, 'shard'] : [owner, 'shard']);
    });
  await tallyTable('contact_tallies', 'organization_id', 'organizations');
  // Per status too: GET /payment-links?status=… reads the status's count (ACTIVE less the ACTIVE
  // links past expiresAt that the expiry job has not marked yet, EXPIRED plus them).
  await tallyTable('payment_link_tallies', 'company_id', 'companies', 'status');
  await tallyTable('event_tallies', 'company_id', 'companies');
  await db.raw('INSERT INTO contact_tallies (organization_id, shard, live) SELECT organization_id, 0, COUNT(*) FROM contacts GROUP BY organization_id');
  await db.raw('INSERT INTO payment_link_tallies (company_id, status, shard, live) SELECT company_id, status, 0, COUNT(*) FROM payment_links GROUP BY company_id, status');
  await db.raw('INSERT INTO event_tallies (company_id, shard, live) SELECT company_id, 0, COUNT(*) FROM events GROUP BY company_id');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('event_tallies');
  await db.schema.dropTable('payment_link_tallies');
  await db.schema.dropTable('contact_tallies');
}
