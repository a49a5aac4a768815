import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findActiveProduct } from '../queries/get-product';
import type { Product } from '../product';

/** DELETE /products/{id}: soft delete, with product.deleted; a product already inactive is not found. */
export class DeleteProduct {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('DeleteProduct', deps);
  }

  execute(id: string, scope: TenantScope): Promise<Product> {
    return this.deps.uow.run(async ({ products, events }) => {
      const product = await findActiveProduct(products, id, scope);
      // Conditional on the product still being active, so of two racing deletes one gets 404.
      if (!(await products.deactivate(scope.company.id, product.id))) throw new NotFoundError('Product');
      const deleted = { ...product, active: false };
      await events.append([eventOf(scope, 'product.deleted', { kind: 'product', product: deleted })]);
      return deleted;
    });
  }
}
