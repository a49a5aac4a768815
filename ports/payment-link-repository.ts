import type { LinkListConditions, PaymentLink, PaymentLinkStatus } from '../internal/payment-links/payment-link';
import type { Page, PageRequest } from '../internal/shared/page';

export type NewPaymentLink = Omit<PaymentLink, 'id'>;

/** A link as read: with what its embedded product shows. */
export interface PaymentLinkView extends PaymentLink {
  product: { id: number; name: string; active: boolean } | null;
}

/**
 * A link as integrators name it: its externalPaymentLinkId, unique in its organization (whichever
 * of the organization's companies holds the link). Naming the organization lets a database read
 * the link by that unique key.
 */
export interface PaymentLinkKey {
  organizationId: number;
  externalPaymentLinkId: string;
}

/** The status is the effective one: EXPIRED includes ACTIVE links past expiresAt at `now`. */
export interface PaymentLinkFilter extends LinkListConditions {
  /** The link of that key, if the listed company holds it. */
  key?: PaymentLinkKey;
  code?: string;
}

export interface PaymentLinkChanges {
  description?: string;
  expiresAt?: Date;
  metadata?: Record<string, unknown>;
  status?: PaymentLinkStatus;
  paymentsCount?: number;
  updatedAt: Date;
}

export interface PaymentLinkRepository {
  /** @throws ConflictError when the organization already has the externalPaymentLinkId. */
  insert(link: NewPaymentLink): Promise<PaymentLink>;
  findByCode(companyId: number, code: string): Promise<PaymentLinkView | null>;
  findByExternalPaymentLinkId(organizationId: number, externalPaymentLinkId: string): Promise<PaymentLinkView | null>;
  /** Reads the link and locks it until the transaction ends. */
  lockByCode(companyId: number, code: string): Promise<PaymentLinkView | null>;
  /** By the internal number (a debt's paymentLinkId). */
  findById(companyId: number, id: number): Promise<PaymentLinkView | null>;
  /** A private link by its opaque short code (unique across companies). */
  findByShortCode(shortCode: string): Promise<PaymentLinkView | null>;
  /**
   * The company's public links (no short code) whose portal URL names this identifier, newest
   * first, at most `limit`. Private links are never found by identifier.
   */
  listByUrlIdentifier(companyId: number, urlIdentifier: string, limit: number): Promise<PaymentLinkView[]>;
  lockById(companyId: number, id: number): Promise<PaymentLinkView | null>;
  update(companyId: number, id: number, changes: PaymentLinkChanges): Promise<PaymentLinkView>;
  /** By externalPaymentLinkId descending (links without one last), then newest first. */
  list(companyId: number, filter: PaymentLinkFilter, page: PageRequest): Promise<Page<PaymentLinkView>>;
  /**
   * Persists EXPIRED for up to `limit` of the organization's ACTIVE links at or past expiresAt,
   * the earliest to expire first (then by id), locking them for the caller's transaction; returns
   * them as they now read, by id.
   */
  markExpired(organizationId: number, now: Date, limit: number): Promise<PaymentLinkView[]>;
}
