import { uniqueContactBodies } from './support';
import type { Scenario } from './types';

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
 * The floor of a single debt create (issue 19): koa-debts (bench/baselines/koa-debts.ts) writes
 * what POST /v2/debts writes, grouped the same way, with nothing else. Its tenant is one of its own
 * (an organization, company, contact and product made here), so the demo company's lists and
 * tallies are the API's alone. Measured right before POST /v2/debts, with koa-insert just before it.
 */
export const baselineKoaDebts: Scenario = {
  id: 'baseline.koa-debts',
  label: 'POST / (Koa + Knex + the grouped debt write)',
  service: 'koa-debts',
  kind: 'baseline',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  skipInQuick: true,
  onlyFor: ['debts.create', 'debts.legacy.create'],
  load: async (ctx) => {
    const tag = `${ctx.runTag}-floor`;
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
    const body = JSON.stringify({
      organizationId: Number(org!.id),
      companyId: Number(company!.id),
      externalClientId: tag,
      productId: Number(product!.id),
      amount: 1250.5,
      dueDate: '2099-12-31',
      description: 'Bench debt',
    });
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
