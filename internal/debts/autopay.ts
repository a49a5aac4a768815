import type { Product } from '../products/product';
import type { Company } from '../tenancy/company';
import type { AutopayReason } from './debt';

export type AutopayOutcome = { autopay: true; reason: null } | { autopay: false; reason: AutopayReason };

/**
 * Direct-debit evaluation, in the specification's order of reasons. The checks that need no
 * payment methods are decided here; a company and product that pass them reach the user's
 * default payment method, which no user has until payment methods can be registered (the
 * direct-debit issue), hence NO_DEFAULT_PAYMENT_METHOD.
 */
export function evaluateAutopay(company: Company, product: Pick<Product, 'id'> | null): AutopayOutcome {
  if (!product) return { autopay: false, reason: 'NO_PRODUCT' };
  if (!company.directDebitEnabled) return { autopay: false, reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' };
  if (!company.directDebitModality) return { autopay: false, reason: 'COMPANY_WITHOUT_PRODUCT_MODALITY' };
  return { autopay: false, reason: 'NO_DEFAULT_PAYMENT_METHOD' };
}
