import type { AutopayReason } from '../debts/debt';
import type { Product } from '../products/product';
import type { Company } from '../tenancy/company';
import { isDebitable, type PaymentMethodReference } from './payment-method';

/**
 * The direct-debit outcome of a new debt. `autopay: true` only once the adhesion request was
 * emitted (the debt is then debited automatically); otherwise the first reason that applies, in
 * the specification's order. The debt is created either way.
 */
export type AutopayOutcome = { autopay: true; instrument: PaymentMethodReference } | { autopay: false; reason: AutopayReason };

/** An outcome that still depends on emitting the adhesion request. */
export type AutopayVerdict = { eligible: PaymentMethodReference } | { autopay: false; reason: AutopayReason };

/**
 * Steps 1-3, decided by the company and product alone; null when the answer depends on the
 * user's default payment method (so callers look it up only then, and a batch once per user).
 */
export function autopayBeforeMethods(company: Company, product: Pick<Product, 'id'> | null): AutopayVerdict | null {
  if (!product) return { autopay: false, reason: 'NO_PRODUCT' };
  if (!company.directDebitEnabled) return { autopay: false, reason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' };
  if (!company.directDebitModality) return { autopay: false, reason: 'COMPANY_WITHOUT_PRODUCT_MODALITY' };
  return null;
}

/** Steps 4-5: the user's default method must exist and be debitable. */
export function autopayFromDefault(defaultMethod: PaymentMethodReference | null): AutopayVerdict {
  if (!defaultMethod) return { autopay: false, reason: 'NO_DEFAULT_PAYMENT_METHOD' };
  if (!isDebitable(defaultMethod.type)) return { autopay: false, reason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED' };
  return { eligible: defaultMethod };
}

/** Step 6: whether the adhesion request went out decides between true and ADHESION_EVENT_FAILED. */
export function autopayAfterEmission(verdict: AutopayVerdict, emitted: boolean): AutopayOutcome {
  if (!('eligible' in verdict)) return verdict;
  return emitted ? { autopay: true, instrument: verdict.eligible } : { autopay: false, reason: 'ADHESION_EVENT_FAILED' };
}
