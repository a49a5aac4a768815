import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The exact total of GET /subscriptions?externalClientId= without a status, from a tally of the
 * company's subscriptions per debtor (adapters/persistence/knex/tallies.ts), kept by every insert
 * in its transaction: a subscription is never deleted and never changes its debtor, and every
 * status counts. Before it, every page counted all of the debtor's subscriptions: about 0.14 µs
 * of MariaDB CPU each on one connection, 7.5 ms a page at 32 connections for the bench's debtor
 * of 27,000 (docs/performance.md). With a status the page still counts its matches. Existing rows
 * are counted into shard 0; apply it with the writers stopped (docs/operations.md, "Upgrading: the
 * migrations that rebuild a tally").
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('subscription_contact_tallies', (t) => {
    tableOptions(db, t);
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.integer('contact_id').unsigned().notNullable().references('contacts.id');
    t.smallint('shard').notNullable();
    t.bigInteger('live').notNullable().defaultTo(0);
    t.primary(['company_id', 'contact_id', 'shard']);
  });
  await db.raw(
    'INSERT INTO subscription_contact_tallies (company_id, contact_id, shard, live) SELECT company_id, contact_id, 0, COUNT(*) FROM subscriptions GROUP BY company_id, contact_id',
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('subscription_contact_tallies');
}
