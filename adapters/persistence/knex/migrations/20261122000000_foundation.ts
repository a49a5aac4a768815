import type { Knex } from 'knex';
import { tableOptions } from './table-options';

// Instants are BIGINT epoch milliseconds on both databases: exact to the millisecond and free
// of session time zones. Plain dates are CHAR(10) `YYYY-MM-DD`.
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('organizations', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.string('name', 200).notNullable().unique();
    t.bigInteger('frozen_now').nullable();
    t.bigInteger('created_at').notNullable();
  });
  await db.schema.createTable('companies', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.string('code', 40).notNullable().unique();
    t.string('name', 200).notNullable();
    t.string('default_currency', 3).nullable();
    t.boolean('direct_debit_enabled').notNullable().defaultTo(false);
    t.boolean('direct_debit_modality').notNullable().defaultTo(false);
    t.boolean('private_links').notNullable().defaultTo(false);
    t.string('portal_url', 500).nullable();
  });
  await db.schema.createTable('client_users', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.string('username', 64).notNullable().unique();
    t.string('password_hash', 255).notNullable();
    t.boolean('disabled').notNullable().defaultTo(false);
    t.bigInteger('created_at').notNullable();
  });
  await db.schema.createTable('client_user_companies', (t) => {
    tableOptions(db, t);
    t.integer('client_user_id').unsigned().notNullable().references('client_users.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.primary(['client_user_id', 'company_id']);
  });
  await db.schema.createTable('api_keys', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('client_user_id').unsigned().notNullable().references('client_users.id');
    t.string('kind', 10).notNullable();
    t.string('app_env', 12).notNullable();
    t.string('key_hash', 64).notNullable().unique();
    t.string('prefix', 16).notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('revoked_at').nullable();
    t.index(['client_user_id']);
  });
  await db.schema.createTable('refresh_tokens', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('client_user_id').unsigned().notNullable().references('client_users.id');
    t.string('token_hash', 64).notNullable().unique();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('used_at').nullable();
    t.index(['expires_at']);
    t.index(['client_user_id']);
  });
  await db.schema.createTable('contacts', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.string('code', 32).notNullable().unique();
    t.string('external_client_id', 100).notNullable();
    t.string('name', 200).notNullable();
    // Lower-case, accent-free copy of name for the partial name filter, folded in code so both
    // databases match alike ("jose" finds "José"). Folding can lengthen a name up to 3 times
    // (NFD turns a Hangul syllable into 3 jamo), so 600 holds any 200-character name.
    t.string('name_search', 600).notNullable();
    t.string('email', 254).notNullable();
    t.text('phones').notNullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['organization_id', 'external_client_id']);
    t.index(['organization_id', 'email']);
  });
  await db.schema.createTable('contact_phones', (t) => {
    tableOptions(db, t);
    t.integer('contact_id').unsigned().notNullable().references('contacts.id');
    t.integer('organization_id').unsigned().notNullable();
    t.integer('position').notNullable();
    // Digits stored reversed: "number ends with these digits" becomes an indexed prefix match.
    t.string('digits_reversed', 40).notNullable();
    t.primary(['contact_id', 'position']);
    t.index(['organization_id', 'digits_reversed']);
  });
  await db.schema.createTable('products', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('name', 200).notNullable();
    t.string('external_product_id', 200).nullable();
    t.boolean('active').notNullable().defaultTo(true);
    t.bigInteger('created_at').nullable();
    t.bigInteger('updated_at').nullable();
    t.unique(['company_id', 'name']);
    t.unique(['company_id', 'external_product_id']);
    t.index(['company_id', 'active', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  for (const table of [
    'products',
    'contact_phones',
    'contacts',
    'refresh_tokens',
    'api_keys',
    'client_user_companies',
    'client_users',
    'companies',
    'organizations',
  ]) {
    await db.schema.dropTableIfExists(table);
  }
}
