import type { InstructionMethod } from '../payment-instructions/payment-instruction';
import type { PaymentLinkStatus } from '../payment-links/payment-link';
import type { Currency } from '../shared/currency';
import type { TenantScope } from '../shared/tenant-scope';
import type { SubscriptionStatus } from '../subscriptions/subscription';
import type { PortalCharge } from './portal-charge';
import type { PortalDebtor } from './debtor-name';

/** The creditor, as the debtor sees it. */
export interface PortalCompany {
  code: string;
  name: string;
}

export interface PortalLink {
  /** Public id (`plk_…`). */
  paymentLinkId: string;
  description: string;
  amountCents: number;
  currency: Currency;
  status: PaymentLinkStatus;
  singleUse: boolean;
  expiresAt: Date | null;
  successUrl: string | null;
  paymentsCount: number;
}

export interface PortalSubscription {
  subscriptionId: string;
  description: string | null;
  status: SubscriptionStatus;
  amountCents: number;
  currency: Currency;
  enforcePaymentOrder: boolean;
}

/** A PENDING payment instruction of the page's charge: the debtor was given it and the money has not arrived. */
export interface PortalInstruction {
  /** Public ids (`pin_…`, `debt_…`). */
  paymentInstructionId: string;
  debtId: string;
  method: InstructionMethod;
  amountCents: number;
  currency: Currency;
  expiresAt: Date;
}

/**
 * What a hosted payment page shows: everything the HTML needs, nothing it must look up. `debtor`
 * is the charge's contact (null without one), partial on pages found by a public identifier.
 */
export type PortalPage = { company: PortalCompany; scope: TenantScope } & (
  | { kind: 'debt'; charge: PortalCharge; link: PortalLink | null; debtor: PortalDebtor | null; instructions: PortalInstruction[] }
  /** A link; `charge` is what one payment through it takes (a reusable link: its amount, every time). */
  | { kind: 'link'; link: PortalLink; charge: PortalCharge; debtor: PortalDebtor | null; instructions: PortalInstruction[] }
  /** Several ACTIVE public links share the identifier: the debtor picks one. */
  | { kind: 'link-choice'; identifier: string; links: PortalLink[] }
  /** Every live cycle in due-date order (cancelled cycles are not shown, as in the API's lists). */
  | { kind: 'subscription'; subscription: PortalSubscription; cycles: PortalCharge[]; debtor: PortalDebtor | null; instructions: PortalInstruction[] }
);
