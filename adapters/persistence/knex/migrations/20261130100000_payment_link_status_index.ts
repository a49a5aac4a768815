import type { Knex } from 'knex';

/**
 * GET /payment-links?status=ACTIVE (or EXPIRED) counts its matches (up to COUNT_SCAN_CAP + 1) by
 * status and expiry. With expires_at in the status index that count reads the index alone; the
 * (company_id, status) index it replaces made it read every matching row (10,000 row lookups,
 * about 10 ms of MariaDB CPU per list in docs/performance.md).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('payment_links', (t) => {
    t.index(['company_id', 'status', 'expires_at']);
  });
  await db.schema.alterTable('payment_links', (t) => {
    t.dropIndex(['company_id', 'status']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('payment_links', (t) => {
    t.index(['company_id', 'status']);
  });
  await db.schema.alterTable('payment_links', (t) => {
    t.dropIndex(['company_id', 'status', 'expires_at']);
  });
}
