import { apiCall, creating, dateInDays, debtorAndProduct, rotatingGet } from './support';
import type { Scenario } from './types';

/**
 * POST /subscriptions, GET /subscriptions/{id} and the subscription lists. The creates leave each
 * subscription's generation job waiting (no worker runs during the scenarios); bench/run.ts
 * drains those jobs before the generation phase, which measures generation on its own.
 */

/** Cycles of each benched subscription: a year of monthly charges (generation is measured apart). */
const CYCLES = 12;

export const subscriptionsCreate = creating('subscriptions.create', 'POST /subscriptions', '/subscriptions', async (ctx) => {
  // The bench debtor and its product by name: the subscription reuses both, as a business's do.
  const { externalClientId } = await debtorAndProduct(ctx);
  return (n) => ({
    externalSubscriptionId: `${ctx.runTag}-sub-${n}`,
    externalClientId,
    productName: `Bench product ${ctx.runTag}`,
    amount: 499.9,
    intervalUnit: 'month',
    intervalCount: 1,
    startDate: dateInDays(1),
    totalCycles: CYCLES,
    description: 'Bench subscription',
  });
});

export const subscriptionsGet = rotatingGet(
  'subscriptions.get', 'GET /subscriptions/{id}', '/subscriptions?limit=500', (s: { subscriptionId: string }) => `/subscriptions/${s.subscriptionId}`,
  'subscriptions.create',
);

/** GET /subscriptions over what the POST scenario left: the default page, and each filter. */
export function subscriptionListScenarios(): Scenario[] {
  const lists: { id: string; label: string; path: (ctx: Parameters<Scenario['load']>[0]) => Promise<string> }[] = [
    { id: 'subscriptions.list', label: 'GET /subscriptions', path: async () => '/subscriptions' },
    { id: 'subscriptions.list.active', label: 'GET /subscriptions?status=ACTIVE', path: async () => '/subscriptions?status=ACTIVE' },
    {
      id: 'subscriptions.list.client',
      label: 'GET /subscriptions?externalClientId',
      path: async (ctx) => `/subscriptions?externalClientId=${encodeURIComponent((await debtorAndProduct(ctx)).externalClientId)}`,
    },
  ];
  return lists.map((list) => ({
    id: list.id,
    label: list.label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    skipInQuick: list.id !== 'subscriptions.list',
    needs: ['subscriptions.create'],
    expectStatus: 200,
    load: async (ctx) => {
      await ctx.db.analyze(['subscriptions']);
      const path = await list.path(ctx);
      const first = await apiCall(ctx, 'GET', path);
      ctx.dataset[`${list.id}.total`] = (first.meta as { total: number }).total;
      return { method: 'GET', path, headers: ctx.headers };
    },
  }));
}
