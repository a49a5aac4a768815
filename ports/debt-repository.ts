import type { DebtorKey } from './contact-repository';
import type { AutopayReason, Debt, DebtStatus } from '../internal/debts/debt';
import type { PaymentMethodReference } from '../internal/direct-debit/payment-method';
import type { Page, PageRequest } from '../internal/shared/page';

export type NewDebt = Omit<Debt, 'id'>;

/** A debt as read: with what its embedded contact and product show. */
export interface DebtView extends Debt {
  contact: { code: string; externalClientId: string } | null;
  product: { id: number; name: string; active: boolean } | null;
  /** The payment method of an autopay debt. */
  autopayInstrument: PaymentMethodReference | null;
}

/**
 * A debt as a page of debts holds it (GET /debts, a link's payments, a subscription's debts, the
 * portal's cycles): what the Debt shape shows of it in a list, with its contact and product. Not
 * its autopay state and payment method, which only a creation answer shows, nor what no answer
 * shows (its organization, last change, link, subscription): a page reads no more columns than it
 * presents (docs/performance.md).
 */
export type ListedDebt = Omit<
  DebtView,
  'organizationId' | 'updatedAt' | 'paymentLinkId' | 'subscriptionId' | 'autopay' | 'autopayReason' | 'autopayPaymentMethodId' | 'autopayInstrument'
>;

/** Which autopay debts the debit job looks at: one organization, or one user and product. */
export interface DebitScope {
  organizationId: number;
  /** The organization's current UTC date: debts due on or before it are collected. */
  today: string;
  only?: { companyId: number; externalClientId: string; productId: number };
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
  debtor?: DebtorKey;
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
   * Inserts every debt (all of one company), all or none (one statement), and returns them with
   * their ids, in the order given.
   * @throws ConflictError when any externalRequestId is taken (nothing is inserted then).
   */
  insertAll(debts: NewDebt[]): Promise<Debt[]>;
  /**
   * Inserts the debts whose externalRequestId the company does not have yet, in one statement,
   * and skips the others (a concurrent request may have created them). Answers how many it
   * inserted.
   */
  insertMissing(debts: NewDebt[]): Promise<number>;
  /**
   * The ids of the company's debts with these externalRequestIds (unknown keys are left out):
   * one read of the key's index, for a writer that already holds what the rest of the view shows.
   */
  idsByExternalRequestId(companyId: number, externalRequestIds: string[]): Promise<Map<string, number>>;
  findByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null>;
  /** By the internal number (what other records refer to). */
  findById(companyId: number, id: number): Promise<DebtView | null>;
  findByExternalRequestIds(companyId: number, externalRequestIds: string[]): Promise<DebtView[]>;
  /** Reads the debt and locks it until the transaction ends (FOR UPDATE on MySQL). */
  lockByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null>;
  /** The same, by the internal number: the same row's lock, whichever of the two a transaction takes. */
  lockById(companyId: number, id: number): Promise<DebtView | null>;
  update(companyId: number, id: number, changes: DebtChanges): Promise<DebtView>;
  recordPayment(debtId: number, amountCents: number, source: string, at: Date): Promise<void>;
  /** Newest first, cancelled debts excluded. */
  list(companyId: number, filter: DebtFilter, page: PageRequest): Promise<Page<ListedDebt>>;
  /** Cancels the subscription's unpaid debts (PENDING, OVERDUE); returns them as they now read, by id. */
  cancelUnpaidOfSubscription(subscriptionId: number, at: Date): Promise<DebtView[]>;
  /** Due dates that already have a debt of the subscription that is not CANCELLED. */
  liveDueDatesOfSubscription(subscriptionId: number): Promise<string[]>;
  /** The subscription's debts that are neither PAID nor CANCELLED, by due date. */
  openOfSubscription(subscriptionId: number): Promise<DebtView[]>;
  /**
   * Autopay debts to collect now: unpaid (PENDING, OVERDUE, PARTIALLY_PAID), due on or before
   * `today`, whose user still has an ACTIVE adhesion to the debt's product, and either not
   * attempted yet or refused with a retry due on or before `today`; by due date.
   */
  dueForDebit(scope: DebitScope, limit: number): Promise<DebtView[]>;
  /** The adhesion request of these debts could not be emitted: autopay false with that reason. */
  withdrawAutopay(companyId: number, ids: number[], reason: AutopayReason, at: Date): Promise<void>;
  /**
   * Persists OVERDUE for up to `limit` of the organization's PENDING debts due before `today`, the
   * earliest due first (then by id), locking them for the caller's transaction; returns them as
   * they now read, by id.
   */
  markOverdue(organizationId: number, today: string, at: Date, limit: number): Promise<DebtView[]>;
}
