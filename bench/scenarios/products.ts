import { creating, rotatingGet } from './support';

/** POST /products and GET /products/{id}. */

export const productsCreate = creating('products.create', 'POST /products', '/products', async (ctx) => (n) => ({
  name: `Bench product ${ctx.runTag} ${n}`,
  externalProductId: `SKU-${ctx.runTag}-${n}`,
}));

export const productsGet = rotatingGet('products.get', 'GET /products/{id}', '/products?limit=500', (p: { productId: string }) => `/products/${p.productId}`, 'products.create');
