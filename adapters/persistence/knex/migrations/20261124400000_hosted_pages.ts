import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * The hosted pages: public payment links are looked up by the identifier in their portal URL;
 * portal payments keep their receipt; enrollment-page registrations keep their form key.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payment_links', (t) => {
    t.index(['company_id', 'url_identifier', 'id']);
  });
  await db.schema.createTable('portal_payments', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('submission_key', 64).notNullable();
    t.integer('debt_id').unsigned().notNullable().references('debts.id');
    t.integer('payment_link_id').unsigned().nullable().references('payment_links.id');
    t.integer('subscription_id').unsigned().nullable().references('subscriptions.id');
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 3).notNullable();
    t.string('method', 20).notNullable();
    t.string('processor_reference', 100).notNullable();
    t.bigInteger('created_at').notNullable();
    // One payment per form submission: a form sent twice pays once.
    t.unique(['company_id', 'submission_key']);
  });
  await db.schema.createTable('portal_enrollments', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('submission_key', 64).notNullable();
    t.string('external_client_id', 100).notNullable();
    t.integer('payment_method_id').unsigned().notNullable().references('payment_methods.id');
    t.bigInteger('created_at').notNullable();
    t.unique(['company_id', 'submission_key']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('portal_enrollments');
  await db.schema.dropTableIfExists('portal_payments');
  await db.schema.alterTable('payment_links', (t) => {
    t.dropIndex(['company_id', 'url_identifier', 'id']);
  });
}
