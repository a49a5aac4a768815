import type { Knex } from 'knex';

/**
 * GET /contacts reads newest first within one organization. This index gives that order and
 * carries the folded name, so a `name` search scans the organization's entries in the index
 * alone and reads only the rows of the page (knex-contact-repository.ts).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('contacts', (t) => {
    t.index(['organization_id', 'id', 'name_search'], 'contacts_organization_id_id_name_search_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('contacts', (t) => {
    t.dropIndex(['organization_id', 'id', 'name_search'], 'contacts_organization_id_id_name_search_index');
  });
}
