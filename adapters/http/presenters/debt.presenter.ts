import { contactIdOf } from '../../../internal/contacts/contact';
import { debtIdOf, effectiveStatus } from '../../../internal/debts/debt';
import { productIdOf } from '../../../internal/products/product';
import { toIsoUtc, utcDateOf } from '../../../internal/shared/calendar-date';
import { amountFromCents } from '../../../internal/shared/money';
import type { PresentationScope } from './presentation-scope';
import type { DebtView, ListedDebt } from '../../../ports/debt-repository';
import type { PaymentPortal } from '../../../ports/payment-portal';
import { presentPaymentMethod } from './direct-debit.presenter';

/**
 * The Debt shape. Optional fields appear only when set; `autopay` and its reason only on
 * creation answers, as the specification lists them; the status is the effective one (a
 * PENDING debt past due reads OVERDUE).
 */
export function debtPresenter(portal: PaymentPortal) {
  /**
   * `today`: the scope's UTC date, when the caller presents many debts at one instant. A creation
   * answer presents the whole view (its autopay state and payment method); a page, listed debts.
   */
  return (debt: ListedDebt & Partial<Pick<DebtView, 'autopay' | 'autopayReason' | 'autopayInstrument'>>, scope: PresentationScope, options: { creation?: boolean; today?: string } = {}) => {
    const debtId = debtIdOf(debt);
    const body: Record<string, unknown> = {
      debtId,
      externalRequestId: debt.externalRequestId,
      status: effectiveStatus(debt, options.today ?? utcDateOf(scope.clock.now())),
      amount: amountFromCents(debt.amountCents),
      amountPaid: amountFromCents(debt.amountPaidCents),
      currency: debt.currency,
      dueDate: debt.dueDate,
      allowOverduePayment: debt.allowOverduePayment,
      allowPartialPayments: debt.allowPartialPayments,
    };
    if (debt.description !== null) body.description = debt.description;
    body.paymentUrl = safeUrl(() => portal.debtUrl({ companyCode: scope.company.code, debtId }));
    body.contact = debt.contact && {
      contactId: contactIdOf(debt.contact),
      externalClientId: debt.contact.externalClientId,
      createdInline: debt.contactCreatedInline,
    };
    if (debt.product) {
      body.product = { productId: productIdOf(debt.product), name: debt.product.name, active: debt.product.active, createdInline: false };
    }
    if (options.creation) {
      body.autopay = debt.autopay;
      if (debt.autopay && debt.autopayInstrument) body.autopayInstrument = presentPaymentMethod(debt.autopayInstrument);
      if (!debt.autopay && debt.autopayReason) body.autopayReason = debt.autopayReason;
    }
    if (debt.paymentMethods) body.paymentMethods = debt.paymentMethods;
    if (debt.additionalData) body.additionalData = debt.additionalData;
    if (debt.batchId) body.batchId = debt.batchId;
    body.createdAt = toIsoUtc(debt.createdAt);
    return body;
  };
}

export type DebtPresenter = ReturnType<typeof debtPresenter>;

function safeUrl(build: () => string | null): string | null {
  try {
    return build();
  } catch {
    return null;
  }
}
