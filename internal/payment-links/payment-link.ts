import type { Currency } from '../shared/currency';
import { BusinessRuleViolationError, InvalidRequestError } from '../shared/errors';

export const PAYMENT_LINK_STATUSES = ['ACTIVE', 'PAID', 'EXPIRED', 'CANCELLED'] as const;
export type PaymentLinkStatus = (typeof PAYMENT_LINK_STATUSES)[number];

/** A shareable payment URL; an associated debt receives what is paid through it. */
export interface PaymentLink {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `plk_` prefix. */
  code: string;
  externalPaymentLinkId: string | null;
  /** externalRequestId of the debt created with the link. */
  debtExternalRequestId: string;
  /** As stored; read through effectiveLinkStatus(), which adds expiry. */
  status: PaymentLinkStatus;
  amountCents: number;
  currency: Currency;
  description: string;
  singleUse: boolean;
  expiresAt: Date | null;
  successUrl: string | null;
  metadata: Record<string, unknown> | null;
  /** Returned only when no debtor is known. */
  identifierValue: string | null;
  /** The identifier the portal URL is built from (also when not returned). */
  urlIdentifier: string;
  /** Opaque code of the private URL, when the company uses private links. */
  shortCode: string | null;
  productId: number | null;
  productCreatedInline: boolean;
  contactId: number | null;
  paymentsCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export const PAYMENT_LINK_ID_PREFIX = 'plk_';

export function paymentLinkIdOf(link: Pick<PaymentLink, 'code'>): string {
  return PAYMENT_LINK_ID_PREFIX + link.code;
}

/** Paths take the id with or without its prefix. */
export function paymentLinkCodeFromId(id: string): string | null {
  const code = id.startsWith(PAYMENT_LINK_ID_PREFIX) ? id.slice(PAYMENT_LINK_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9]{1,64}$/.test(code) ? code : null;
}

/** An ACTIVE link whose expiresAt has passed reads as EXPIRED at once. */
export function effectiveLinkStatus(link: Pick<PaymentLink, 'status' | 'expiresAt'>, now: Date): PaymentLinkStatus {
  return link.status === 'ACTIVE' && link.expiresAt !== null && link.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : link.status;
}

/**
 * A list's conditions on a link besides its keys: the effective status at `now`, and createdAt
 * between both bounds (milliseconds, inclusive).
 */
export interface LinkListConditions {
  status?: PaymentLinkStatus;
  now: Date;
  createdFrom?: number;
  createdTo?: number;
}

export function meetsListConditions(link: Pick<PaymentLink, 'status' | 'expiresAt' | 'createdAt'>, conditions: LinkListConditions): boolean {
  const createdAt = link.createdAt.getTime();
  return (
    (conditions.status === undefined || effectiveLinkStatus(link, conditions.now) === conditions.status) &&
    (conditions.createdFrom === undefined || createdAt >= conditions.createdFrom) &&
    (conditions.createdTo === undefined || createdAt <= conditions.createdTo)
  );
}

/** PATCH: PAID, EXPIRED and CANCELLED links cannot be edited (checked before the body). */
export function assertLinkEditable(link: Pick<PaymentLink, 'status' | 'expiresAt'>, now: Date): void {
  const status = effectiveLinkStatus(link, now);
  if (status !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${status} payment link cannot be modified`);
}

/** Payments only while ACTIVE. */
export function assertLinkPayable(link: Pick<PaymentLink, 'status' | 'expiresAt'>, now: Date): void {
  const status = effectiveLinkStatus(link, now);
  if (status !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${status} payment link accepts no payment`);
}

/** expiresAt must be strictly after the organization's now. */
export function assertFutureExpiry(expiresAt: Date, now: Date, field = 'expiresAt'): void {
  if (expiresAt.getTime() <= now.getTime()) throw InvalidRequestError.field(field, 'must be in the future');
}

/** Rule 1: lowercase, alphanumerics and hyphens, at most 64 characters; empty is an error. */
export function sanitizeIdentifier(input: string, field = 'identifierValue'): string {
  const value = foldToIdentifier(input).slice(0, 64).replace(/-+$/g, '');
  if (!value) throw InvalidRequestError.field(field, 'is empty after keeping lowercase letters, digits and hyphens');
  return value;
}

/** Rule 2's synthetic value: 3 letters of the organization name (else `lnk`), a hyphen, random text. */
export function syntheticIdentifier(organizationName: string, random: string): string {
  const letters = foldToIdentifier(organizationName).replace(/[^a-z0-9]/g, '');
  return `${letters.length >= 3 ? letters.slice(0, 3) : 'lnk'}-${random.toLowerCase()}`;
}

function foldToIdentifier(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[\s_]+/g, '-')
    .replace(/[^a-z0-9-]/g, '')
    .replace(/-{2,}/g, '-')
    .replace(/^-+/g, '');
}
