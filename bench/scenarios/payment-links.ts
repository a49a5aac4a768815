import { apiCall, rotatingGet } from './support';
import type { Scenario } from './types';

/** POST /payment-links, GET /payment-links/{id} and the link lists. */

export const linksCreate: Scenario = {
  id: 'links.create',
  label: 'POST /payment-links',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  load: async (ctx) => {
    // 30 days ahead, RFC 3339 with seconds and Z; each request a new externalPaymentLinkId.
    const expiresAt = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    let n = 0;
    return {
      method: 'POST',
      path: '/payment-links',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: () => ({
        body: JSON.stringify({ externalPaymentLinkId: `${ctx.runTag}-link-${++n}`, amount: 350.75, description: 'Bench payment link', expiresAt }),
      }),
    };
  },
};

export const linksGet = rotatingGet('links.get', 'GET /payment-links/{id}', '/payment-links?limit=500', (l: { paymentLinkId: string }) => `/payment-links/${l.paymentLinkId}`);

/** GET /payment-links over the links the POST scenario left (all ACTIVE). */
export function linkListScenarios(): Scenario[] {
  return [
    { id: 'links.list', label: 'GET /payment-links', path: '/payment-links' },
    { id: 'links.list.active', label: 'GET /payment-links?status=ACTIVE', path: '/payment-links?status=ACTIVE' },
  ].map((list) => ({
    id: list.id,
    label: list.label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    expectStatus: 200,
    load: async (ctx) => {
      await ctx.db.analyze(['payment_links']);
      const first = await apiCall(ctx, 'GET', list.path);
      ctx.dataset[`${list.id}.total`] = (first.meta as { total: number }).total;
      return { method: 'GET', path: list.path, headers: ctx.headers };
    },
  }));
}
