import type { ProductRepository } from '../../../ports/product-repository';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type Product, productNumberFromId } from '../product';

/** GET /products/{id}: inactive products are unreachable (404). */
export class GetProduct {
  constructor(private readonly deps: { products: ProductRepository }) {
    requireDeps('GetProduct', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<Product> {
    return findActiveProduct(this.deps.products, id, scope);
  }
}

export async function findActiveProduct(products: ProductRepository, id: string, scope: TenantScope): Promise<Product> {
  const number = productNumberFromId(id);
  const product = number === null ? null : await products.findById(scope.company.id, number);
  if (!product || !product.active) throw new NotFoundError('Product');
  return product;
}
