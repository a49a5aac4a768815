import type { ProductRepository } from '../../ports/product-repository';
import type { ProductRef } from '../debts/debt-draft';
import { checkUsable } from '../debts/resolve-product';
import type { Product } from '../products/product';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';

/** The product of an adhesion request body: by `prd_<number>` or by the company's own id. */
export type AdhesionProductRef = Exclude<ProductRef, { productName: string } | null>;

/** Cancelling only needs the product to exist (404 otherwise): an adhesion to a deactivated product can end too. */
export async function productToCancel(products: ProductRepository, ref: AdhesionProductRef, scope: TenantScope): Promise<Product> {
  const product =
    'productNumber' in ref
      ? await products.findById(scope.company.id, ref.productNumber)
      : await products.findByExternalProductId(scope.company.id, ref.externalProductId);
  if (!product) throw new NotFoundError('Product');
  return product;
}

/** Enrolling needs a usable product, as a new charge would: missing is 404, inactive 422. */
export async function productToEnroll(products: ProductRepository, ref: AdhesionProductRef, scope: TenantScope): Promise<Product> {
  return checkUsable(await productToCancel(products, ref, scope));
}
