import { apiCall, dateInDays, uniqueContactBodies } from './support';
import { type RecordedStatement, recordedStatements } from '../lib/profile';
import { CREATE_FLOORS, isIssue19List, LIST_FLOOR_SERVICE, listFloorId } from '../lib/targets';
import type { Context, Scenario } from './types';

/** The lean baselines every API scenario is compared with: bare Koa, Koa + 1 INSERT, Koa + 1 SELECT. */

export const baselineKoaJson: Scenario = {
  id: 'baseline.koa-json',
  label: 'GET / (bare Koa JSON)',
  service: 'koa-json',
  kind: 'baseline',
  load: async () => ({ method: 'GET', path: '/' }),
};

export const baselineKoaInsert: Scenario = {
  id: 'baseline.koa-insert',
  label: 'POST / (Koa + 1 INSERT)',
  service: 'koa-insert',
  kind: 'baseline',
  load: async (ctx) => ({
    method: 'POST',
    path: '/',
    headers: { 'content-type': 'application/json' },
    vary: uniqueContactBodies(`${ctx.runTag}-baseline`),
  }),
};

export const baselineKoaSelect: Scenario = {
  id: 'baseline.koa-select',
  label: 'GET /{id} (Koa + 1 SELECT)',
  service: 'koa-insert',
  kind: 'baseline',
  baseline: 'baseline.koa-json',
  expectStatus: 200,
  load: async (ctx) => {
    // 500 rows of its own, read back by primary key in turn.
    const tag = `${ctx.runTag}-select`;
    const rows = Array.from({ length: 500 }, (_, i) => [`${tag}-${i}`, `Select ${i}`, `select-${i}@example.com`, '{}', Date.now()]);
    await ctx.db.insertRows('bench_baseline_insert', ['external_id', 'name', 'email', 'payload', 'created_at'], rows);
    const ids = (await ctx.db.query<{ id: number | string }>('SELECT id FROM bench_baseline_insert WHERE external_id LIKE ? ORDER BY id', [`${tag}-%`])).map((r) => Number(r.id));
    let i = 0;
    return { method: 'GET', path: `/${ids[0]}`, vary: () => ({ path: `/${ids[i++ % ids.length]}` }) };
  },
};

/**
 * A floor's own tenant (an organization and company, with a contact and a product), so that the
 * demo company's lists and tallies stay the API's alone.
 */
async function floorTenant(ctx: Context, tag: string): Promise<{ organizationId: number; companyId: number; productId: number }> {
  await ctx.db.insertRows('organizations', ['name', 'created_at'], [[tag, Date.now()]]);
  const [org] = await ctx.db.query<{ id: number | string }>('SELECT id FROM organizations WHERE name = ?', [tag]);
  await ctx.db.insertRows('companies', ['organization_id', 'code', 'name'], [[Number(org!.id), tag.toUpperCase(), tag]]);
  const [company] = await ctx.db.query<{ id: number | string }>('SELECT id FROM companies WHERE code = ?', [tag.toUpperCase()]);
  await ctx.db.insertRows(
    'contacts',
    ['organization_id', 'code', 'external_client_id', 'name', 'name_search', 'email', 'phones', 'created_at', 'updated_at'],
    [[Number(org!.id), tag, tag, 'Bench Debtor', 'bench debtor', `${tag}@example.com`, '[]', Date.now(), Date.now()]],
  );
  await ctx.db.insertRows('products', ['organization_id', 'company_id', 'name'], [[Number(org!.id), Number(company!.id), `Bench product ${tag}`]]);
  const [product] = await ctx.db.query<{ id: number | string }>('SELECT id FROM products WHERE company_id = ?', [Number(company!.id)]);
  return { organizationId: Number(org!.id), companyId: Number(company!.id), productId: Number(product!.id) };
}

/**
 * A create's floor (issue 19, CREATE_FLOORS in bench/lib/targets.ts): `service` writes what its
 * creates write, grouped the same way, with nothing else, on a tenant of its own. Measured right
 * before the first of its creates, with koa-insert just before it; each request a new
 * Idempotency-Key, the create's own key.
 */
function createFloor(id: string, label: string, bodyOf: (tenant: Awaited<ReturnType<typeof floorTenant>>, tag: string) => unknown): Scenario {
  const { service, creates } = CREATE_FLOORS.find((f) => f.id === id)!;
  return {
    id,
    label,
    service,
    kind: 'baseline',
    baseline: 'baseline.koa-insert',
    expectStatus: 201,
    skipInQuick: true,
    onlyFor: creates,
    load: async (ctx) => {
      // Short: it is also the contact's code (32 characters at most).
      const tag = `${ctx.runTag}-${service.replace(/^koa-/, '')}`;
      const body = JSON.stringify(bodyOf(await floorTenant(ctx, tag), tag));
      let n = 0;
      return {
        method: 'POST',
        path: '/',
        headers: { 'content-type': 'application/json' },
        body,
        vary: () => ({ headers: { 'idempotency-key': `${tag}-${++n}` } }),
      };
    },
  };
}

/** The floor of a single debt create: bench/baselines/koa-debts.ts, right before POST /v2/debts. */
export const baselineKoaDebts = createFloor('baseline.koa-debts', 'POST / (Koa + Knex + the grouped debt write)', (tenant, tag) => ({
  ...tenant,
  externalClientId: tag,
  amount: 1250.5,
  dueDate: '2099-12-31',
  description: 'Bench debt',
}));

/** The floor of a payment link create: bench/baselines/koa-links.ts, right before POST /payment-links (its body). */
export const baselineKoaLinks = createFloor('baseline.koa-links', 'POST / (Koa + Knex + the grouped link write)', ({ organizationId, companyId }) => ({
  organizationId,
  companyId,
  amount: 350.75,
  description: 'Bench payment link',
  expiresAt: new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z'),
}));

/** The floor of a subscription create: bench/baselines/koa-subscriptions.ts, right before POST /subscriptions (its body). */
export const baselineKoaSubscriptions = createFloor('baseline.koa-subscriptions', 'POST / (Koa + Knex + the grouped subscription write)', (tenant, tag) => ({
  organizationId: tenant.organizationId,
  companyId: tenant.companyId,
  externalClientId: tag,
  productName: `Bench product ${tag}`,
  amount: 499.9,
  startDate: dateInDays(1),
  totalCycles: 12,
  description: 'Bench subscription',
}));

/**
 * A list's floor (issue 19, listFloorId in bench/lib/targets.ts): the statements one API request of
 * the list runs (statementsOf), replayed by bench/baselines/koa-page.ts at the list's connections,
 * their rows answered as JSON and nothing else. Measured right before the list.
 */
function listFloor(list: Scenario): Scenario {
  const id = listFloorId(list.id);
  return {
    id,
    label: `${list.label}: its statements and rows alone (Koa + Knex)`,
    service: LIST_FLOOR_SERVICE,
    kind: 'baseline',
    baseline: 'baseline.koa-json',
    connections: list.connections,
    expectStatus: 200,
    skipInQuick: true,
    onlyFor: [list.id],
    load: async (ctx) => {
      const { path } = await list.load(ctx);
      const statements = await statementsOf(ctx, list.id, path);
      ctx.dataset[`${id}.statements`] = statements.length;
      const floor = ctx.services.get(LIST_FLOOR_SERVICE)!;
      const set = await fetch(`http://127.0.0.1:${floor.port}/${encodeURIComponent(list.id)}`, { method: 'PUT', body: JSON.stringify(statements) });
      if (set.status !== 204) throw new Error(`${LIST_FLOOR_SERVICE} refused the statements of ${list.id}: ${set.status}`);
      return { method: 'GET', path: `/${encodeURIComponent(list.id)}` };
    },
  };
}

/**
 * The statements of one GET of `path`, recorded in the API process (`name`, a scenario id, names
 * the probe's files): the same reads in two requests, after a first that warms the credentials'
 * cache, so that a statement of the API's own background work is not taken for the list's. That
 * work is the outbox's dispatch (a read every 2 s, in the API process too, and its marks after the
 * creates before); a request and its probe's signals take long enough on a busy host that one
 * recording in several catches it. Until 2026-12-06 the two had to be in a row, within five: a full
 * run failed at `GET /debts?batchId` with no two clean recordings next to each other. Now any two
 * of up to ten that ran the same reads.
 */
async function statementsOf(ctx: Context, name: string, path: string): Promise<RecordedStatement[]> {
  const pid = ctx.services.get('api')!.serverPid;
  const sqlOf = (statements: RecordedStatement[]) => JSON.stringify(statements.map((s) => s.sql));
  await apiCall(ctx, 'GET', path);
  const seen = new Set<string>();
  const recorded: string[] = [];
  for (let attempt = 0; attempt < 10; attempt++) {
    const statements = await recordedStatements(pid, name, () => apiCall(ctx, 'GET', path));
    const reads = statements.length > 0 && statements.every((s) => /^\s*select\b/i.test(s.sql) && !/\bfor (update|share)\b/i.test(s.sql));
    const sql = sqlOf(statements);
    if (reads && seen.has(sql)) return statements;
    if (reads) seen.add(sql);
    recorded.push(sql);
  }
  throw new Error(`GET ${path}: no two of ten requests ran the same reads (recorded: ${recorded.join(' | ')})`);
}

/** `scenarios` with each issue-19 list's floor right before it. */
export function withListFloors(scenarios: Scenario[]): Scenario[] {
  return scenarios.flatMap((s) => (s.kind === 'api' && isIssue19List(s.id) ? [listFloor(s), s] : [s]));
}
