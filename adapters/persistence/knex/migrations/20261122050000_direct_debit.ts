import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payment_methods', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('external_client_id', 100).notNullable();
    t.string('type', 20).notNullable();
    t.string('status', 12).notNullable();
    t.string('masked_reference', 60).nullable();
    // The user's id while this is their default, else NULL: one default per user is a unique
    // key (NULLs never collide), so two racing first registrations cannot both become default.
    t.string('default_of', 100).nullable();
    t.bigInteger('created_at').notNullable();
    t.unique(['company_id', 'default_of']);
    t.index(['company_id', 'external_client_id', 'id']);
  });
  await db.schema.createTable('adhesions', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('external_client_id', 100).notNullable();
    t.integer('product_id').unsigned().notNullable().references('products.id');
    t.string('status', 12).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['company_id', 'external_client_id', 'product_id']);
  });
  await db.schema.createTable('debit_attempts', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    // One automatic debit per debt, whatever races or retries.
    t.integer('debt_id').unsigned().notNullable().unique().references('debts.id');
    t.integer('payment_method_id').unsigned().notNullable().references('payment_methods.id');
    t.bigInteger('amount_cents').notNullable();
    t.string('status', 12).notNullable();
    t.string('failure_code', 60).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('completed_at').nullable();
    t.index(['status', 'created_at']);
  });
  await db.schema.alterTable('debts', (t) => {
    // The payment method an autopay debt is debited with (its autopayInstrument).
    t.integer('autopay_payment_method_id').unsigned().nullable().references('payment_methods.id');
    // The debit job: autopay debts due, per organization (a small subset of all debts).
    t.index(['organization_id', 'autopay', 'due_date']);
  });
  await db.schema.alterTable('job_outbox', (t) => {
    // Adhesion requests belong to their product; a deferred one waits for the product's next debt.
    t.string('group_key', 60).nullable();
    t.boolean('deferred').notNullable().defaultTo(false);
    t.index(['group_key', 'dispatched_at']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('job_outbox', (t) => {
    t.dropIndex(['group_key', 'dispatched_at']);
    t.dropColumn('deferred');
    t.dropColumn('group_key');
  });
  await db.schema.alterTable('debts', (t) => {
    t.dropIndex(['organization_id', 'autopay', 'due_date']);
    t.dropForeign(['autopay_payment_method_id']);
    t.dropColumn('autopay_payment_method_id');
  });
  await db.schema.dropTableIfExists('debit_attempts');
  await db.schema.dropTableIfExists('adhesions');
  await db.schema.dropTableIfExists('payment_methods');
}
