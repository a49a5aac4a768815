import { expect } from 'chai';
import type { Knex } from 'knex';

type Statement = { sql: string; bindings: Knex.RawBinding[] };

/**
 * The one statement `list` runs on `db` that reads the page (the one with a LIMIT), with its
 * bindings, for a plan test to EXPLAIN or ANALYZE it.
 */
export function pageStatement(db: Knex, list: () => Promise<unknown>): Promise<Statement> {
  return onlyStatement(db, list, (sql) => /\blimit\b/i.test(sql));
}

/** The one statement `read` runs on `db` (of those `counted` picks), with its bindings. */
export async function onlyStatement(db: Knex, read: () => Promise<unknown>, counted: (sql: string) => boolean = () => true): Promise<Statement> {
  const statements: Statement[] = [];
  const onQuery = (q: { sql: string; bindings?: Knex.RawBinding[] }) => {
    if (counted(q.sql)) statements.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  db.on('query', onQuery);
  try {
    await read();
  } finally {
    db.off('query', onQuery);
  }
  expect(statements).to.have.length(1);
  return statements[0]!;
}
