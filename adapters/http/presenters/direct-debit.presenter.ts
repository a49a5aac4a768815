import { adhesionIdOf } from '../../../internal/direct-debit/adhesion';
import { type DebitAttempt, debitAttemptIdOf } from '../../../internal/direct-debit/debit-attempt';
import { type PaymentMethodReference, paymentMethodIdOf } from '../../../internal/direct-debit/payment-method';
import { debtIdOf } from '../../../internal/debts/debt';
import { productIdOf } from '../../../internal/products/product';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import { amountFromCents } from '../../../internal/shared/money';
import type { AdhesionView } from '../../../ports/adhesion-repository';
import type { DebtView } from '../../../ports/debt-repository';

/** The PaymentMethodReference shape; `maskedReference` only when one was registered. */
export function presentPaymentMethod(method: PaymentMethodReference) {
  return {
    paymentMethodId: paymentMethodIdOf(method),
    paymentMethodType: method.type,
    isDefault: method.isDefault,
    status: method.status,
    ...(method.maskedReference ? { maskedReference: method.maskedReference } : {}),
    createdAt: toIsoUtc(method.createdAt),
  };
}

/** The Adhesion shape: the user, the product (embedded as in debts) and the status. */
export function presentAdhesion(adhesion: AdhesionView) {
  return {
    adhesionId: adhesionIdOf(adhesion),
    externalClientId: adhesion.externalClientId,
    product: { productId: productIdOf(adhesion.product), name: adhesion.product.name, active: adhesion.product.active },
    status: adhesion.status,
    createdAt: toIsoUtc(adhesion.createdAt),
    updatedAt: toIsoUtc(adhesion.updatedAt),
  };
}

/**
 * A direct-debit attempt as events report it: `attemptNumber` 1 on the due date, 2.. for the
 * dunning retries; `nextAttemptOn` the UTC date of the retry a refusal scheduled (null when the
 * refusal is final, and on other events); `paymentMethodStatus` INACTIVE once ACCOUNT_CLOSED ended it.
 */
export function presentDebitAttempt(attempt: DebitAttempt, debt: DebtView, method: PaymentMethodReference) {
  return {
    debitAttemptId: debitAttemptIdOf(attempt),
    debtId: debtIdOf(debt),
    attemptNumber: attempt.attemptNumber,
    paymentMethodId: paymentMethodIdOf(method),
    paymentMethodStatus: method.status,
    amount: amountFromCents(attempt.amountCents),
    currency: debt.currency,
    status: attempt.status,
    failureCode: attempt.failureCode,
    nextAttemptOn: attempt.retryOn,
    createdAt: toIsoUtc(attempt.createdAt),
    completedAt: attempt.completedAt && toIsoUtc(attempt.completedAt),
  };
}
