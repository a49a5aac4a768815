import type { Knex } from 'knex';
import { offsetOf, type PageRequest } from '../../../internal/shared/page';
import { sqlDialect } from './dialect';

/** The values one read binds; a value left out (undefined) makes it another shape. */
export type ReadValues = Record<string, string | number | undefined>;

type Db = Knex | Knex.Transaction;

interface Compiled {
  sql: string;
  /** Per binding of `sql`: the name of the value it takes, or a constant of the query itself. */
  slots: ({ value: string } | { constant: Knex.RawBinding })[];
}

/**
 * A SELECT whose SQL text depends on its shape (the database, which values are present) and not
 * on the values: Knex builds and compiles it once per shape, and every later call binds its own
 * values to that text. Building and compiling the same nested page query on every request was a
 * tenth of a list's API CPU (docs/performance.md, issue 19).
 *
 * `build` decides only by which values are present, and puts each one into the query as it is (no
 * arithmetic or string work on it: do that before, and pass the result). It is called once per
 * shape with stand-ins, and each stand-in present must come out as a binding, which is checked.
 */
export function compiledRead<V extends ReadValues>(build: (db: Db, values: V) => Knex.QueryBuilder) {
  const cache = new Map<string, Compiled>();
  return async function read<R>(db: Db, values: V): Promise<R[]> {
    const dialect = sqlDialect(db);
    let shape = dialect.name;
    for (const name in values) if (values[name] !== undefined) shape += ` ${name}`;
    let compiled = cache.get(shape);
    if (!compiled) {
      compiled = compile(db, build, values);
      cache.set(shape, compiled);
    }
    const bindings = compiled.slots.map((slot) => ('value' in slot ? values[slot.value]! : slot.constant));
    return dialect.rawRows<R>(await db.raw(compiled.sql, bindings));
  };
}

function compile<V extends ReadValues>(db: Db, build: (db: Db, values: V) => Knex.QueryBuilder, values: V): Compiled {
  // Numbers stand in as large ones no query holds (and > 0: Knex leaves out an offset of 0),
  // strings as text no query holds, which trimming, a change of case or a pattern would alter.
  const standIns: ReadValues = {};
  const names = new Map<unknown, string>();
  Object.keys(values).forEach((name, i) => {
    const value = values[name];
    if (value === undefined) return;
    const standIn = typeof value === 'number' ? 1_987_654_321 + i : ` Compiled Read ${i} `;
    standIns[name] = standIn;
    names.set(standIn, name);
  });
  const { sql, bindings } = build(db, standIns as V).toSQL();
  const bound = new Set<string>();
  const slots = bindings.map((binding) => {
    const name = names.get(binding);
    if (name === undefined) return { constant: binding };
    bound.add(name);
    return { value: name };
  });
  const unbound = [...names.values()].filter((name) => !bound.has(name));
  if (unbound.length > 0) throw new Error(`compiledRead: ${unbound.join(', ')} did not come out as bindings of: ${sql}`);
  return { sql, slots };
}

/** A page's values: its limit, and its offset past the first page (a first page has none, so one shape). */
export interface PageValues extends ReadValues {
  limit: number;
  offset?: number;
}

export function pageValues(page: PageRequest): PageValues {
  return { limit: page.limit, offset: offsetOf(page) || undefined };
}

/** `query` limited to the page of `values`. */
export function paged(query: Knex.QueryBuilder, values: PageValues): Knex.QueryBuilder {
  query.limit(values.limit);
  if (values.offset !== undefined) query.offset(values.offset);
  return query;
}
