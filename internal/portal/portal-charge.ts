import type { ListedDebt } from '../../ports/debt-repository';
import { allowsPartialPayment, debtIdOf, type DebtStatus, effectiveStatus, PAYMENT_METHODS, type PaymentMethod, remainingCents } from '../debts/debt';
import type { PaymentLinkStatus } from '../payment-links/payment-link';
import type { Currency } from '../shared/currency';

/**
 * The choices a debtor has on the page, in this order: CARD and WALLET are charged at once by the
 * payment processor; TRANSFER (one choice for the debt's TRANSFER and BANK_TRANSFER) and CASH give
 * the debtor a payment instruction (an account, a voucher) and are paid when the money arrives.
 */
export const PORTAL_METHODS: readonly PaymentMethod[] = ['CARD', 'TRANSFER', 'CASH', 'WALLET'];

/** The page methods the payment processor charges at once. */
export const PROCESSOR_METHODS: readonly PaymentMethod[] = ['CARD', 'WALLET'];

/** Why a charge cannot be paid on the portal now. */
export type NotPayableReason =
  | 'PAID'
  | 'CANCELLED'
  | 'LINK_EXPIRED'
  | 'LINK_CANCELLED'
  | 'LINK_PAID'
  | 'OVERDUE_NOT_ALLOWED'
  | 'EARLIER_CYCLE_UNPAID'
  | 'NO_ONLINE_METHOD';

export type Payability =
  | { payable: true; partial: boolean; methods: PaymentMethod[] }
  | { payable: false; reason: NotPayableReason };

/** One payable thing on a page: a debt, a link's debt, or a subscription cycle. */
export interface PortalCharge {
  /** Public id (`debt_…`). */
  debtId: string;
  description: string | null;
  amountCents: number;
  amountPaidCents: number;
  remainingCents: number;
  currency: Currency;
  dueDate: string;
  /** The effective status (a PENDING debt past due reads OVERDUE). */
  status: DebtStatus;
  payability: Payability;
}

/** The page's choices for a debt (all of them when it names none); TRANSFER stands for BANK_TRANSFER too. */
export function onlineMethodsOf(debt: Pick<ListedDebt, 'paymentMethods'>): PaymentMethod[] {
  const allowed = debt.paymentMethods ?? [...PAYMENT_METHODS];
  return PORTAL_METHODS.filter((m) => allowed.includes(m) || (m === 'TRANSFER' && allowed.includes('BANK_TRANSFER')));
}

/**
 * The same rules the payment use case applies (state table, overdue, the debt's link, payment
 * order), read without locking so a page can say at once whether it offers a form. The use case
 * checks them again under lock when the form is sent.
 */
export function payabilityOf(
  debt: ListedDebt,
  today: string,
  context: { linkStatus?: PaymentLinkStatus; earlierCycleUnpaid?: boolean } = {},
): Payability {
  const status = effectiveStatus(debt, today);
  if (context.linkStatus === 'EXPIRED') return { payable: false, reason: 'LINK_EXPIRED' };
  if (context.linkStatus === 'CANCELLED') return { payable: false, reason: 'LINK_CANCELLED' };
  if (context.linkStatus === 'PAID') return { payable: false, reason: 'LINK_PAID' };
  if (status === 'PAID' || status === 'CANCELLED') return { payable: false, reason: status };
  if (debt.dueDate < today && !debt.allowOverduePayment) return { payable: false, reason: 'OVERDUE_NOT_ALLOWED' };
  if (context.earlierCycleUnpaid) return { payable: false, reason: 'EARLIER_CYCLE_UNPAID' };
  const methods = onlineMethodsOf(debt);
  if (methods.length === 0) return { payable: false, reason: 'NO_ONLINE_METHOD' };
  return { payable: true, partial: allowsPartialPayment(debt, today), methods };
}

export function chargeOf(debt: ListedDebt, today: string, payability: Payability): PortalCharge {
  return {
    debtId: debtIdOf(debt),
    description: debt.description,
    amountCents: debt.amountCents,
    amountPaidCents: debt.amountPaidCents,
    remainingCents: remainingCents(debt),
    currency: debt.currency,
    dueDate: debt.dueDate,
    status: effectiveStatus(debt, today),
    payability,
  };
}
