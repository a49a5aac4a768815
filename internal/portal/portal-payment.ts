import type { PaymentMethod } from '../debts/debt';
import type { Currency } from '../shared/currency';

/**
 * A payment made on the hosted portal, and its receipt. The debt took the payment through the
 * same use case as every other payment path; this record says who charged it (the processor's
 * reference) and gives the payer a receipt page (`code`, unguessable). One per form submission:
 * `submissionKey` is unique per company, so a form sent twice pays once.
 */
export interface PortalPayment {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public receipt code (22 base62 characters, about 131 bits). */
  code: string;
  submissionKey: string;
  /** The debt that took the payment (for a reusable link, the payment record it created). */
  debtId: number;
  paymentLinkId: number | null;
  subscriptionId: number | null;
  amountCents: number;
  currency: Currency;
  method: PaymentMethod;
  processorReference: string;
  createdAt: Date;
}

export const RECEIPT_CODE_LENGTH = 22;
/** Form submission keys: what a hosted form carries so that sending it twice does things once. */
export const SUBMISSION_KEY = /^[A-Za-z0-9]{16,64}$/;
