import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payment_links', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('external_payment_link_id', 150).nullable();
    t.string('debt_external_request_id', 160).notNullable();
    t.string('status', 16).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 3).notNullable();
    t.text('description').notNullable();
    t.boolean('single_use').notNullable();
    t.bigInteger('expires_at').nullable();
    t.string('success_url', 2000).nullable();
    t.text('metadata').nullable();
    t.string('identifier_value', 64).nullable();
    t.string('url_identifier', 128).notNullable();
    t.string('short_code', 32).nullable().unique();
    t.integer('product_id').unsigned().nullable().references('products.id');
    t.boolean('product_created_inline').notNullable().defaultTo(false);
    t.integer('contact_id').unsigned().nullable().references('contacts.id');
    t.integer('payments_count').notNullable().defaultTo(0);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // The natural key: unique per organization when present (NULLs never collide).
    t.unique(['organization_id', 'external_payment_link_id']);
    t.index(['company_id', 'external_payment_link_id', 'id']);
    t.index(['company_id', 'created_at']);
    t.index(['company_id', 'status']);
    t.index(['organization_id', 'status', 'expires_at']);
  });
  await db.schema.alterTable('debts', (t) => {
    t.integer('payment_link_id').unsigned().nullable().references('payment_links.id');
    t.index(['payment_link_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('debts', (t) => {
    t.dropForeign(['payment_link_id']);
    t.dropIndex(['payment_link_id', 'id']);
    t.dropColumn('payment_link_id');
  });
  await db.schema.dropTableIfExists('payment_links');
}
