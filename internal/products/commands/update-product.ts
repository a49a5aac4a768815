import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findActiveProduct } from '../queries/get-product';
import { normalizeProductName, type Product } from '../product';

export interface UpdateProductInput {
  name?: string;
  /** false deactivates; true changes nothing (an inactive product cannot come back). */
  active?: boolean;
}

/**
 * PATCH /products/{id}, with one product.updated event when something changed (a rename, a
 * deactivation, or both). `updatedAt` is deliberately left as it was: the specification lists
 * "updatedAt does not reflect changes made with PATCH" as a known limitation clients rely on.
 */
export class UpdateProduct {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('UpdateProduct', deps);
  }

  execute(id: string, input: UpdateProductInput, scope: TenantScope): Promise<Product> {
    return this.deps.uow.run(async ({ products, events }) => {
      let product = await findActiveProduct(products, id, scope);
      let changed = false;
      if (input.name !== undefined) {
        const name = normalizeProductName(input.name);
        if (name !== product.name) {
          const holder = await products.findByName(scope.company.id, name);
          if (holder) throw new ConflictError(`The product name ${name} is taken`);
          product = await products.rename(scope.company.id, product.id, name);
          changed = true;
        }
      }
      if (input.active === false) {
        await products.deactivate(scope.company.id, product.id);
        product = { ...product, active: false };
        changed = true;
      }
      if (changed) await events.append([eventOf(scope, 'product.updated', { kind: 'product', product })]);
      return product;
    });
  }
}
