import type { Debt, DebtStatus } from '../internal/debts/debt';
import type { Page, PageRequest } from '../internal/shared/page';

export type NewDebt = Omit<Debt, 'id'>;

/** A debt as read: with what its embedded contact and product show. */
export interface DebtView extends Debt {
  contact: { code: string; externalClientId: string } | null;
  product: { id: number; name: string; active: boolean } | null;
}

export interface DebtFilter {
  /** The effective status: OVERDUE includes PENDING debts past due on `today`, PENDING excludes them. */
  status?: Exclude<DebtStatus, 'CANCELLED'>;
  /** The organization's current UTC date, for the effective status. */
  today: string;
  createdFrom?: number;
  createdTo?: number;
  minAmountCents?: number;
  maxAmountCents?: number;
  contactId?: number;
  batchId?: string;
  paymentLinkId?: number;
  subscriptionId?: number;
}

export interface DebtChanges {
  amountCents?: number;
  dueDate?: string;
  status?: DebtStatus;
  amountPaidCents?: number;
  updatedAt: Date;
}

export interface DebtRepository {
  /** @throws ConflictError when the company already has a debt with that externalRequestId. */
  insert(debt: NewDebt): Promise<Debt>;
  /**
   * Inserts the debts whose externalRequestId the company does not have yet, in one statement,
   * and skips the others (a concurrent request may have created them).
   */
  insertMissing(debts: NewDebt[]): Promise<void>;
  findByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null>;
  findByExternalRequestIds(companyId: number, externalRequestIds: string[]): Promise<DebtView[]>;
  /** Reads the debt and locks it until the transaction ends (FOR UPDATE on MySQL). */
  lockByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null>;
  update(companyId: number, id: number, changes: DebtChanges): Promise<DebtView>;
  recordPayment(debtId: number, amountCents: number, source: string, at: Date): Promise<void>;
  /** Newest first, cancelled debts excluded. */
  list(companyId: number, filter: DebtFilter, page: PageRequest): Promise<Page<DebtView>>;
  /** Cancels the subscription's unpaid debts (PENDING, OVERDUE); returns how many. */
  cancelUnpaidOfSubscription(subscriptionId: number, at: Date): Promise<number>;
  /** Due dates that already have a debt of the subscription that is not CANCELLED. */
  liveDueDatesOfSubscription(subscriptionId: number): Promise<string[]>;
  /** The subscription's debts that are neither PAID nor CANCELLED, by due date. */
  openOfSubscription(subscriptionId: number): Promise<DebtView[]>;
  /** Persists OVERDUE for the organization's PENDING debts due before `today`; returns how many. */
  markOverdue(organizationId: number, today: string, at: Date): Promise<number>;
}
