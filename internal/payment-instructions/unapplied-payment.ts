import type { Currency } from '../shared/currency';

/**
 * Money received that no debt took: more than the debt owed (OVERPAYMENT), money for an
 * instruction no longer PENDING (INSTRUCTION_NOT_PENDING), or money the debt's rules refuse
 * (NOT_APPLICABLE: the debt was paid or cancelled, a partial amount where partial payments are
 * not allowed, a later subscription cycle paid before an earlier one under enforcePaymentOrder,
 * another currency). Nothing received is ever dropped: it stays OPEN until an operator applies
 * it to a debt or refunds it.
 */
export const UNAPPLIED_REASONS = ['OVERPAYMENT', 'INSTRUCTION_NOT_PENDING', 'NOT_APPLICABLE'] as const;
export type UnappliedReason = (typeof UNAPPLIED_REASONS)[number];

export const UNAPPLIED_STATUSES = ['OPEN', 'RESOLVED'] as const;
export type UnappliedStatus = (typeof UNAPPLIED_STATUSES)[number];

export const RESOLUTION_ACTIONS = ['APPLIED', 'REFUNDED'] as const;
export type ResolutionAction = (typeof RESOLUTION_ACTIONS)[number];

export interface Resolution {
  action: ResolutionAction;
  /** APPLIED: the debt that took the money (internal number). */
  debtId: number | null;
  /** REFUNDED: the provider's refund reference. */
  reference: string | null;
}

export interface UnappliedPayment {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `upy_` prefix. */
  code: string;
  amountCents: number;
  currency: Currency;
  /** The instruction the money came through, and its debt (internal numbers). */
  paymentInstructionId: number;
  debtId: number;
  reason: UnappliedReason;
  status: UnappliedStatus;
  /** When the provider says the money arrived. */
  receivedAt: Date;
  resolvedAt: Date | null;
  resolution: Resolution | null;
  /** The provider notification that brought it. */
  notificationId: number;
  /**
   * Set while its refund is with the provider (between the claim and the provider's answer): it
   * cannot be applied meanwhile, so money is never both applied and refunded.
   */
  refundRequestedAt: Date | null;
}

export const UNAPPLIED_PAYMENT_ID_PREFIX = 'upy_';
export const UNAPPLIED_CODE_LENGTH = 24;

export function unappliedPaymentIdOf(payment: Pick<UnappliedPayment, 'code'>): string {
  return UNAPPLIED_PAYMENT_ID_PREFIX + payment.code;
}

export function unappliedCodeFromId(id: string): string | null {
  const code = id.startsWith(UNAPPLIED_PAYMENT_ID_PREFIX) ? id.slice(UNAPPLIED_PAYMENT_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9]{1,64}$/.test(code) ? code : null;
}

/** The payment source of money applied from an unapplied payment (debt_payments.source). */
export const UNAPPLIED_PAYMENT_SOURCE = 'unapplied-payment';
