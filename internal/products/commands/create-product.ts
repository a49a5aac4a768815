import type { ProductRepository } from '../../../ports/product-repository';
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
 * belongs to one product only.
 */
export class CreateProduct {
  constructor(private readonly deps: { products: ProductRepository }) {
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
    const { products } = this.deps;
    const companyId = scope.company.id;
    const existing = await products.findByName(companyId, name);
    if (existing && !existing.active) {
      throw new ConflictError(`The product name ${name} is taken by an inactive product`);
    }
    if (existing?.externalProductId && externalProductId && existing.externalProductId !== externalProductId) {
      throw new ConflictError(`The product ${name} exists with a different externalProductId`);
    }
    if (externalProductId) {
      const owner = await products.findByExternalProductId(companyId, externalProductId);
      if (owner && owner.id !== existing?.id) {
        throw new ConflictError(`The externalProductId ${externalProductId} belongs to another product`);
      }
    }
    if (existing) return existing;
    const now = active ? scope.clock.now() : null;
    return products.insert({
      organizationId: scope.organizationId,
      companyId,
      name,
      externalProductId,
      active,
      createdAt: now,
    });
  }
}
