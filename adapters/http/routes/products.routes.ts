import type { Application } from '../../../internal/application';
import type { CreateProductInput } from '../../../internal/products/commands/create-product';
import type { UpdateProductInput } from '../../../internal/products/commands/update-product';
import type { PageRequest } from '../../../internal/shared/page';
import { pageMeta } from '../presenters/page.presenter';
import { presentProduct } from '../presenters/product.presenter';
import { route } from '../route';
import { createProductBody, listProductsQuery, productSchema, updateProductBody } from '../schemas/product.schemas';

/** /products → internal/products/{commands,queries}. */
export function productRoutes(app: Application) {
  const { createProduct, updateProduct, deleteProduct } = app.commands;
  const { getProduct, listProducts } = app.queries;
  return [
    route<CreateProductInput>({
      method: 'post', path: '/products', operationId: 'createProduct', tag: 'Products', summary: 'Create a product, or return the active one with that name',
      description: 'A name unique per company. When an active product has the name, it is returned (201) unless it has a different externalProductId (409); a name held by an inactive product is 409.',
      idempotent: true,
      auth: 'facade', body: createProductBody, response: productSchema, status: 201, errors: [400, 401, 409],
      handle: async ({ body, scope }) => ({ data: presentProduct(await createProduct.execute(body, scope)) }),
    }),
    route<unknown, { name?: string; active?: 'true' | 'false' } & PageRequest>({
      method: 'get', path: '/products', operationId: 'listProducts', tag: 'Products', summary: 'List active products, newest productId first',
      description: 'Active products only, newest first.',
      auth: 'facade', query: listProductsQuery, response: productSchema, list: 'page', errors: [400, 401],
      handle: async ({ query, scope }) => {
        const { page, limit, name, active } = query;
        const result = await listProducts.execute({ name, active: active === undefined ? undefined : active === 'true' }, { page, limit }, scope);
        return { data: result.items.map(presentProduct), meta: pageMeta({ page, limit }, result) };
      },
    }),
    route({
      method: 'get', path: '/products/:id', operationId: 'getProduct', tag: 'Products', summary: 'Retrieve an active product (prd_ prefix optional)',
      description: 'By productId or its bare number; other prefixes, non-numeric values and inactive products are 404.',
      params: { id: 'The productId (`prd_12`) or its number (`12`)' },
      auth: 'facade', response: productSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentProduct(await getProduct.execute(params.id!, scope)) }),
    }),
    route<UpdateProductInput>({
      method: 'patch', path: '/products/:id', operationId: 'updateProduct', tag: 'Products', summary: 'Rename or deactivate a product',
      description: 'Only name and active, at least one. A name another product holds is 409. updatedAt does not move (known limitation).',
      params: { id: 'The productId (`prd_12`) or its number (`12`)' },
      idempotent: true,
      auth: 'facade', body: updateProductBody, response: productSchema, errors: [400, 401, 404, 409],
      handle: async ({ params, body, scope }) => ({ data: presentProduct(await updateProduct.execute(params.id!, body, scope)) }),
    }),
    route({
      method: 'delete', path: '/products/:id', operationId: 'deleteProduct', tag: 'Products', summary: 'Deactivate a product (soft delete)',
      description: 'Answers the product with `active: false`; its name stays taken. A second DELETE is 404 (inactive products are not found).',
      idempotent: false,
      params: { id: 'The productId (`prd_12`) or its number (`12`)' },
      auth: 'facade', response: productSchema, errors: [401, 404],
      handle: async ({ params, scope }) => ({ data: presentProduct(await deleteProduct.execute(params.id!, scope)) }),
    }),
  ];
}
