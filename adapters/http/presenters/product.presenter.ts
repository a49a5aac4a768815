import { type Product, productIdOf } from '../../../internal/products/product';
import { toIsoUtc } from '../../../internal/shared/calendar-date';

export function presentProduct(product: Product) {
  return {
    productId: productIdOf(product),
    name: product.name,
    externalProductId: product.externalProductId,
    active: product.active,
    createdAt: product.createdAt && toIsoUtc(product.createdAt),
    updatedAt: product.updatedAt && toIsoUtc(product.updatedAt),
  };
}
