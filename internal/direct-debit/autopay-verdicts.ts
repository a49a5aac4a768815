import type { PaymentMethodRepository } from '../../ports/payment-method-repository';
import type { Product } from '../products/product';
import type { Company } from '../tenancy/company';
import { autopayBeforeMethods, autopayFromDefault, type AutopayVerdict } from './autopay';

/** Whether a debt of this product may reach step 4 (so the user's default method is worth reading). */
export function needsDefaultMethod(company: Company, hasProduct: boolean): boolean {
  return hasProduct && company.directDebitEnabled && company.directDebitModality;
}

/**
 * The verdicts of many new debts of one company, reading the default method of each user that
 * reaches step 4 once, in one query (a batch or a generation evaluates users and products once).
 */
export async function autopayVerdicts(
  paymentMethods: PaymentMethodRepository,
  company: Company,
  debts: { externalClientId: string; product: Pick<Product, 'id'> | null }[],
): Promise<AutopayVerdict[]> {
  const early = debts.map((d) => autopayBeforeMethods(company, d.product));
  const users = [...new Set(debts.filter((_, i) => early[i] === null).map((d) => d.externalClientId))];
  const defaults = new Map((await paymentMethods.findDefaults(company.id, users)).map((m) => [m.externalClientId, m]));
  return debts.map((d, i) => early[i] ?? autopayFromDefault(defaults.get(d.externalClientId) ?? null));
}
