import { rotatingGet } from './support';
import type { Scenario } from './types';

/** POST /products and GET /products/{id}. */

export const productsCreate: Scenario = {
  id: 'products.create',
  label: 'POST /products',
  service: 'api',
  kind: 'api',
  baseline: 'baseline.koa-insert',
  expectStatus: 201,
  load: async (ctx) => {
    let n = 0;
    return {
      method: 'POST',
      path: '/products',
      headers: { ...ctx.headers, 'content-type': 'application/json' },
      vary: () => ({ body: JSON.stringify({ name: `Bench product ${ctx.runTag} ${++n}`, externalProductId: `SKU-${ctx.runTag}-${n}` }) }),
    };
  },
};

export const productsGet = rotatingGet('products.get', 'GET /products/{id}', '/products?limit=500', (p: { productId: string }) => `/products/${p.productId}`);
