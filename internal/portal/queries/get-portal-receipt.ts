import type { Clock } from '../../../ports/clock';
import type { Repositories } from '../../../ports/unit-of-work';
import { debtIdOf, type PaymentMethod } from '../../debts/debt';
import { utcDateOf } from '../../shared/calendar-date';
import type { Currency } from '../../shared/currency';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { subscriptionIdOf } from '../../subscriptions/subscription';
import { chargeOf, payabilityOf, type PortalCharge } from '../portal-charge';
import type { PortalCompany } from '../portal-page';
import { portalScopeOfCompany } from '../portal-scope';

/** The page the payment was made from, for the receipt's way back (the HTTP adapter builds its URL). */
export type ReceiptOrigin =
  | { kind: 'debt'; debtId: string }
  | { kind: 'subscription'; subscriptionId: string }
  | { kind: 'link'; shortCode: string | null; identifier: string; portalUrl: string | null };

export interface PortalReceipt {
  code: string;
  company: PortalCompany;
  scope: TenantScope;
  description: string | null;
  amountCents: number;
  currency: Currency;
  method: PaymentMethod;
  processorReference: string;
  paidAt: Date;
  /** The debt that took the payment, as it reads now (what is left to pay). */
  debt: PortalCharge;
  origin: ReceiptOrigin;
}

const RECEIPT_CODE = /^[A-Za-z0-9]{22}$/;

/** The receipt page of a portal payment, by its unguessable code. */
export class GetPortalReceipt {
  constructor(private readonly deps: { repos: Repositories; clock: Clock }) {
    requireDeps('GetPortalReceipt', deps);
  }

  async execute(code: string, requestId: string | null = null): Promise<PortalReceipt> {
    const { portal, debts, paymentLinks, subscriptions, tenancy } = this.deps.repos;
    const payment = RECEIPT_CODE.test(code) ? await portal.findPaymentByCode(code) : null;
    const scope = payment && (await portalScopeOfCompany(tenancy, this.deps.clock, payment.companyId, requestId));
    const debt = payment && scope && (await debts.findById(scope.company.id, payment.debtId));
    if (!payment || !scope || !debt) throw new NotFoundError('Receipt');
    const today = utcDateOf(scope.clock.now());
    const link = payment.paymentLinkId ? await paymentLinks.findById(scope.company.id, payment.paymentLinkId) : null;
    const subscription = payment.subscriptionId ? await subscriptions.findById(payment.subscriptionId) : null;
    const origin: ReceiptOrigin = link
      ? { kind: 'link', shortCode: link.shortCode, identifier: link.urlIdentifier, portalUrl: scope.company.portalUrl }
      : subscription
        ? { kind: 'subscription', subscriptionId: subscriptionIdOf(subscription) }
        : { kind: 'debt', debtId: debtIdOf(debt) };
    return {
      code: payment.code,
      company: { code: scope.company.code, name: scope.company.name },
      scope,
      description: link?.description ?? debt.description,
      amountCents: payment.amountCents,
      currency: payment.currency,
      method: payment.method,
      processorReference: payment.processorReference,
      paidAt: payment.createdAt,
      debt: chargeOf(debt, today, payabilityOf(debt, today)),
      origin,
    };
  }
}
