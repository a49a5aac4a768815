import type { Knex } from 'knex';
import { openKnex } from '../../adapters/persistence/knex/connection';
import { KnexDebtRepository } from '../../adapters/persistence/knex/knex-debt-repository';
import { KnexTenancyRepository } from '../../adapters/persistence/knex/knex-tenancy-repository';
import { SystemClock } from '../../adapters/clock/system-clock';
import { type ListDebtsInput, ListDebts } from '../../internal/debts/queries/list-debts';
import type { TenantScope } from '../../internal/shared/tenant-scope';
import { benchDialect } from './environment';
import { percentile, round } from './load';

/**
 * The SQL a GET /debts request runs, captured by running the API's own code (the ListDebts use
 * case over the Knex repositories, as cmd/api wires them) against the bench database with
 * Knex's `query` event, then for each statement: the plan (MariaDB `ANALYZE`, which runs the
 * statement and adds the rows actually read, r_rows; plain `EXPLAIN` on MySQL; PostgreSQL
 * `EXPLAIN (ANALYZE, BUFFERS)`, one row per line of its text, see BenchDialect.explain) and its time
 * run alone on one connection, so that the database's share of a list request shows apart
 * from the HTTP figures taken under load.
 */
export interface StatementPlan {
  /** The statement with its bindings inlined, as the server receives it. */
  sql: string;
  plan: Record<string, unknown>[];
  runs: number;
  p50Ms: number;
  p99Ms: number;
}

export interface ListPlan {
  id: string;
  path: string;
  /** meta.total of the first page: how many debts match. */
  total: number;
  statements: StatementPlan[];
}

export interface ListToExplain {
  id: string;
  path: string;
  input: ListDebtsInput;
}

export async function explainDebtLists(
  databaseUrl: string,
  companyCode: string,
  lists: ListToExplain[],
  runs: number,
  budgetMs: number,
): Promise<ListPlan[]> {
  const knex = openKnex(databaseUrl, { poolMax: 2 });
  const dialect = benchDialect(databaseUrl);
  const conn = await dialect.connect(databaseUrl);
  try {
    for (const statement of dialect.sessionSetup) await conn.query(statement);
    const tenancy = new KnexTenancyRepository(knex);
    const company = await tenancy.findCompanyByCode(companyCode);
    if (!company) throw new Error(`no company ${companyCode} in the bench database`);
    const scope: TenantScope = {
      organizationId: company.organizationId,
      organizationName: '',
      clientUserId: 0,
      company,
      clock: new SystemClock(),
      requestId: null,
    };
    const listDebts = new ListDebts({ debts: new KnexDebtRepository(knex) });
    let captured: { sql: string; bindings: readonly unknown[] }[] = [];
    knex.on('query', (query: { sql: string; bindings?: readonly unknown[] }) => captured.push({ sql: query.sql, bindings: query.bindings ?? [] }));

    const plans: ListPlan[] = [];
    for (const list of lists) {
      captured = [];
      const page = await listDebts.execute(list.input, { page: 1, limit: 50 }, scope);
      const statements: StatementPlan[] = [];
      for (const query of captured) {
        const sql = inlined(knex, query.sql, query.bindings);
        const plan = await dialect.explain(conn, sql);
        for (let i = 0; i < 2; i++) await conn.query(sql);
        // `runs` times, or fewer (at least 5) when a slow statement would exceed the budget.
        const times: number[] = [];
        const deadline = Date.now() + budgetMs;
        while (times.length < runs && (times.length < 5 || Date.now() < deadline)) {
          const t0 = process.hrtime.bigint();
          await conn.query(sql);
          times.push(Number(process.hrtime.bigint() - t0) / 1e6);
        }
        times.sort((a, b) => a - b);
        statements.push({
          sql,
          plan,
          runs: times.length,
          p50Ms: round(percentile(times, 0.5), 2),
          p99Ms: round(percentile(times, 0.99), 2),
        });
      }
      plans.push({ id: list.id, path: list.path, total: page.total, statements });
    }
    return plans;
  } finally {
    await conn.end();
    await knex.destroy();
  }
}

/**
 * The statement with its bindings inlined as literals. Knex's `query` event gives the SQL as the
 * driver receives it: `?` placeholders for mysql2, `$1, $2, …` for node-postgres.
 */
function inlined(knex: Knex, sql: string, bindings: readonly unknown[]): string {
  const literal = (value: unknown) => knex.raw('?', [value as Knex.Value]).toQuery();
  if (/\$\d/.test(sql)) return sql.replace(/\$(\d+)/g, (_, n: string) => literal(bindings[Number(n) - 1]));
  return knex.raw(sql, bindings as Parameters<typeof knex.raw>[1]).toQuery();
}
