import type { Currency } from '../shared/currency';
import { BusinessRuleViolationError } from '../shared/errors';

export const DEBT_STATUSES = ['PENDING', 'PARTIALLY_PAID', 'PAID', 'OVERDUE', 'CANCELLED'] as const;
export type DebtStatus = (typeof DEBT_STATUSES)[number];

export const PAYMENT_METHODS = ['CASH', 'CARD', 'TRANSFER', 'WALLET', 'BANK_TRANSFER'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

export const AUTOPAY_REASONS = [
  'NO_PRODUCT',
  'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY',
  'COMPANY_WITHOUT_PRODUCT_MODALITY',
  'NO_DEFAULT_PAYMENT_METHOD',
  'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED',
  'ADHESION_EVENT_FAILED',
] as const;
export type AutopayReason = (typeof AUTOPAY_REASONS)[number];

/** A one-time charge to a known debtor. Money in integer cents; dueDate a UTC calendar date. */
export interface Debt {
  id: number;
  organizationId: number;
  companyId: number;
  externalRequestId: string;
  batchId: string | null;
  /** Null only for the debt of a payment link without a known debtor. */
  contactId: number | null;
  contactCreatedInline: boolean;
  /** The payment link the debt belongs to, if any. */
  paymentLinkId?: number | null;
  /** The subscription whose cycle the debt is, if any. */
  subscriptionId?: number | null;
  productId: number | null;
  /** As stored; read through effectiveStatus(), which adds the time rule. */
  status: DebtStatus;
  amountCents: number;
  amountPaidCents: number;
  currency: Currency;
  dueDate: string;
  allowOverduePayment: boolean;
  allowPartialPayments: boolean;
  description: string | null;
  additionalData: Record<string, unknown> | null;
  paymentMethods: PaymentMethod[] | null;
  autopay: boolean;
  autopayReason: AutopayReason | null;
  /** The payment method an autopay debt is debited with (its autopayInstrument). */
  autopayPaymentMethodId: number | null;
  createdAt: Date;
  updatedAt: Date;
}

export const DEBT_ID_PREFIX = 'debt_';

export function debtIdOf(debt: Pick<Debt, 'externalRequestId'>): string {
  return DEBT_ID_PREFIX + debt.externalRequestId;
}

/**
 * A PENDING debt whose due date is before the organization's current UTC date reads as OVERDUE
 * at once, whether or not the overdue job has persisted it yet.
 */
export function effectiveStatus(debt: Pick<Debt, 'status' | 'dueDate'>, today: string): DebtStatus {
  return debt.status === 'PENDING' && debt.dueDate < today ? 'OVERDUE' : debt.status;
}

export function remainingCents(debt: Pick<Debt, 'amountCents' | 'amountPaidCents'>): number {
  return debt.amountCents - debt.amountPaidCents;
}

/**
 * Whether a payment of part of the remaining amount is possible: the debt allows it and is not
 * OVERDUE (the state table takes an OVERDUE debt only to PAID, by a late payment of the rest).
 */
export function allowsPartialPayment(debt: Pick<Debt, 'status' | 'dueDate' | 'allowPartialPayments'>, today: string): boolean {
  return debt.allowPartialPayments && effectiveStatus(debt, today) !== 'OVERDUE';
}

/**
 * The payment rules of the state table. Returns the debt's new status and amount paid, or
 * throws BusinessRuleViolation naming the rule that forbids the payment.
 */
export function applyPayment(
  debt: Pick<Debt, 'status' | 'dueDate' | 'amountCents' | 'amountPaidCents' | 'allowOverduePayment' | 'allowPartialPayments'>,
  amountCents: number,
  today: string,
): { status: DebtStatus; amountPaidCents: number } {
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) throw new BusinessRuleViolationError('A payment must be at least 0.01');
  const status = effectiveStatus(debt, today);
  if (status === 'PAID' || status === 'CANCELLED') {
    throw new BusinessRuleViolationError(`A ${status} debt cannot be paid`);
  }
  if (debt.dueDate < today && !debt.allowOverduePayment) {
    throw new BusinessRuleViolationError('The debt is past its due date and does not allow overdue payment');
  }
  const remaining = remainingCents(debt);
  if (amountCents > remaining) throw new BusinessRuleViolationError('The payment exceeds the remaining amount');
  if (amountCents < remaining && !debt.allowPartialPayments) {
    throw new BusinessRuleViolationError('The debt does not allow partial payments');
  }
  if (amountCents < remaining && status === 'OVERDUE') {
    throw new BusinessRuleViolationError('An OVERDUE debt can only be paid in full (its remaining amount)');
  }
  const amountPaidCents = debt.amountPaidCents + amountCents;
  return { status: amountPaidCents === debt.amountCents ? 'PAID' : 'PARTIALLY_PAID', amountPaidCents };
}

/** Cancel: from PENDING, PARTIALLY_PAID and OVERDUE; PAID and CANCELLED are final. */
export function assertCancellable(debt: Pick<Debt, 'status' | 'dueDate'>, today: string): void {
  const status = effectiveStatus(debt, today);
  if (status === 'PAID' || status === 'CANCELLED') {
    throw new BusinessRuleViolationError(`A ${status} debt cannot be cancelled`);
  }
}

/** PATCH amount/dueDate: only while PENDING (an overdue-by-time debt is no longer PENDING). */
export function assertEditable(debt: Pick<Debt, 'status' | 'dueDate'>, today: string): void {
  const status = effectiveStatus(debt, today);
  if (status !== 'PENDING') throw new BusinessRuleViolationError(`A ${status} debt cannot be modified`);
}
