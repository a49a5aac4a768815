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
