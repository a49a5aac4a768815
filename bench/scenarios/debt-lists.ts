import type { DebtStatus } from '../../internal/debts/debt';
import type { ListDebtsInput } from '../../internal/debts/queries/list-debts';
import { centsFromAmount } from '../../internal/shared/money';
import { explainDebtLists } from '../lib/plans';
import { type SeedPlan, type SeedResult, seedDebts } from '../lib/seed';
import { apiCall, log } from './support';
import type { Context, Scenario } from './types';

/**
 * Connections of the GET /debts scenarios. A list costs the API's single Node thread a few ms
 * of CPU and waits on MariaDB meanwhile: 4 in flight keep that thread busy (req/s near its
 * maximum) while p50/p99 still show a request's own cost rather than a queue of 32.
 */
export const LIST_CONNECTIONS = 4;

/** The GET /debts scenarios: one filter each, on the demo company of the seeded table. */
interface DebtList {
  id: string;
  label: string;
  query(probe: SeedResult['probe']): Record<string, string>;
}

const DEBT_LISTS: DebtList[] = [
  { id: 'debts.list', label: 'GET /debts', query: () => ({}) },
  { id: 'debts.list.overdue', label: 'GET /debts?status=OVERDUE', query: () => ({ status: 'OVERDUE' }) },
  {
    id: 'debts.list.created',
    label: 'GET /debts?createdAtFrom&createdAtTo',
    query: (p) => ({ createdAtFrom: p.createdAtFrom, createdAtTo: p.createdAtTo }),
  },
  {
    id: 'debts.list.amount',
    label: 'GET /debts?minAmount&maxAmount',
    query: (p) => ({ minAmount: String(p.minAmount), maxAmount: String(p.maxAmount) }),
  },
  { id: 'debts.list.client', label: 'GET /debts?externalClientId', query: (p) => ({ externalClientId: p.externalClientId }) },
  { id: 'debts.list.batch', label: 'GET /debts?batchId', query: (p) => ({ batchId: p.batchId }) },
];

/**
 * Each list at 4 connections (issue 9's measure: a request's own cost), then each again at 32
 * (issue 19's: every list's p99 under the load the other scenarios run at). The ids of the second
 * set end in `@32`.
 */
export function debtListScenarios(): Scenario[] {
  const at = (connections: number) => (list: DebtList): Scenario => ({
    id: connections === LIST_CONNECTIONS ? list.id : `${list.id}@${connections}`,
    label: list.label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    connections,
    skipInQuick: connections !== LIST_CONNECTIONS,
    expectStatus: 200,
    load: async (ctx) => {
      const seed = await seeded(ctx);
      const path = debtListPath(list.query(seed.probe));
      const first = await apiCall(ctx, 'GET', path);
      ctx.dataset[`${list.id}.total`] = (first.meta as { total: number }).total;
      return { method: 'GET', path, headers: ctx.headers };
    },
  });
  return [...DEBT_LISTS.map(at(LIST_CONNECTIONS)), ...DEBT_LISTS.map(at(32))];
}

function debtListPath(query: Record<string, string>): string {
  const search = new URLSearchParams(query).toString();
  return search ? `/debts?${search}` : '/debts';
}

/** The use case's input for a GET /debts query, converted as adapters/http/routes/debts.routes.ts does. */
function listInput(query: Record<string, string>): ListDebtsInput {
  const cents = (field: 'minAmount' | 'maxAmount') =>
    query[field] === undefined ? undefined : centsFromAmount(Number(query[field]), field, 0);
  return {
    status: query.status as DebtStatus | undefined,
    createdAtFrom: query.createdAtFrom,
    createdAtTo: query.createdAtTo,
    minAmountCents: cents('minAmount'),
    maxAmountCents: cents('maxAmount'),
    externalClientId: query.externalClientId,
    batchId: query.batchId,
  };
}

/** The seeded table and its list plans, made once (by the first GET /debts scenario). */
export async function seeded(ctx: Context): Promise<SeedResult> {
  if (ctx.seed) return ctx.seed;
  const plan: SeedPlan = ctx.options.quick
    ? { organizations: 100, contactsPerOrganization: 20, debts: 20_000, demoDebts: 5_000, batchShare: 0.2, rowsPerInsert: 5_000, deferIndexes: true }
    : { organizations: 100, contactsPerOrganization: 1_000, debts: 1_000_000, demoDebts: 50_000, batchShare: 0.2, rowsPerInsert: 5_000, deferIndexes: true };
  log(`seeding ${plan.debts} debts (${plan.demoDebts} for the demo company) directly into ${ctx.db.name} …`);
  const seed = await seedDebts(ctx.db.url, plan, Date.now(), log);
  log(
    `  ${seed.debts} debts, ${seed.contacts} contacts, ${seed.companies} companies in ${seed.seconds} s (${seed.debtsPerSecond} debts/s` +
      `${seed.indexSeconds === null ? '' : `, ${seed.indexSeconds} s of it building the indexes`})`,
  );
  const lists = DEBT_LISTS.map((list) => {
    const query = list.query(seed.probe);
    return { id: list.id, path: debtListPath(query), input: listInput(query) };
  });
  log('capturing, explaining and timing the GET /debts statements …');
  ctx.lists = await explainDebtLists(ctx.db.url, ctx.companyCode, lists, ctx.options.quick ? 5 : 50, ctx.options.quick ? 300 : 4_000);
  for (const list of ctx.lists) {
    log(`  ${list.path}: ${list.total} matches; ${list.statements.map((s) => `${s.p50Ms}/${s.p99Ms} ms`).join(', ')} (p50/p99 of each statement alone)`);
  }
  ctx.seed = seed;
  return seed;
}
