/** How a user pays automatically: only references are kept, never account or card numbers. */
export const PAYMENT_METHOD_TYPES = ['BANK_ACCOUNT', 'CARD_TOKENIZED'] as const;
export type PaymentMethodType = (typeof PAYMENT_METHOD_TYPES)[number];

/**
 * ACTIVE: usable. INACTIVE: the platform reported it closed (a debit refused with ACCOUNT_CLOSED);
 * it is no longer the default and is never debited again.
 */
export const PAYMENT_METHOD_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type PaymentMethodStatus = (typeof PAYMENT_METHOD_STATUSES)[number];

/** A user's registered payment method, per company. */
export interface PaymentMethodReference {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `pm_` prefix. */
  code: string;
  /** The user (debtor) it belongs to, as registered at enrollment. */
  externalClientId: string;
  type: PaymentMethodType;
  isDefault: boolean;
  status: PaymentMethodStatus;
  /** What the user may recognise it by (`CLABE •••• 1234`); never the full number. */
  maskedReference: string | null;
  createdAt: Date;
}

export const PAYMENT_METHOD_ID_PREFIX = 'pm_';
export const PAYMENT_METHOD_CODE_LENGTH = 20;

export function paymentMethodIdOf(method: Pick<PaymentMethodReference, 'code'>): string {
  return PAYMENT_METHOD_ID_PREFIX + method.code;
}

/** Only bank accounts execute debit in this version; tokenized cards are references only. */
export function isDebitable(type: PaymentMethodType): boolean {
  return type === 'BANK_ACCOUNT';
}
