import type { ProductRepository } from '../../../ports/product-repository';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findActiveProduct } from '../queries/get-product';
import type { Product } from '../product';

/** DELETE /products/{id}: soft delete; a product already inactive is not found. */
export class DeleteProduct {
  constructor(private readonly deps: { products: ProductRepository }) {
    requireDeps('DeleteProduct', deps);
  }

  async execute(id: string, scope: TenantScope): Promise<Product> {
    const product = await findActiveProduct(this.deps.products, id, scope);
    // Conditional on the product still being active, so of two racing deletes one gets 404.
    if (!(await this.deps.products.deactivate(scope.company.id, product.id))) throw new NotFoundError('Product');
    return { ...product, active: false };
  }
}
