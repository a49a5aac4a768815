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
 *
 * The INSERT comes first: the (company_id, name) and (company_id, external_product_id) unique keys
 * find a taken name or key (the transaction rolls back whole), and only then are the products
 * holding them read to decide between the stored product and a 409. A new product costs no read.
 */
export class CreateProduct {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories }) {
    requireDeps('CreateProduct', deps);
  }

  async execute(input: CreateProductInput, scope: TenantScope): Promise<Product> {
    const name = normalizeProductName(input.name);
    const externalProductId =
      input.externalProductId == null ? null : normalizeExternalProductId(input.externalProductId);
    const active = input.active ?? true;
    try {
      return await this.create(name, externalProductId, active, scope);
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
    }
    const stored = await this.holderOf(name, externalProductId, scope);
    if (stored) return stored;
    // The product that held the name or key was deleted since: create it once more (a second
    // conflict is a 409 of its own).
    return this.create(name, externalProductId, active, scope);
  }

  /** The active product the name and externalProductId resolve to, a 409 saying why not, or null when neither is held. */
  private async holderOf(name: string, externalProductId: string | null, scope: TenantScope): Promise<Product | null> {
    const { byName: existing, byExternalProductId: owner } = await this.deps.repos.products.findNameAndKeyHolders(scope.company.id, name, externalProductId);
    if (existing && !existing.active) {
      throw new ConflictError(`The product name ${name} is taken by an inactive product`);
    }
    if (existing?.externalProductId && externalProductId && existing.externalProductId !== externalProductId) {
      throw new ConflictError(`The product ${name} exists with a different externalProductId`);
    }
    if (owner && owner.id !== existing?.id) {
      throw new ConflictError(`The externalProductId ${externalProductId} belongs to another product`);
    }
    return existing;
  }

  private create(name: string, externalProductId: string | null, active: boolean, scope: TenantScope): Promise<Product> {
    return this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
      const now = scope.clock.now();
      const product = await tx.products.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
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
