import type { Resolution, UnappliedPayment, UnappliedStatus } from '../internal/payment-instructions/unapplied-payment';
import type { Page, PageRequest } from '../internal/shared/page';

export type NewUnappliedPayment = Omit<UnappliedPayment, 'id'>;

/** An unapplied payment as read: with the public ids of its instruction, its debt and the debt it was applied to. */
export interface UnappliedPaymentView extends UnappliedPayment {
  paymentInstructionCode: string;
  debtExternalRequestId: string;
  resolutionDebtExternalRequestId: string | null;
}

/** Open money by currency, over every tenant (what the metrics report). */
export interface OpenUnappliedTotals {
  currency: string;
  count: number;
  amountCents: number;
}

export interface UnappliedPaymentRepository {
  /** @throws ConflictError when the code is taken. */
  insert(payment: NewUnappliedPayment): Promise<UnappliedPaymentView>;
  findByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null>;
  /** Reads it and locks it until the transaction ends. */
  lockByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null>;
  /** The company's, newest first (by receivedAt, then id). */
  list(companyId: number, filter: { status?: UnappliedStatus }, page: PageRequest): Promise<Page<UnappliedPaymentView>>;
  resolve(id: number, resolution: Resolution, at: Date): Promise<UnappliedPaymentView>;
  /** Claims (a date) or releases (null) it for a refund in progress. */
  setRefundRequested(id: number, at: Date | null): Promise<UnappliedPaymentView>;
  openTotals(): Promise<OpenUnappliedTotals[]>;
}
