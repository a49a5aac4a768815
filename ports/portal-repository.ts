import type { PageEnrollment } from '../internal/direct-debit/page-enrollment';
import type { PortalPayment } from '../internal/portal/portal-payment';

export type NewPortalPayment = Omit<PortalPayment, 'id'>;
export type NewPageEnrollment = Omit<PageEnrollment, 'id'>;

/** What the hosted pages record beside the payments and registrations they make. */
export interface PortalRepository {
  /** @throws ConflictError when the company already has the submissionKey (or the code is taken). */
  insertPayment(payment: NewPortalPayment): Promise<PortalPayment>;
  findPaymentByCode(code: string): Promise<PortalPayment | null>;
  findPaymentBySubmission(companyId: number, submissionKey: string): Promise<PortalPayment | null>;
  /** @throws ConflictError when the company already has the submissionKey. */
  insertEnrollment(enrollment: NewPageEnrollment): Promise<PageEnrollment>;
  findEnrollmentBySubmission(companyId: number, submissionKey: string): Promise<PageEnrollment | null>;
}
