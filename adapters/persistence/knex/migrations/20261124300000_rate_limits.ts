import type { Knex } from 'knex';

export async function up(db: Knex): Promise<void> {
  // The operator's rate limit per organization (set-rate-limit); NULL: the server's defaults.
  // Read with the facade credentials in the same query, so a request pays nothing for it.
  await db.schema.alterTable('organizations', (t) => {
    t.integer('rate_limit_capacity').unsigned().nullable();
    t.double('rate_limit_refill_per_second').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('organizations', (t) => {
    t.dropColumn('rate_limit_capacity');
    t.dropColumn('rate_limit_refill_per_second');
  });
}
