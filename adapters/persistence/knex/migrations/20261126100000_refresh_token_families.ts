import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * Refresh token families (OAuth 2.0 Security BCP, refresh token rotation): every token rotated
 * from one login belongs to that login's family; presenting a token that was already used
 * revokes the whole family, so the newer token of a stolen chain stops working too. Tokens
 * issued before this migration have no family and join a new one when they are next used.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('refresh_token_families', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('client_user_id').unsigned().notNullable().references('client_users.id');
    t.bigInteger('created_at').notNullable();
    // Set when a used token of the family came back (or the client was disabled): no token of it is accepted.
    t.bigInteger('revoked_at').nullable();
    t.index(['client_user_id']);
  });
  await db.schema.alterTable('refresh_tokens', (t) => {
    t.integer('family_id').unsigned().nullable().references('refresh_token_families.id');
    t.index(['family_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('refresh_tokens', (t) => {
    t.dropForeign(['family_id']);
    t.dropIndex(['family_id']);
    t.dropColumn('family_id');
  });
  await db.schema.dropTable('refresh_token_families');
}
