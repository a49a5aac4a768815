import type { AdhesionView } from '../../../ports/adhesion-repository';
import type { ProductRepository } from '../../../ports/product-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { type AdhesionProductRef, productToCancel } from '../adhesion-product';

/**
 * POST /adhesions/cancel: the user's adhesion to the product becomes INACTIVE, so its debts are
 * no longer debited automatically (they stay payable through their paymentUrl). Cancelling an
 * INACTIVE adhesion answers it unchanged; a user never enrolled in the product is 404.
 */
export class CancelAdhesion {
  constructor(private readonly deps: { uow: UnitOfWork; products: ProductRepository }) {
    requireDeps('CancelAdhesion', deps);
  }

  async execute(externalClientId: string, ref: AdhesionProductRef, scope: TenantScope): Promise<AdhesionView> {
    const product = await productToCancel(this.deps.products, ref, scope);
    return this.deps.uow.run(async ({ adhesions, events }) => {
      const adhesion = await adhesions.lock(scope.company.id, externalClientId, product.id);
      if (!adhesion) throw new NotFoundError('Adhesion');
      if (adhesion.status === 'INACTIVE') return adhesion;
      const now = scope.clock.now();
      const cancelled = await adhesions.setStatus(scope.company.id, adhesion.id, 'INACTIVE', now);
      await events.append([eventOf(scope, 'adhesion.cancelled', { kind: 'adhesion', adhesion: cancelled }, now)]);
      return cancelled;
    });
  }
}
