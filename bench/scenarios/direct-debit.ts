import { debtorAndProduct } from './support';
import type { Scenario } from './types';

/** POST /adhesions and the registration of a payment method (what the hosted enrollment page does). */

export const adhesionsCreate: Scenario = {
  id: 'adhesions.create',
  label: 'POST /adhesions',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  // Every request a new user of the bench product: each one a created adhesion, never the 200 of an ACTIVE one.
  expectStatus: 201,
  load: async (ctx) => {
    const { productId } = await debtorAndProduct(ctx);
    let n = 0;
    return {
      method: 'POST',
      path: '/adhesions',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: () => ({ body: JSON.stringify({ externalClientId: `${clientTag(ctx.runTag)}-adh-${++n}`, productId }) }),
    };
  },
};

/**
 * POST /test-helpers/payment-methods: the sandbox door to the same use case as the enrollment
 * page's form (RegisterPaymentMethod), one new user per request (the first method is the default).
 */
export const paymentMethodsCreate: Scenario = {
  id: 'payment-methods.create',
  label: 'POST /test-helpers/payment-methods',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  load: async (ctx) => {
    let n = 0;
    return {
      method: 'POST',
      path: '/test-helpers/payment-methods',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: () => ({ body: JSON.stringify({ externalClientId: `${clientTag(ctx.runTag)}-pm-${++n}`, paymentMethodType: 'BANK_ACCOUNT' }) }),
    };
  },
};

/** The run's tag as an externalClientId may hold it (letters, digits, _ and -: the memory passes' tags have a dot). */
function clientTag(runTag: string): string {
  return runTag.replace(/[^A-Za-z0-9_-]/g, '-');
}
