import type { Knex } from 'knex';
import { addLargeTableIndex } from './large-table-index';

/** Each index: the one it replaces, then the same columns with the status after the id. */
const INDEXES = [
  { old: 'debts_company_id_contact_id_id_index', oldColumns: ['company_id', 'contact_id', 'id'], name: 'debts_company_id_contact_id_id_status_index' },
  { old: 'debts_company_id_batch_id_id_index', oldColumns: ['company_id', 'batch_id', 'id'], name: 'debts_company_id_batch_id_id_status_index' },
].map((index) => ({ ...index, columns: [...index.oldColumns, 'status'] }));

/**
 * GET /debts?externalClientId= and ?batchId= list a debtor's or a batch's debts, newest first,
 * CANCELLED left out, with their exact total. (company_id, contact_id, id) and (company_id,
 * batch_id, id) held them in the page's order, but not their status: the page's ids and the total
 * each read every one of those rows from the table to leave the CANCELLED ones out, twice the
 * page's rows, and a debtor's rows lie scattered over the table. With the status at the end of
 * each index both are answered from the index alone, and only the page's own rows are read. The
 * order of the page is the same (the status comes after the id), and every other reader of these
 * indexes reads their first columns, which are unchanged; so each replaces the old one.
 *
 * The price, on MariaDB and SQLite: a change of status now moves an entry in each of these two
 * indexes as well as in the five that held the status already. Measured (docs/performance.md):
 * about a tenth less MariaDB CPU for each of these pages, a fifth more for each debt the overdue
 * sweep marks, which is paced background work. (PostgreSQL already wrote a new entry into every
 * index of the table on a change of status: an update of an indexed column is never HOT.)
 *
 * InnoDB builds them without blocking writes. PostgreSQL's CREATE INDEX blocks writes to the
 * table while it builds, so an operator with many debts can build them beforehand with CREATE
 * INDEX CONCURRENTLY under the same names, which this migration then leaves as they are
 * (docs/operations.md, "Upgrading").
 */
export async function up(db: Knex): Promise<void> {
  for (const { name, columns, old, oldColumns } of INDEXES) {
    await addLargeTableIndex(db, 'debts', columns, name);
    await db.schema.alterTable('debts', (t) => {
      t.dropIndex(oldColumns, old);
    });
  }
}

export async function down(db: Knex): Promise<void> {
  for (const { name, columns, old, oldColumns } of INDEXES) {
    await db.schema.alterTable('debts', (t) => {
      t.index(oldColumns, old);
    });
    await db.schema.alterTable('debts', (t) => {
      t.dropIndex(columns, name);
    });
  }
}
