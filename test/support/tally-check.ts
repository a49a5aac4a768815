import type { Knex } from 'knex';

/** A tally (adapters/persistence/knex/tallies.ts), the rows it counts and what it counts them by. */
const TALLIES: { tally: string; rows: string; keys: string[]; live: (q: Knex.QueryBuilder) => Knex.QueryBuilder }[] = [
  { tally: 'debt_tallies', rows: 'debts', keys: ['company_id', 'status'], live: (q) => q.whereNot('status', 'CANCELLED') },
  { tally: 'contact_tallies', rows: 'contacts', keys: ['organization_id'], live: (q) => q },
  { tally: 'payment_link_tallies', rows: 'payment_links', keys: ['company_id', 'status'], live: (q) => q },
  { tally: 'event_tallies', rows: 'events', keys: ['company_id'], live: (q) => q },
  { tally: 'subscription_tallies', rows: 'subscriptions', keys: ['company_id', 'status'], live: (q) => q },
  { tally: 'subscription_contact_tallies', rows: 'subscriptions', keys: ['company_id', 'contact_id'], live: (q) => q },
];

/**
 * Every tally must equal COUNT(*) of the rows it counts, per owner (and status, for the debts, the
 * payment links and the subscriptions; and debtor, for the subscriptions' second tally), whatever happened to the database: every suite's API checks it before its database is
 * dropped (harness close()), the reliability suite's races, crashes and dropped connections
 * included. Throws with the tallies and keys that differ.
 */
export async function checkTallies(db: Knex): Promise<void> {
  // One snapshot for every read: a job still committing while the reads run (a tally read before
  // its commit, the rows after) must not read as a difference. SQLite's read transaction is one
  // snapshot already (Knex would only warn that it ignores an isolation level there).
  const sqlite = /sqlite/.test(String(db.client.config.client));
  const wrong = await db.transaction((trx) => differences(trx), sqlite ? {} : { isolationLevel: 'repeatable read' });
  if (wrong.length > 0) throw new Error(`tally differs from COUNT(*): ${wrong.join('; ')}`);
}

async function differences(db: Knex.Transaction): Promise<string[]> {
  const wrong: string[] = [];
  for (const t of TALLIES) {
    const keyOf = (row: Record<string, unknown>) => t.keys.map((k) => String(row[k])).join('/');
    const tallied = (await db(t.tally).select(t.keys).sum({ n: 'live' }).groupBy(t.keys)) as Record<string, unknown>[];
    const counted = (await t.live(db(t.rows)).select(t.keys).count({ n: '*' }).groupBy(t.keys)) as Record<string, unknown>[];
    const byKey = new Map<string, { tally: number; count: number }>();
    for (const r of tallied) byKey.set(keyOf(r), { tally: Number(r.n), count: 0 });
    for (const r of counted) byKey.set(keyOf(r), { tally: byKey.get(keyOf(r))?.tally ?? 0, count: Number(r.n) });
    for (const [key, v] of byKey) if (v.tally !== v.count) wrong.push(`${t.tally} ${t.keys.join('/')} ${key}: tally ${v.tally}, count ${v.count}`);
  }
  return wrong;
}
