import type { DebtView, NewDebt } from '../../ports/debt-repository';
import type { Contact } from '../contacts/contact';
import type { PaymentMethodReference } from '../direct-debit/payment-method';
import type { Product } from '../products/product';
import { FALLBACK_CURRENCY } from '../shared/currency';
import type { TenantScope } from '../shared/tenant-scope';
import type { AutopayVerdict } from '../direct-debit/autopay';
import type { Debt } from './debt';
import type { DebtDraft } from './debt-draft';

export interface ResolvedDebtParts {
  externalRequestId: string;
  batchId: string | null;
  contact: Contact | null;
  createdInline: boolean;
  product: Product | null;
  /**
   * The direct-debit verdict, when the contract asked for one: an eligible debt is written with
   * autopay true and its instrument (withdrawn if its adhesion request cannot be emitted).
   */
  autopay?: AutopayVerdict | null;
}

/** A PENDING debt from a validated draft (its debtor and product already resolved), and the defaults. */
export function newDebt(draft: Omit<DebtDraft, 'debtor' | 'product'>, resolved: ResolvedDebtParts, scope: TenantScope): NewDebt {
  const now = scope.clock.now();
  const verdict = resolved.autopay ?? null;
  return {
    organizationId: scope.organizationId,
    companyId: scope.company.id,
    externalRequestId: resolved.externalRequestId,
    batchId: resolved.batchId,
    contactId: resolved.contact?.id ?? null,
    contactCreatedInline: resolved.createdInline,
    productId: resolved.product?.id ?? null,
    status: 'PENDING',
    amountCents: draft.amountCents,
    amountPaidCents: 0,
    currency: draft.currency ?? scope.company.defaultCurrency ?? FALLBACK_CURRENCY,
    dueDate: draft.dueDate,
    allowOverduePayment: draft.allowOverduePayment ?? true,
    allowPartialPayments: draft.allowPartialPayments ?? true,
    description: draft.description ?? null,
    additionalData: draft.additionalData ?? null,
    paymentMethods: draft.paymentMethods ?? null,
    autopay: verdict !== null && 'eligible' in verdict,
    autopayReason: verdict !== null && !('eligible' in verdict) ? verdict.reason : null,
    autopayPaymentMethodId: verdict !== null && 'eligible' in verdict ? verdict.eligible.id : null,
    createdAt: now,
    updatedAt: now,
  };
}

/** The read shape of a debt this request just wrote, without reading it back. */
export function viewOf(debt: Debt, contact: Contact | null, product: Product | null, instrument: PaymentMethodReference | null = null): DebtView {
  return {
    ...debt,
    contact: contact && { code: contact.code, externalClientId: contact.externalClientId },
    product: product && { id: product.id, name: product.name, active: product.active },
    autopayInstrument: debt.autopayPaymentMethodId === null ? null : instrument,
  };
}
