import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { normalizeExternalProductId, normalizeProductName, type Product } from '../product';

export interface CreateProductInput {
  name: string;
  externalProductId?: string | null;
  active?: boolean;
}

/**
 * POST /products: creates the product, or returns the active product that already has the name
 * (its stored values win). The name stays taken by inactive products; an externalProductId
 * belongs to one product only. A product it creates has its product.created event in the same
 * transaction; returning the stored one writes nothing.
 */
export class CreateProduct {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories }) {
    requireDeps('CreateProduct', deps);
  }

  async execute(input: CreateProductInput, scope: TenantScope): Promise<Product> {
    const name = normalizeProductName(input.name);
    const externalProductId =
      input.externalProductId == null ? null : normalizeExternalProductId(input.externalProductId);
    try {
      return await this.createOrReturn(name, externalProductId, input.active ?? true, scope);
    } catch (error) {
      // A concurrent request inserted the same name or external id between our read and our
      // insert: read again, which now resolves to the stored product or a genuine conflict.
      if (!(error instanceof ConflictError)) throw error;
      return this.createOrReturn(name, externalProductId, input.active ?? true, scope);
    }
  }

  private async createOrReturn(
    name: string,
    externalProductId: string | null,
    active: boolean,
    scope: TenantScope,
  ): Promise<Product> {
    const companyId = scope.company.id;
    const { byName: existing, byExternalProductId: owner } = await this.deps.repos.products.findNameAndKeyHolders(companyId, name, externalProductId);
    if (existing && !existing.active) {
      throw new ConflictError(`The product name ${name} is taken by an inactive product`);
    }
    if (existing?.externalProductId && externalProductId && existing.externalProductId !== externalProductId) {
      throw new ConflictError(`The product ${name} exists with a different externalProductId`);
    }
    if (owner && owner.id !== existing?.id) {
      throw new ConflictError(`The externalProductId ${externalProductId} belongs to another product`);
    }
    if (existing) return existing;
    return this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
      const now = scope.clock.now();
      const product = await tx.products.insert({
        organizationId: scope.organizationId,
        companyId,
        name,
        externalProductId,
        active,
        createdAt: active ? now : null,
      });
      await tx.events.append([eventOf(scope, 'product.created', { kind: 'product', product }, now)]);
      return product;
    });
  }
}
