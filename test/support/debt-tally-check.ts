import type { Knex } from 'knex';

/**
 * The debt tally (adapters/persistence/knex/debt-tally.ts) must equal COUNT(*) of every company's
 * live debts whatever happened to the database: every suite's API checks it before its database
 * is dropped (harness close()), the reliability suite's races, crashes and dropped connections
 * included. Throws with the companies that differ.
 */
export async function checkDebtTallies(db: Knex): Promise<void> {
  type Sum = { company_id: number; n: number | string };
  const tallied = (await db('debt_tallies').select('company_id').sum({ n: 'live' }).groupBy('company_id')) as Sum[];
  const counted = (await db('debts').whereNot('status', 'CANCELLED').select('company_id').count({ n: '*' }).groupBy('company_id')) as Sum[];
  const byCompany = new Map<number, { tally: number; count: number }>();
  for (const r of tallied) byCompany.set(Number(r.company_id), { tally: Number(r.n), count: 0 });
  for (const r of counted) byCompany.set(Number(r.company_id), { tally: byCompany.get(Number(r.company_id))?.tally ?? 0, count: Number(r.n) });
  const wrong = [...byCompany].filter(([, v]) => v.tally !== v.count);
  if (wrong.length > 0) {
    throw new Error(`debt tally differs from COUNT(*): ${wrong.map(([company, v]) => `company ${company} tally ${v.tally}, count ${v.count}`).join('; ')}`);
  }
}
