import type { PaymentMethod } from '../debts/debt';
import type { Currency } from '../shared/currency';
import { BusinessRuleViolationError } from '../shared/errors';
import type { Schedule } from './schedule';

export const SUBSCRIPTION_STATUSES = ['ACTIVE', 'PAUSED', 'ENDED', 'CANCELLED'] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

/** A recurring charge: one debt per cycle, generated upfront by the workers. */
export interface Subscription {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `sub_` prefix. */
  code: string;
  externalSubscriptionId: string;
  contactId: number;
  contactCreatedInline: boolean;
  productId: number;
  productCreatedInline: boolean;
  /**
   * As stored: ACTIVE, PAUSED, CANCELLED, or ENDED once the `subscriptions.mark-ended` job
   * persisted it; ENDED is also computed on read before that.
   */
  status: SubscriptionStatus;
  amountCents: number;
  currency: Currency;
  schedule: Schedule;
  /** The endDate, else the due date of the last cycle; null when open-ended. ENDED after it. */
  lastDueDate: string | null;
  enforcePaymentOrder: boolean;
  autopay: boolean;
  allowOverduePayment: boolean;
  allowPartialPayments: boolean;
  paymentMethods: PaymentMethod[] | null;
  description: string | null;
  additionalData: Record<string, unknown> | null;
  resumeCount: number;
  createdAt: Date;
  updatedAt: Date;
}

export const SUBSCRIPTION_ID_PREFIX = 'sub_';

export function subscriptionIdOf(subscription: Pick<Subscription, 'code'>): string {
  return SUBSCRIPTION_ID_PREFIX + subscription.code;
}

export function subscriptionCodeFromId(id: string): string | null {
  const code = id.startsWith(SUBSCRIPTION_ID_PREFIX) ? id.slice(SUBSCRIPTION_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9-]{1,64}$/.test(code) ? code : null;
}

/** An ACTIVE subscription whose last cycle is due before today reads ENDED. */
export function effectiveSubscriptionStatus(s: Pick<Subscription, 'status' | 'lastDueDate'>, today: string): SubscriptionStatus {
  return s.status === 'ACTIVE' && s.lastDueDate !== null && s.lastDueDate < today ? 'ENDED' : s.status;
}

/** PATCH and pause need ACTIVE: ENDED, CANCELLED and PAUSED are not modifiable. */
export function assertModifiable(s: Pick<Subscription, 'status' | 'lastDueDate'>, today: string): void {
  const status = effectiveSubscriptionStatus(s, today);
  if (status !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${status} subscription cannot be modified`);
}

/** The externalRequestId of a cycle's debt. */
export function cycleRequestId(externalSubscriptionId: string, cycle: number, resume = 0): string {
  return resume === 0 ? `${externalSubscriptionId}-cycle-${cycle}` : `${externalSubscriptionId}-resume-${resume}-cycle-${cycle}`;
}
