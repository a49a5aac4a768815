import type { Knex } from 'knex';

/**
 * Dunning: a debt may get several numbered debit attempts (the due-date debit and its retries),
 * never two with the same number; a refused attempt carries the date its retry is due.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('debit_attempts', (t) => {
    t.integer('attempt_number').unsigned().notNullable().defaultTo(1);
    // YYYY-MM-DD (UTC, the organization's clock); NULL once the retry was made, or when none follows.
    t.string('retry_on', 10).nullable();
  });
  // The new key first: on MySQL it is also the index the debt_id foreign key needs.
  await db.schema.alterTable('debit_attempts', (t) => {
    t.unique(['debt_id', 'attempt_number']);
  });
  await db.schema.alterTable('debit_attempts', (t) => {
    t.dropUnique(['debt_id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('debit_attempts', (t) => {
    t.unique(['debt_id']);
  });
  await db.schema.alterTable('debit_attempts', (t) => {
    t.dropUnique(['debt_id', 'attempt_number']);
    t.dropColumn('retry_on');
    t.dropColumn('attempt_number');
  });
}
