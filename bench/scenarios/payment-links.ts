import { apiCall, creating, dateInDays, rotatingGet } from './support';
import type { Scenario } from './types';

/** POST /payment-links, GET /payment-links/{id} and the link lists. */

export const linksCreate = creating('links.create', 'POST /payment-links', '/payment-links', async (ctx) => {
  // 30 days ahead, RFC 3339 with seconds and Z; each request a new externalPaymentLinkId.
  const expiresAt = new Date(Date.now() + 30 * 24 * 60 * 60 * 1000).toISOString().replace(/\.\d{3}Z$/, 'Z');
  return (n) => ({ externalPaymentLinkId: `${ctx.runTag}-link-${n}`, amount: 350.75, description: 'Bench payment link', expiresAt });
});

export const linksGet = rotatingGet('links.get', 'GET /payment-links/{id}', '/payment-links?limit=500', (l: { paymentLinkId: string }) => `/payment-links/${l.paymentLinkId}`, 'links.create');

/** GET /payment-links over the links the POST scenario left (all ACTIVE): the default page and each filter. */
export function linkListScenarios(): Scenario[] {
  const lists: { id: string; label: string; path: (newest: { paymentLinkId: string; externalPaymentLinkId: string; debtId: string }) => string }[] = [
    { id: 'links.list', label: 'GET /payment-links', path: () => '/payment-links' },
    { id: 'links.list.active', label: 'GET /payment-links?status=ACTIVE', path: () => '/payment-links?status=ACTIVE' },
    {
      id: 'links.list.external',
      label: 'GET /payment-links?externalPaymentLinkId',
      path: (newest) => `/payment-links?externalPaymentLinkId=${encodeURIComponent(newest.externalPaymentLinkId)}`,
    },
    { id: 'links.list.debt', label: 'GET /payment-links?debtId', path: (newest) => `/payment-links?debtId=${encodeURIComponent(newest.debtId)}` },
    {
      id: 'links.list.created',
      label: 'GET /payment-links?createdAtFrom&createdAtTo',
      // The last day's links: every link the bench made.
      path: () => `/payment-links?createdAtFrom=${dateInDays(-1)}&createdAtTo=${dateInDays(1)}`,
    },
  ];
  return lists.map((list) => ({
    id: list.id,
    label: list.label,
    service: 'api',
    kind: 'api',
    baseline: 'baseline.koa-json',
    skipInQuick: list.id !== 'links.list' && list.id !== 'links.list.active',
    needs: ['links.create'],
    expectStatus: 200,
    load: async (ctx) => {
      await ctx.db.analyze(['payment_links']);
      const newest = (await apiCall(ctx, 'GET', '/payment-links?limit=1')).data as { paymentLinkId: string; externalPaymentLinkId: string; debtId: string }[];
      if (!newest[0]) throw new Error('GET /payment-links returned no link to filter on');
      const path = list.path(newest[0]);
      const first = await apiCall(ctx, 'GET', path);
      ctx.dataset[`${list.id}.total`] = (first.meta as { total: number }).total;
      return { method: 'GET', path, headers: ctx.headers };
    },
  }));
}
