import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The debt tally (20261129100000_debt_tallies) kept per status as well, as the subscriptions'
 * is (20261204100000_subscription_status_tallies): GET /debts?status=… with no other filter reads
 * the status's count instead of counting every match (4.4 ms of MariaDB CPU per page for 12,800
 * OVERDUE debts, docs/performance.md). OVERDUE and PENDING also need the PENDING debts past due
 * that the overdue job has not marked yet: the (company_id, status, due_date) index reads those
 * alone. CANCELLED debts are still not counted (no list shows them). The table is built again from
 * COUNT(*) per company and status, into shard 0.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.dropTable('debt_tallies');
  await db.schema.createTable('debt_tallies', (t) => {
    tableOptions(db, t);
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('status', 16).notNullable();
    t.smallint('shard').notNullable();
    t.bigInteger('live').notNullable().defaultTo(0);
    t.primary(['company_id', 'status', 'shard']);
  });
  await db.raw(
    "INSERT INTO debt_tallies (company_id, status, shard, live) SELECT company_id, status, 0, COUNT(*) FROM debts WHERE status <> 'CANCELLED' GROUP BY company_id, status",
  );
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTable('debt_tallies');
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
