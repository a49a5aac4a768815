import { InvalidRequestError } from '../shared/errors';

/** An optional category for charges, keyed by `name` within a company. */
export interface Product {
  id: number;
  organizationId: number;
  companyId: number;
  name: string;
  externalProductId: string | null;
  active: boolean;
  /** Null when the product was created inactive. */
  createdAt: Date | null;
  updatedAt: Date | null;
}

export const PRODUCT_ID_PREFIX = 'prd_';

export function productIdOf(product: Pick<Product, 'id'>): string {
  return PRODUCT_ID_PREFIX + product.id;
}

/** `prd_<number>` or the bare number; anything else names no product (null). */
export function productNumberFromId(id: string): number | null {
  const match = /^(?:prd_)?([1-9]\d{0,14})$/.exec(id);
  return match ? Number(match[1]) : null;
}

const FORBIDDEN = /['"\\;]/;

/** Names and external ids are trimmed; external ids must not carry quote, backslash or `;`. */
export function normalizeProductName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (!trimmed) throw InvalidRequestError.field(field, 'must not be empty');
  return trimmed;
}

export function normalizeExternalProductId(value: string, field = 'externalProductId'): string {
  const trimmed = value.trim();
  if (!trimmed) throw InvalidRequestError.field(field, 'must not be empty');
  if (FORBIDDEN.test(trimmed)) {
    throw InvalidRequestError.field(field, 'must not contain the characters \' " \\ ;');
  }
  return trimmed;
}
