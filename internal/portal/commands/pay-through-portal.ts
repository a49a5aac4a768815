import type { IdGenerator } from '../../../ports/id-generator';
import type { PaymentProcessor } from '../../../ports/payment-processor';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { applyDebtPayment } from '../../debts/apply-debt-payment';
import type { PaymentMethod } from '../../debts/debt';
import { applyLinkPayment } from '../../payment-links/commands/pay-payment-link';
import { utcDateOf } from '../../shared/calendar-date';
import { ConflictError, InvalidRequestError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import { type CardInput, parseCard } from '../card';
import { PROCESSOR_METHODS } from '../portal-charge';
import { NotPayableError, PaymentDeclinedError } from '../payment-declined';
import type { PortalCharge } from '../portal-charge';
import type { PortalPage } from '../portal-page';
import { RECEIPT_CODE_LENGTH, SUBMISSION_KEY, type PortalPayment } from '../portal-payment';
import type { PortalTarget } from '../portal-target';
import type { GetPortalPage } from '../queries/get-portal-page';

export interface PortalPaymentInput {
  target: PortalTarget;
  /** On a subscription page: the cycle paid (`debt_…`). */
  cycleDebtId?: string;
  /** Undefined pays the whole remaining amount. */
  amountCents?: number;
  method: string;
  card?: CardInput;
  /** The form's own key: sending the same form twice pays once. */
  submissionKey: string;
}

export interface PortalPaymentOutcome {
  receiptCode: string;
  /** The link's successUrl, when the payment went through a link that has one. */
  successUrl: string | null;
  /** True when this submission had already paid (the form was sent again). */
  replayed: boolean;
}

export const PORTAL_PAYMENT_SOURCE = 'portal';

/**
 * A payment from the hosted portal: the rules are checked as the page showed them, the
 * processor charges (idempotently, keyed by the form submission), then the payment goes through
 * the same use case as every other payment path (applyDebtPayment, or applyLinkPayment for a
 * link) together with its receipt, in one transaction. If that transaction refuses the payment
 * (the debt changed since the check), the charge is refunded. A submission that already paid
 * answers its receipt again, charging nothing.
 */
export class PayThroughPortal {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; ids: IdGenerator; paymentProcessor: PaymentProcessor; getPortalPage: GetPortalPage }) {
    requireDeps('PayThroughPortal', deps);
  }

  async execute(input: PortalPaymentInput, requestId: string | null = null): Promise<PortalPaymentOutcome> {
    if (!SUBMISSION_KEY.test(input.submissionKey)) throw InvalidRequestError.field('submission', 'is not a form key');
    const page = await this.deps.getPortalPage.execute(input.target, requestId);
    const { scope } = page;
    const successUrl = successUrlOf(page);
    const earlier = await this.deps.repos.portal.findPaymentBySubmission(scope.company.id, input.submissionKey);
    if (earlier) return { receiptCode: earlier.code, successUrl, replayed: true };

    const charge = chargeToPay(page, input.cycleDebtId);
    if (!charge.payability.payable) throw new NotPayableError(charge.payability.reason);
    const method = input.method as PaymentMethod;
    if (!charge.payability.methods.includes(method) || !PROCESSOR_METHODS.includes(method)) {
      throw InvalidRequestError.field('method', 'is not a method this charge can be paid with');
    }
    const amountCents = amountToPay(charge.remainingCents, charge.payability.partial, input.amountCents);
    const card = method === 'CARD' ? parseCard(input.card ?? {}, utcDateOf(scope.clock.now()), { requireCvc: true }) : undefined;

    const idempotencyKey = `${scope.company.code}:${input.submissionKey}`;
    const result = await this.deps.paymentProcessor.charge({
      idempotencyKey, amountCents, currency: charge.currency, method, card, description: charge.description ?? scope.company.name,
    });
    if (result.status === 'DECLINED') throw new PaymentDeclinedError(result.reason);

    try {
      const receipt = await this.deps.uow.run(async (tx) => {
        const paid = page.kind === 'link'
          ? (await applyLinkPayment(tx, page.link.paymentLinkId, amountCents, PORTAL_PAYMENT_SOURCE, scope)).debt
          : await applyDebtPayment(tx, charge.debtId, amountCents, PORTAL_PAYMENT_SOURCE, scope);
        return tx.portal.insertPayment({
          organizationId: scope.organizationId,
          companyId: scope.company.id,
          code: this.deps.ids.alphanumeric(RECEIPT_CODE_LENGTH),
          submissionKey: input.submissionKey,
          debtId: paid.id,
          paymentLinkId: paid.paymentLinkId ?? null,
          subscriptionId: paid.subscriptionId ?? null,
          amountCents,
          currency: charge.currency,
          method,
          processorReference: result.reference,
          createdAt: scope.clock.now(),
        });
      });
      return { receiptCode: receipt.code, successUrl, replayed: false };
    } catch (error) {
      // The same form sent twice at once: the other request recorded the payment (and the
      // processor charged once, for both, by the same key).
      const winner = error instanceof ConflictError ? await this.replayOf(scope.company.id, input.submissionKey) : null;
      if (winner) return { receiptCode: winner.code, successUrl, replayed: true };
      // Not applied (the debt changed since the check, or the database failed): give the money back.
      try {
        await this.deps.paymentProcessor.refund({ idempotencyKey: `refund:${idempotencyKey}`, reference: result.reference, amountCents, currency: charge.currency });
      } catch (refundError) {
        throw new Error(`portal payment ${idempotencyKey} not applied (${(error as Error).message}); its refund failed: ${(refundError as Error).message}`);
      }
      throw error;
    }
  }

  private replayOf(companyId: number, submissionKey: string): Promise<PortalPayment | null> {
    return this.deps.repos.portal.findPaymentBySubmission(companyId, submissionKey);
  }
}

export function chargeToPay(page: PortalPage, cycleDebtId: string | undefined): PortalCharge {
  switch (page.kind) {
    case 'debt':
    case 'link':
      return page.charge;
    case 'subscription': {
      const cycle = page.cycles.find((c) => c.debtId === cycleDebtId);
      if (!cycle) throw InvalidRequestError.field('cycle', 'is not a cycle of this subscription');
      return cycle;
    }
    case 'link-choice':
      throw InvalidRequestError.field('link', 'choose one of the links first');
  }
}

/** The whole remaining amount, or a part of it where the charge allows partial payments. */
export function amountToPay(remainingCents: number, partial: boolean, amountCents: number | undefined): number {
  if (amountCents === undefined) return remainingCents;
  if (!Number.isSafeInteger(amountCents) || amountCents < 1) throw InvalidRequestError.field('amount', 'must be at least 0.01');
  if (amountCents > remainingCents) throw InvalidRequestError.field('amount', 'must not exceed the remaining amount');
  if (amountCents < remainingCents && !partial) throw InvalidRequestError.field('amount', 'must be the whole remaining amount');
  return amountCents;
}

function successUrlOf(page: PortalPage): string | null {
  if (page.kind === 'link') return page.link.successUrl;
  if (page.kind === 'debt') return page.link?.successUrl ?? null;
  return null;
}
