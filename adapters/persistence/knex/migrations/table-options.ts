import type { Knex } from 'knex';

/**
 * MySQL tables use a binary collation so keys compare exactly as on SQLite (case- and
 * accent-sensitive); case-insensitive searches say so explicitly with LOWER().
 */
export function tableOptions(db: Knex, table: Knex.CreateTableBuilder): void {
  if (db.client.config.client === 'mysql2') {
    table.engine('InnoDB');
    table.charset('utf8mb4');
    table.collate('utf8mb4_bin');
  }
}
