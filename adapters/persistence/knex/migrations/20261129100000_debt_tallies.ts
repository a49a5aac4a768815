import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The exact total of a company's unfiltered debt list (every debt but the CANCELLED ones) without
 * counting the rows: a tally kept by every debt write in its own transaction
 * (knex-debt-repository.ts). It is sharded, TALLY_SHARDS rows per company (tallies.ts), each write adding
 * to a random one, so concurrent creations of one company do not queue on one hot row; a read
 * sums the company's rows. Existing debts are counted into shard 0.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('debt_tallies', (t) => {
    tableOptions(db, t);
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.smallint('shard').notNullable();
    t.bigInteger('live').notNullable().defaultTo(0);
    t.primary(['company_id', 'shard']);
  });
  await db.raw(
    "INSERT INTO debt_tallies (company_id, shard, live) SELECT company_id, 0, COUNT(*) FROM debts WHERE status <> 'CANCELLED' GROUP BY company_id",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('debt_tallies');
}
