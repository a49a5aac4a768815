import type { EnrollmentGrant } from '../internal/direct-debit/enrollment-grant';

/** The hosted payment pages: where a debtor pays. URLs are opaque to integrators. */
export interface PaymentPortal {
  /** The page to pay a debt; null when the portal cannot provide one (the debt stands anyway). */
  debtUrl(debt: { companyCode: string; debtId: string }): string | null;
  /** The page of a subscription, shared by all its cycles. */
  subscriptionUrl(subscription: { companyCode: string; subscriptionId: string }): string | null;
  /**
   * The page of a payment link: by its opaque short code when the company uses private links,
   * else under the company portal by identifier.
   */
  linkUrl(link: { companyCode: string; portalUrl: string | null; shortCode: string | null; identifier: string }): string | null;
  /** The signed, expiring enrollment page of one user of a company. */
  enrollmentUrl(grant: EnrollmentGrant): string;
  /**
   * The public, signed barcode (SVG) and printable voucher (PDF) of a cash payment instruction:
   * a debtor opens them; they show the voucher and nothing else.
   */
  voucherUrls(instruction: { companyCode: string; paymentInstructionId: string }): { barcodeUrl: string; voucherUrl: string };
}
