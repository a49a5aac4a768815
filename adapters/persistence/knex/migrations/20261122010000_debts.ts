import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('debts', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('external_request_id', 160).notNullable();
    t.string('batch_id', 40).nullable();
    // Null only for the debt of a payment link without a known debtor.
    t.integer('contact_id').unsigned().nullable().references('contacts.id');
    t.boolean('contact_created_inline').notNullable().defaultTo(false);
    t.integer('product_id').unsigned().nullable().references('products.id');
    t.string('status', 16).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.bigInteger('amount_paid_cents').notNullable().defaultTo(0);
    t.string('currency', 3).notNullable();
    t.string('due_date', 10).notNullable();
    t.boolean('allow_overdue_payment').notNullable();
    t.boolean('allow_partial_payments').notNullable();
    t.text('description').nullable();
    t.text('additional_data').nullable();
    t.text('payment_methods').nullable();
    t.boolean('autopay').notNullable().defaultTo(false);
    t.string('autopay_reason', 60).nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // The idempotency key: one debt per key and company, whatever races.
    t.unique(['company_id', 'external_request_id']);
    // Lists are newest first (id desc) within a company, cancelled excluded; each filter has
    // an index that starts with the company and ends with the sort key.
    // (Both databases append the primary key to every secondary index.) The range filters carry
    // status so "not cancelled" is answered from the index (measured in docs/performance.md).
    t.index(['company_id', 'id']);
    t.index(['company_id', 'status', 'id']);
    t.index(['company_id', 'status', 'due_date']);
    t.index(['company_id', 'created_at', 'status']);
    t.index(['company_id', 'contact_id', 'id']);
    t.index(['company_id', 'batch_id', 'id']);
    t.index(['company_id', 'amount_cents', 'status']);
    // The overdue job: PENDING debts past their due date, per organization.
    t.index(['organization_id', 'status', 'due_date']);
  });
  await db.schema.createTable('debt_payments', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('debt_id').unsigned().notNullable().references('debts.id');
    t.bigInteger('amount_cents').notNullable();
    t.string('source', 30).notNullable();
    t.bigInteger('created_at').notNullable();
    t.index(['debt_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('debt_payments');
  await db.schema.dropTableIfExists('debts');
}
