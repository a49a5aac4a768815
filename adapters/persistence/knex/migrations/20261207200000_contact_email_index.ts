import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';

const NAME = 'contacts_organization_id_email_lower_index';
const OLD = 'contacts_organization_id_email_index';

/**
 * GET /contacts?email= matches the email exactly but without case (`LOWER(email) = ?`), and no
 * index served that: (organization_id, email) holds the email as written, and every database here
 * compares it with case (MySQL's tables use a binary collation). So a lookup by email read every
 * contact of the organization: 270 to 280 ms among 200,000 on MariaDB. This index holds the
 * lower-cased email under the organization, which the lookup reads instead (a ref of one row), and
 * replaces the old one, which nothing else reads.
 *
 * PostgreSQL and SQLite index the expression `lower(email)` itself, and their planners match it to
 * the lookup's `LOWER(contacts.email)`. MariaDB has no index on an expression: it indexes a VIRTUAL
 * column, `email_lower`, computed from `email` (no row stores it; adding it changes no row, and
 * the index is built without blocking writes), and the lookup names that column
 * (knex-contact-repository.ts). The database computes the value, so a contact written by an API
 * process of the previous version while this release rolls out is found all the same. PostgreSQL's
 * CREATE INDEX blocks writes to contacts while it builds: an operator with many contacts can build
 * it beforehand with CREATE INDEX CONCURRENTLY under the same name (docs/operations.md).
 */
export async function up(db: Knex): Promise<void> {
  const dialect = sqlDialect(db).name;
  if (dialect === 'mysql') {
    await db.raw('ALTER TABLE contacts ADD COLUMN email_lower VARCHAR(254) AS (LOWER(email)) VIRTUAL');
    await db.schema.alterTable('contacts', (t) => {
      t.index(['organization_id', 'email_lower'], NAME);
      t.dropIndex(['organization_id', 'email'], OLD);
    });
    return;
  }
  await db.raw(`CREATE INDEX IF NOT EXISTS ?? ON contacts (organization_id, lower(email))`, [NAME]);
  await db.schema.alterTable('contacts', (t) => {
    t.dropIndex(['organization_id', 'email'], OLD);
  });
}

export async function down(db: Knex): Promise<void> {
  const dialect = sqlDialect(db).name;
  await db.schema.alterTable('contacts', (t) => {
    t.index(['organization_id', 'email'], OLD);
  });
  if (dialect === 'mysql') {
    await db.schema.alterTable('contacts', (t) => {
      t.dropIndex(['organization_id', 'email_lower'], NAME);
      t.dropColumn('email_lower');
    });
    return;
  }
  await db.raw('DROP INDEX IF EXISTS ??', [NAME]);
}
