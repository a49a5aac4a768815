import { expect } from 'chai';
import type { Knex } from 'knex';

/**
 * The one statement `list` runs on `db` that reads the page (the one with a LIMIT), with its
 * bindings, for a plan test to EXPLAIN or ANALYZE it.
 */
export async function pageStatement(db: Knex, list: () => Promise<unknown>): Promise<{ sql: string; bindings: Knex.RawBinding[] }> {
  const pages: { sql: string; bindings: Knex.RawBinding[] }[] = [];
  const onQuery = (q: { sql: string; bindings?: Knex.RawBinding[] }) => {
    if (/\blimit\b/i.test(q.sql)) pages.push({ sql: q.sql, bindings: q.bindings ?? [] });
  };
  db.on('query', onQuery);
  try {
    await list();
  } finally {
    db.off('query', onQuery);
  }
  expect(pages).to.have.length(1);
  return pages[0]!;
}
