import type { Knex } from 'knex';

/** A tally (adapters/persistence/knex/tallies.ts) and the rows it counts. */
const TALLIES = [
  { tally: 'debt_tallies', rows: 'debts', owner: 'company_id', live: (q: Knex.QueryBuilder) => q.whereNot('status', 'CANCELLED') },
  { tally: 'contact_tallies', rows: 'contacts', owner: 'organization_id', live: (q: Knex.QueryBuilder) => q },
  { tally: 'payment_link_tallies', rows: 'payment_links', owner: 'company_id', live: (q: Knex.QueryBuilder) => q },
  { tally: 'event_tallies', rows: 'events', owner: 'company_id', live: (q: Knex.QueryBuilder) => q },
];

/**
 * Every tally must equal COUNT(*) of the rows it counts, per owner, whatever happened to the
 * database: every suite's API checks it before its database is dropped (harness close()), the
 * reliability suite's races, crashes and dropped connections included. Throws with the tallies
 * and owners that differ.
 */
export async function checkTallies(db: Knex): Promise<void> {
  type Sum = { owner: number; n: number | string };
  const wrong: string[] = [];
  for (const t of TALLIES) {
    const tallied = (await db(t.tally).select({ owner: t.owner }).sum({ n: 'live' }).groupBy(t.owner)) as Sum[];
    const counted = (await t.live(db(t.rows)).select({ owner: t.owner }).count({ n: '*' }).groupBy(t.owner)) as Sum[];
    const byOwner = new Map<number, { tally: number; count: number }>();
    for (const r of tallied) byOwner.set(Number(r.owner), { tally: Number(r.n), count: 0 });
    for (const r of counted) byOwner.set(Number(r.owner), { tally: byOwner.get(Number(r.owner))?.tally ?? 0, count: Number(r.n) });
    for (const [owner, v] of byOwner) if (v.tally !== v.count) wrong.push(`${t.tally} ${t.owner} ${owner}: tally ${v.tally}, count ${v.count}`);
  }
  if (wrong.length > 0) throw new Error(`tally differs from COUNT(*): ${wrong.join('; ')}`);
}
