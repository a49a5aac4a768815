import type { Clock } from '../../../ports/clock';
import type { DebtView, ListedDebt } from '../../../ports/debt-repository';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { SubscriptionView } from '../../../ports/subscription-repository';
import type { Repositories } from '../../../ports/unit-of-work';
import { debtIdOf } from '../../debts/debt';
import { findDebt } from '../../debts/find-debt';
import { effectiveInstructionStatus, paymentInstructionIdOf } from '../../payment-instructions/payment-instruction';
import { effectiveLinkStatus, paymentLinkIdOf } from '../../payment-links/payment-link';
import { utcDateOf } from '../../shared/calendar-date';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findSubscription } from '../../subscriptions/find-subscription';
import { effectiveSubscriptionStatus, subscriptionIdOf } from '../../subscriptions/subscription';
import { chargeOf, onlineMethodsOf, type Payability, payabilityOf, type PortalCharge } from '../portal-charge';
import type { PortalInstruction, PortalLink, PortalPage } from '../portal-page';
import { portalScopeOfCode, portalScopeOfCompany } from '../portal-scope';
import { SHORT_CODE_PATTERN, type PortalTarget } from '../portal-target';
import { type PortalDebtor, portalDebtor } from '../debtor-name';

/** At most this many public links are considered for one identifier (newest first). */
export const LINKS_PER_IDENTIFIER = 20;
/** A subscription has at most 520 cycles; resumes add cycles, cancelled ones are not listed. */
const MAX_CYCLES = 2000;
const IDENTIFIER = /^[a-z0-9-]{1,64}$/;

/**
 * The hosted payment page of a debt, a payment link or a subscription: the creditor, the
 * charge, its state, and whether (and how) it can be paid now. Anything unknown, or of another
 * company than the URL names, is 404 (the page does not say which).
 */
export class GetPortalPage {
  constructor(private readonly deps: { repos: Repositories; clock: Clock }) {
    requireDeps('GetPortalPage', deps);
  }

  async execute(target: PortalTarget, requestId: string | null = null): Promise<PortalPage> {
    switch (target.kind) {
      case 'debt':
        return this.debtPage(await this.scopeOf(target.companyCode, requestId), target.debtId);
      case 'subscription':
        return this.subscriptionPage(await this.scopeOf(target.companyCode, requestId), target.subscriptionId);
      case 'short-code':
        return this.shortCodePage(target.shortCode, requestId);
      case 'identifier':
        return this.identifierPage(await this.scopeOf(target.companyCode, requestId), target.identifier, target.linkId);
    }
  }

  private async scopeOf(companyCode: string, requestId: string | null): Promise<TenantScope> {
    const scope = await portalScopeOfCode(this.deps.repos.tenancy, this.deps.clock, companyCode, requestId);
    if (!scope) throw new NotFoundError('Page');
    return scope;
  }

  private async debtPage(scope: TenantScope, debtId: string): Promise<PortalPage> {
    const { debts, paymentLinks } = this.deps.repos;
    const debt = await findDebt(debts, debtId, scope);
    const today = utcDateOf(scope.clock.now());
    const link = debt.paymentLinkId ? await paymentLinks.findById(scope.company.id, debt.paymentLinkId) : null;
    const linkStatus = link ? effectiveLinkStatus(link, scope.clock.now()) : undefined;
    const earlierCycleUnpaid = debt.subscriptionId ? await this.earlierCycleUnpaid(debt) : false;
    const charge = chargeOf(debt, today, payabilityOf(debt, today, { linkStatus, earlierCycleUnpaid }));
    const debtor = await this.debtorOf(scope, debt.contact, false);
    const instructions = await this.pendingInstructions(scope, [debt]);
    return { kind: 'debt', company: companyOf(scope), scope, charge, link: link ? portalLink(link, scope) : null, debtor, instructions };
  }

  private async earlierCycleUnpaid(debt: DebtView): Promise<boolean> {
    const subscription = await this.deps.repos.subscriptions.findById(debt.subscriptionId!);
    if (!subscription?.enforcePaymentOrder) return false;
    const open = await this.deps.repos.debts.openOfSubscription(subscription.id);
    return open.some((d) => isEarlier(d, debt));
  }

  private async subscriptionPage(scope: TenantScope, subscriptionId: string): Promise<PortalPage> {
    const subscription = await findSubscription(this.deps.repos.subscriptions, subscriptionId, scope);
    const today = utcDateOf(scope.clock.now());
    const listed = await this.deps.repos.debts.list(scope.company.id, { today, subscriptionId: subscription.id }, { page: 1, limit: MAX_CYCLES });
    const cycles = [...listed.items].sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id));
    let earlierOpen = false;
    const charges: PortalCharge[] = cycles.map((debt) => {
      const charge = chargeOf(debt, today, payabilityOf(debt, today, { earlierCycleUnpaid: subscription.enforcePaymentOrder && earlierOpen }));
      if (debt.status !== 'PAID' && debt.status !== 'CANCELLED') earlierOpen = true;
      return charge;
    });
    const debtor = await this.debtorOf(scope, subscription.contact, false);
    const instructions = await this.pendingInstructions(scope, cycles);
    return { kind: 'subscription', company: companyOf(scope), scope, subscription: portalSubscription(subscription, today), cycles: charges, debtor, instructions };
  }

  private async shortCodePage(shortCode: string, requestId: string | null): Promise<PortalPage> {
    const link = SHORT_CODE_PATTERN.test(shortCode) ? await this.deps.repos.paymentLinks.findByShortCode(shortCode) : null;
    const scope = link && (await portalScopeOfCompany(this.deps.repos.tenancy, this.deps.clock, link.companyId, requestId));
    if (!link || !scope) throw new NotFoundError('Page');
    return this.linkPage(scope, link, false);
  }

  private async identifierPage(scope: TenantScope, identifier: string, linkId: string | undefined): Promise<PortalPage> {
    const links = IDENTIFIER.test(identifier) ? await this.deps.repos.paymentLinks.listByUrlIdentifier(scope.company.id, identifier, LINKS_PER_IDENTIFIER) : [];
    if (linkId !== undefined) {
      const chosen = links.find((l) => paymentLinkIdOf(l) === linkId);
      if (!chosen) throw new NotFoundError('Page');
      return this.linkPage(scope, chosen, true);
    }
    if (links.length === 0) throw new NotFoundError('Page');
    const now = scope.clock.now();
    const active = links.filter((l) => effectiveLinkStatus(l, now) === 'ACTIVE');
    if (active.length > 1) {
      return { kind: 'link-choice', company: companyOf(scope), scope, identifier, links: active.map((l) => portalLink(l, scope)) };
    }
    return this.linkPage(scope, active[0] ?? links[0]!, true);
  }

  /** `byIdentifier`: reached by a public identifier, so the debtor's name is only partial. */
  private async linkPage(scope: TenantScope, link: PaymentLinkView, byIdentifier: boolean): Promise<PortalPage> {
    const debt = await this.deps.repos.debts.findByExternalRequestId(scope.company.id, link.debtExternalRequestId);
    if (!debt) throw new NotFoundError('Page');
    const today = utcDateOf(scope.clock.now());
    const linkStatus = effectiveLinkStatus(link, scope.clock.now());
    const debtor = await this.debtorOf(scope, debt.contact, byIdentifier);
    // A reusable link's instruction serves every payer: the page does not show it as someone's pending payment.
    const instructions = link.singleUse ? await this.pendingInstructions(scope, [debt]) : [];
    return { kind: 'link', company: companyOf(scope), scope, link: portalLink(link, scope), charge: linkCharge(link, debt, today, linkStatus), debtor, instructions };
  }

  private async debtorOf(scope: TenantScope, contact: { code: string } | null, partial: boolean): Promise<PortalDebtor | null> {
    const found = contact ? await this.deps.repos.contacts.findByCode(scope.organizationId, contact.code) : null;
    return portalDebtor(found?.name ?? null, partial);
  }

  /** The charge's payment instructions still waiting for money, newest first. */
  private async pendingInstructions(scope: TenantScope, debts: ListedDebt[]): Promise<PortalInstruction[]> {
    const now = scope.clock.now();
    const byId = new Map(debts.map((d) => [d.id, d]));
    const pending = await this.deps.repos.paymentInstructions.listPendingOfDebts(scope.company.id, [...byId.keys()]);
    return pending
      .filter((i) => effectiveInstructionStatus(i, now) === 'PENDING')
      .map((i) => ({
        paymentInstructionId: paymentInstructionIdOf(i), debtId: debtIdOf(byId.get(i.debtId)!), method: i.method, amountCents: i.amountCents,
        currency: i.currency, expiresAt: i.expiresAt,
      }));
  }
}

/**
 * What one payment through the link takes. A single-use link: its debt, under the debt's rules.
 * A reusable one: the link amount, every time, while the link is ACTIVE.
 */
function linkCharge(link: PaymentLinkView, debt: DebtView, today: string, linkStatus: PortalLink['status']): PortalCharge {
  if (link.singleUse) return chargeOf(debt, today, payabilityOf(debt, today, { linkStatus }));
  const methods = onlineMethodsOf(debt);
  const payability: Payability =
    linkStatus !== 'ACTIVE'
      ? payabilityOf(debt, today, { linkStatus })
      : methods.length === 0
        ? { payable: false, reason: 'NO_ONLINE_METHOD' }
        : { payable: true, partial: false, methods };
  return { ...chargeOf(debt, today, payability), amountCents: link.amountCents, amountPaidCents: 0, remainingCents: link.amountCents };
}

/** The order applyDebtPayment enforces: by due date, then by creation. */
export function isEarlier(candidate: Pick<DebtView, 'id' | 'dueDate'>, debt: Pick<DebtView, 'id' | 'dueDate'>): boolean {
  return candidate.id !== debt.id && (candidate.dueDate < debt.dueDate || (candidate.dueDate === debt.dueDate && candidate.id < debt.id));
}

function companyOf(scope: TenantScope) {
  return { code: scope.company.code, name: scope.company.name };
}

function portalLink(link: PaymentLinkView, scope: TenantScope): PortalLink {
  return {
    paymentLinkId: paymentLinkIdOf(link),
    description: link.description,
    amountCents: link.amountCents,
    currency: link.currency,
    status: effectiveLinkStatus(link, scope.clock.now()),
    singleUse: link.singleUse,
    expiresAt: link.expiresAt,
    successUrl: link.successUrl,
    paymentsCount: link.paymentsCount,
  };
}

function portalSubscription(subscription: SubscriptionView, today: string) {
  return {
    subscriptionId: subscriptionIdOf(subscription),
    description: subscription.description,
    status: effectiveSubscriptionStatus(subscription, today),
    amountCents: subscription.amountCents,
    currency: subscription.currency,
    enforcePaymentOrder: subscription.enforcePaymentOrder,
  };
}
