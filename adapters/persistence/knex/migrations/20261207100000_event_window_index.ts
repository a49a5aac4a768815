import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';
import { addLargeTableIndex } from './large-table-index';

const NAME = 'events_company_id_created_at_index';
const COLUMNS = ['company_id', 'created_at', 'id'];

/**
 * GET /events with a creation window (createdAtFrom/createdAtTo): its page and its exact total read
 * the window's events from this index. Without it both read every event of the company: the count
 * tested each one's created_at, and the page walked the company's events newest first through every
 * event newer than the window. The key ends in the id so that PostgreSQL can answer from the index
 * alone; InnoDB adds the id to every secondary index anyway.
 *
 * InnoDB builds it without blocking writes. PostgreSQL's CREATE INDEX blocks writes to the table
 * while it builds, so an operator with a large events table can build it beforehand with CREATE
 * INDEX CONCURRENTLY under the same name, which this migration then leaves as it is
 * (docs/operations.md, "Upgrading").
 */
export async function up(db: Knex): Promise<void> {
  await addLargeTableIndex(db, 'events', COLUMNS, NAME);
}

export async function down(db: Knex): Promise<void> {
  if (sqlDialect(db).name === 'postgres') {
    await db.raw('DROP INDEX IF EXISTS ??', [NAME]);
    return;
  }
  await db.schema.alterTable('events', (t) => {
    t.dropIndex(COLUMNS, NAME);
  });
}
