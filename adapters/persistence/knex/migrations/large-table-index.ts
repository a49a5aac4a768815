import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';

/**
 * Adds an index to a table that can be large. MariaDB/MySQL build it in place while writes go on;
 * SQLite's tables are small. PostgreSQL's CREATE INDEX blocks writes to the table while it builds,
 * so an operator with many rows builds it beforehand with CREATE INDEX CONCURRENTLY under the same
 * name (docs/operations.md, "Upgrading"), which IF NOT EXISTS then leaves as it is.
 */
export async function addLargeTableIndex(db: Knex, table: string, columns: string[], name: string): Promise<void> {
  if (sqlDialect(db).name === 'postgres') {
    await db.raw(`CREATE INDEX IF NOT EXISTS ?? ON ?? (${columns.join(', ')})`, [name, table]);
    return;
  }
  await db.schema.alterTable(table, (t) => {
    t.index(columns, name);
  });
}
