import { apiCall } from './support';
import type { Scenario } from './types';

/**
 * GET /events, the default page, over every event the scenarios before it left for the demo
 * company (one per contact, product, debt and link created): an unfiltered list whose exact total
 * grows with every write (the event tally, adapters/persistence/knex/tallies.ts).
 */
export const eventsList: Scenario = {
  id: 'events.list',
  label: 'GET /events',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-json',
  expectStatus: 200,
  load: async (ctx) => {
    await ctx.db.analyze(['events']);
    const first = await apiCall(ctx, 'GET', '/events');
    ctx.dataset['events.list.total'] = (first.meta as { total: number }).total;
    return { method: 'GET', path: '/events', headers: ctx.headers };
  },
};
