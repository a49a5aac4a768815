/**
 * A payment method registered on the hosted enrollment page: one per form submission
 * (`submissionKey` unique per company), written in the registration's transaction, so a form
 * sent twice registers once.
 */
export interface PageEnrollment {
  id: number;
  organizationId: number;
  companyId: number;
  submissionKey: string;
  externalClientId: string;
  /** Internal number of the registered payment method. */
  paymentMethodId: number;
  createdAt: Date;
}
