import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The total of GET /subscriptions without a filter, as the contacts, payment links and events
 * have theirs (20261201100000_list_tallies, adapters/persistence/knex/tallies.ts): a sharded tally
 * of the company's subscriptions, kept by every insert in its transaction (a subscription is never
 * deleted, and every status counts in the unfiltered list). Before it, every full first page
 * counted all of the company's subscriptions: about 0.2 µs of MariaDB CPU each, per request
 * (docs/performance.md). Existing rows are counted into shard 0.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('subscription_tallies', (t) => {
    tableOptions(db, t);
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.smallint('shard').notNullable();
    t.bigInteger('live').notNullable().defaultTo(0);
    t.primary(['company_id', 'shard']);
  });
  await db.raw('INSERT INTO subscription_tallies (company_id, shard, live) SELECT company_id, 0, COUNT(*) FROM subscriptions GROUP BY company_id');
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('subscription_tallies');
}
