import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';

/**
 * MySQL tables use a binary collation so keys compare exactly as on SQLite (case- and
 * accent-sensitive); case-insensitive searches say so explicitly with LOWER().
 */
export function tableOptions(db: Knex, table: Knex.CreateTableBuilder): void {
  sqlDialect(db).tableOptions(table);
}
