import type { DebtorKey } from './contact-repository';
import type { Page, PageRequest } from '../internal/shared/page';
import type { Subscription, SubscriptionStatus } from '../internal/subscriptions/subscription';

export type NewSubscription = Omit<Subscription, 'id'>;

/** A subscription as read: with its embedded contact and product. */
export interface SubscriptionView extends Subscription {
  contact: { code: string; externalClientId: string };
  product: { id: number; name: string; active: boolean };
}

export interface SubscriptionFilter {
  /** The effective status (ENDED computed with `today`). */
  status?: SubscriptionStatus;
  today: string;
  debtor?: DebtorKey;
}

export interface SubscriptionChanges {
  amountCents?: number;
  description?: string;
  enforcePaymentOrder?: boolean;
  allowOverduePayment?: boolean;
  autopay?: boolean;
  paymentMethods?: string[] | null;
  additionalData?: Record<string, unknown>;
  status?: SubscriptionStatus;
  resumeCount?: number;
  updatedAt: Date;
}

export interface SubscriptionRepository {
  /** @throws ConflictError when the organization already has the externalSubscriptionId, or the code (the public id) is taken. */
  insert(subscription: NewSubscription): Promise<Subscription>;
  findByCode(companyId: number, code: string): Promise<SubscriptionView | null>;
  findById(id: number): Promise<SubscriptionView | null>;
  findByExternalSubscriptionId(organizationId: number, externalSubscriptionId: string): Promise<SubscriptionView | null>;
  lockByCode(companyId: number, code: string): Promise<SubscriptionView | null>;
  update(companyId: number, id: number, changes: SubscriptionChanges): Promise<SubscriptionView>;
  /**
   * Persists ENDED for up to `limit` of the organization's ACTIVE subscriptions whose last cycle
   * is due before `today`, the earliest last cycle first (then by id), locking them for the
   * caller's transaction; returns them as they now read, by id.
   */
  markEnded(organizationId: number, today: string, at: Date, limit: number): Promise<SubscriptionView[]>;
  /** By externalSubscriptionId descending. */
  list(companyId: number, filter: SubscriptionFilter, page: PageRequest): Promise<Page<SubscriptionView>>;
}
