import { debtIdOf } from '../../../internal/debts/debt';
import { effectiveInstructionStatus, paymentInstructionIdOf } from '../../../internal/payment-instructions/payment-instruction';
import { PAYMENT_INSTRUCTION_ID_PREFIX } from '../../../internal/payment-instructions/payment-instruction';
import { unappliedPaymentIdOf } from '../../../internal/payment-instructions/unapplied-payment';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import { amountFromCents } from '../../../internal/shared/money';
import type { PaymentInstructionView } from '../../../ports/payment-instruction-repository';
import type { PaymentPortal } from '../../../ports/payment-portal';
import type { UnappliedPaymentView } from '../../../ports/unapplied-payment-repository';
import type { PresentationScope } from './presentation-scope';

/**
 * The PaymentInstruction shape (decisions.md section 8): `transfer` only for TRANSFER, `cash`
 * (with its public, signed barcode and voucher URLs) only for CASH; the status is the effective
 * one (a PENDING instruction past expiresAt reads EXPIRED).
 */
export function paymentInstructionPresenter(portal: PaymentPortal) {
  return (instruction: PaymentInstructionView, scope: PresentationScope) => {
    const paymentInstructionId = paymentInstructionIdOf(instruction);
    const body: Record<string, unknown> = {
      paymentInstructionId,
      debtId: debtIdOf({ externalRequestId: instruction.debtExternalRequestId }),
      method: instruction.method,
      status: effectiveInstructionStatus(instruction, scope.clock.now()),
      amount: amountFromCents(instruction.amountCents),
      amountReceived: amountFromCents(instruction.amountReceivedCents),
      currency: instruction.currency,
      reference: instruction.reference,
      expiresAt: toIsoUtc(instruction.expiresAt),
    };
    if (instruction.transfer) body.transfer = { ...instruction.transfer };
    if (instruction.cash) {
      const urls = portal.voucherUrls({ companyCode: scope.company.code, paymentInstructionId });
      body.cash = { barcodeValue: instruction.cash.barcodeValue, barcodeUrl: urls.barcodeUrl, voucherUrl: urls.voucherUrl, networks: [...instruction.cash.networks] };
    }
    body.createdAt = toIsoUtc(instruction.createdAt);
    body.paidAt = instruction.paidAt ? toIsoUtc(instruction.paidAt) : null;
    return body;
  };
}

export type PaymentInstructionPresenter = ReturnType<typeof paymentInstructionPresenter>;

/** The UnappliedPayment shape (decisions.md section 8). */
export function presentUnappliedPayment(payment: UnappliedPaymentView): Record<string, unknown> {
  return {
    unappliedPaymentId: unappliedPaymentIdOf(payment),
    amount: amountFromCents(payment.amountCents),
    currency: payment.currency,
    paymentInstructionId: PAYMENT_INSTRUCTION_ID_PREFIX + payment.paymentInstructionCode,
    debtId: debtIdOf({ externalRequestId: payment.debtExternalRequestId }),
    reason: payment.reason,
    status: payment.status,
    receivedAt: toIsoUtc(payment.receivedAt),
    resolvedAt: payment.resolvedAt ? toIsoUtc(payment.resolvedAt) : null,
    resolution: payment.resolution && {
      action: payment.resolution.action,
      debtId: payment.resolutionDebtExternalRequestId === null ? null : debtIdOf({ externalRequestId: payment.resolutionDebtExternalRequestId }),
      reference: payment.resolution.reference,
    },
  };
}
