import type { EventLog } from '../../ports/event-log';
import type { ProductRepository } from '../../ports/product-repository';
import type { UnitOfWork } from '../../ports/unit-of-work';
import { eventOf } from '../events/domain-event';
import type { Product } from '../products/product';
import { BusinessRuleViolationError, ConflictError, NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import type { ProductRef } from './debt-draft';

/**
 * The product a debt references. By id or externalProductId it must exist (404) and be active
 * (422); debts never create those. A legacy `productName` is reused or created inline, in a
 * transaction of its own: it stands even if the debt then fails, like one made with POST /products.
 */
export async function resolveProduct(
  deps: { products: ProductRepository; uow: UnitOfWork },
  ref: ProductRef,
  scope: TenantScope,
): Promise<Product | null> {
  if (ref === null) return null;
  const companyId = scope.company.id;
  if ('productName' in ref) return (await deps.uow.run((tx) => findOrCreateProductByName(tx, ref.productName, scope))).product;
  const product =
    'productNumber' in ref
      ? await deps.products.findById(companyId, ref.productNumber)
      : await deps.products.findByExternalProductId(companyId, ref.externalProductId);
  return checkUsable(product);
}

/**
 * A legacy productName that names no active product of the company, as the grouped write found it
 * (debt-write-resolution.ts): the caller finds or creates the product in a transaction of its own
 * (resolveProduct) and writes again (CreateDebt), where a missing name becomes a product and an
 * inactive one a 422. Seen by no client: a 404 for the product if it ever were.
 */
export class ProductNameUnresolved extends NotFoundError {
  constructor() {
    super('Product');
  }
}

/** The same rules over products read in bulk (a batch reads each product once). */
export function checkUsable(product: Product | null | undefined): Product {
  if (!product) throw new NotFoundError('Product');
  if (!product.active) throw new BusinessRuleViolationError('The product is inactive and cannot be used in new charges');
  return product;
}

/**
 * A product by name, created when the company has none (`createdInline`, with its
 * product.created event in the caller's transaction); inactive is 422.
 */
export async function findOrCreateProductByName(
  tx: { products: ProductRepository; events: EventLog },
  name: string,
  scope: TenantScope,
): Promise<{ product: Product; createdInline: boolean }> {
  const existing = await tx.products.findByName(scope.company.id, name);
  if (existing) return { product: checkUsable(existing), createdInline: false };
  const now = scope.clock.now();
  try {
    const product = await tx.products.insert({
      organizationId: scope.organizationId,
      companyId: scope.company.id,
      name,
      externalProductId: null,
      active: true,
      createdAt: now,
    });
    await tx.events.append([eventOf(scope, 'product.created', { kind: 'product', product }, now)]);
    return { product, createdInline: true };
  } catch (error) {
    // Created by a concurrent request in the meantime: use it.
    if (!(error instanceof ConflictError)) throw error;
    return { product: checkUsable(await tx.products.findByName(scope.company.id, name)), createdInline: false };
  }
}
