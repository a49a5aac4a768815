import type { ProductRepository } from '../../../ports/product-repository';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { Product } from '../product';

export interface ListProductsInput {
  name?: string;
  active?: boolean;
}

/** GET /products: active products of the company, by productId descending. */
export class ListProducts {
  constructor(private readonly deps: { products: ProductRepository }) {
    requireDeps('ListProducts', deps);
  }

  async execute(input: ListProductsInput, page: PageRequest, scope: TenantScope): Promise<Page<Product>> {
    // Inactive products are never listed, so asking for them finds nothing.
    if (input.active === false) return { items: [], total: 0, capped: false };
    return this.deps.products.listActive(scope.company.id, { name: input.name?.trim() }, page);
  }
}
