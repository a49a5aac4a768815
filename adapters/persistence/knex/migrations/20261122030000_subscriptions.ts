import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('subscriptions', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('external_subscription_id', 120).notNullable();
    t.integer('contact_id').unsigned().notNullable().references('contacts.id');
    t.boolean('contact_created_inline').notNullable().defaultTo(false);
    t.integer('product_id').unsigned().notNullable().references('products.id');
    t.boolean('product_created_inline').notNullable().defaultTo(false);
    t.string('status', 16).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 3).notNullable();
    t.string('interval_unit', 8).notNullable();
    t.integer('interval_count').notNullable();
    t.string('start_date', 10).notNullable();
    t.integer('total_cycles').nullable();
    t.string('end_date', 10).nullable();
    t.integer('billing_day').nullable();
    t.integer('billing_month').nullable();
    // Due date of the last cycle (null when open-ended): ENDED is computed from it on read.
    t.string('last_due_date', 10).nullable();
    t.boolean('enforce_payment_order').notNullable();
    t.boolean('autopay').notNullable();
    t.boolean('allow_overdue_payment').notNullable();
    t.boolean('allow_partial_payments').notNullable();
    t.text('payment_methods').nullable();
    t.text('description').nullable();
    t.text('additional_data').nullable();
    t.integer('resume_count').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['organization_id', 'external_subscription_id']);
    t.index(['company_id', 'external_subscription_id']);
    t.index(['company_id', 'contact_id']);
  });
  await db.schema.alterTable('debts', (t) => {
    t.integer('subscription_id').unsigned().nullable().references('subscriptions.id');
    t.index(['subscription_id', 'due_date']);
  });
  // Transactional outbox: a job is written in the transaction of the change that needs it and
  // handed to the queue after commit (again by the dispatcher if that fails), so none is lost.
  await db.schema.createTable('job_outbox', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.string('job_name', 60).notNullable();
    t.string('job_id', 200).notNullable().unique();
    t.text('data').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('dispatched_at').nullable();
    t.index(['dispatched_at', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('job_outbox');
  await db.schema.alterTable('debts', (t) => {
    t.dropForeign(['subscription_id']);
    t.dropIndex(['subscription_id', 'due_date']);
    t.dropColumn('subscription_id');
  });
  await db.schema.dropTableIfExists('subscriptions');
}
