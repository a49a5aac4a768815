import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';

const NAME = 'payment_links_company_id_newest_index';

/**
 * GET /payment-links reads a company's links by externalPaymentLinkId descending, links without
 * one last, then newest first. MySQL and SQLite sort NULL lowest, so the (company_id,
 * external_payment_link_id, id) index read backward is that order. PostgreSQL sorts NULL highest:
 * that index read backward puts the links without a key first, so every page sorted all of the
 * company's links (5.1 ms of PostgreSQL CPU per page with 16,000 of them). This index is the page's
 * order on PostgreSQL; the other databases need nothing new.
 */
export async function up(db: Knex): Promise<void> {
  if (sqlDialect(db).name !== 'postgres') return;
  await db.raw('CREATE INDEX ?? ON payment_links (company_id, external_payment_link_id DESC NULLS LAST, id DESC)', [NAME]);
}

export async function down(db: Knex): Promise<void> {
  if (sqlDialect(db).name !== 'postgres') return;
  await db.raw('DROP INDEX ??', [NAME]);
}
