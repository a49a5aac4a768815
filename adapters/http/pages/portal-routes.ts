import type { RouteTable } from '../segment-router';
import type { Context } from 'koa';
import { PaymentDeclinedError } from '../../../internal/portal/payment-declined';
import type { PortalPage } from '../../../internal/portal/portal-page';
import type { PortalTarget } from '../../../internal/portal/portal-target';
import type { Currency } from '../../../internal/shared/currency';
import { BusinessRuleViolationError, InvalidRequestError } from '../../../internal/shared/errors';
import { EMPTY_FORM, type FormState } from './components';
import { isInstructionMethod } from './instruction-routes';
import { parseAmount } from './locale';
import { fieldErrors, formValues, originUrl, type PageKit, required } from './page-kit';
import { httpOrigin, readForm, setPageHeaders } from './page-security';
import { portalDocument, receiptDocument } from './payment-pages';

/**
 * The payment portal behind every paymentUrl (a debt, a subscription, a link by short code or by
 * identifier): the page, its payment form (card, or a transfer or cash instruction), and the
 * receipts.
 */
export function portalPages(router: RouteTable, kit: PageKit): void {
  const { app, portal, csrf, page, renderContext, send, newForm, formExpired } = kit;


  const portalRoute = (path: string, targetOf: (ctx: Context) => PortalTarget | null, byIdentifier = false) => {
    router.get(path, page(async (ctx) => showPortal(ctx, required(targetOf(ctx))), byIdentifier));
    router.post(path, page(async (ctx) => payPortal(ctx, required(targetOf(ctx))), byIdentifier));
  };
  portalRoute('/pay/:companyCode/debts/:debtId/:signature', (ctx) => {
    const { companyCode, debtId, signature } = ctx.params as Record<string, string>;
    return portal.verifyDebt(companyCode, debtId, signature) ? { kind: 'debt', companyCode, debtId } : null;
  });
  portalRoute('/pay/:companyCode/subscriptions/:subscriptionId/:signature', (ctx) => {
    const { companyCode, subscriptionId, signature } = ctx.params as Record<string, string>;
    return portal.verifySubscription(companyCode, subscriptionId, signature) ? { kind: 'subscription', companyCode, subscriptionId } : null;
  });
  portalRoute('/l/:shortCode', (ctx) => ({ kind: 'short-code', shortCode: ctx.params.shortCode! }));
  portalRoute('/pay/:companyCode/:identifier', (ctx) => ({ kind: 'identifier', companyCode: ctx.params.companyCode!, identifier: ctx.params.identifier! }), true);
  portalRoute('/pay/:companyCode/:identifier/:linkId', (ctx) => ({
    kind: 'identifier', companyCode: ctx.params.companyCode!, identifier: ctx.params.identifier!, linkId: ctx.params.linkId!,
  }), true);

  async function showPortal(ctx: Context, target: PortalTarget, state: FormState = EMPTY_FORM, status = 200): Promise<void> {
    const found = await app.queries.getPortalPage.execute(target, ctx.state.requestId);
    const r = renderContext(ctx, currencyOf(found), found.company.code);
    send(ctx, status, portalDocument(found, r, newForm(ctx), state), r, successOrigins(found));
  }

  async function payPortal(ctx: Context, target: PortalTarget): Promise<void> {
    const form = await readForm(ctx);
    if (!csrf.verify(ctx, form)) return formExpired(ctx);
    const other = form.get('amountChoice') === 'partial';
    const amountCents = other ? parseAmount(form.get('amount') ?? '') : undefined;
    const values = formValues(form);
    if (amountCents === null) return showPortal(ctx, target, { values, errors: [{ field: 'amount', issue: 'is not an amount' }] }, 400);
    try {
      // Transfer and cash: the debtor gets an account or a voucher, and its page waits for the money.
      const method = form.get('method') ?? '';
      if (isInstructionMethod(method)) {
        const given = await app.commands.instructThroughPortal.execute({ target, cycleDebtId: form.get('cycle') ?? undefined, amountCents, method }, ctx.state.requestId);
        ctx.status = 303;
        setPageHeaders(ctx);
        return ctx.redirect(new URL(portal.instructionUrl(given)).pathname);
      }
      const outcome = await app.commands.payThroughPortal.execute(
        {
          target,
          cycleDebtId: form.get('cycle') ?? undefined,
          amountCents,
          method: form.get('method') ?? '',
          card: { number: form.get('cardNumber') ?? '', expiry: form.get('cardExpiry') ?? '', cvc: form.get('cardCvc') ?? '' },
          submissionKey: form.get('submission') ?? '',
        },
        ctx.state.requestId,
      );
      const successUrl = httpOrigin(outcome.successUrl) ? outcome.successUrl! : null;
      ctx.status = 303;
      setPageHeaders(ctx);
      ctx.redirect(successUrl ?? `/receipts/${outcome.receiptCode}`);
    } catch (error) {
      if (error instanceof InvalidRequestError) return showPortal(ctx, target, { values, errors: fieldErrors(error) }, 400);
      if (error instanceof PaymentDeclinedError) return showPortal(ctx, target, { values, errors: [], banner: (t) => t.declined(error.reason) }, 402);
      // NotPayableError (checked before charging) or a refusal under lock (the charge was refunded).
      if (error instanceof BusinessRuleViolationError) return showPortal(ctx, target, { values, errors: [], banner: (t) => t.ruleRefused }, 422);
      throw error;
    }
  }

  router.get('/receipts/:code', page(async (ctx) => {
    const receipt = await app.queries.getPortalReceipt.execute(ctx.params.code!, ctx.state.requestId);
    const r = renderContext(ctx, receipt.currency);
    const back = originUrl(portal, receipt.company.code, receipt.origin);
    send(ctx, 200, receiptDocument(receipt, r, back), r);
  }));
}

function currencyOf(page: PortalPage): Currency {
  switch (page.kind) {
    case 'debt':
    case 'link':
      return page.charge.currency;
    case 'link-choice':
      return page.links[0]!.currency;
    case 'subscription':
      return page.subscription.currency;
  }
}

/** A link's successUrl origin may receive the redirect that follows its payment (CSP form-action). */
function successOrigins(page: PortalPage): string[] {
  const url = page.kind === 'link' ? page.link.successUrl : page.kind === 'debt' ? (page.link?.successUrl ?? null) : null;
  const origin = httpOrigin(url);
  return origin ? [origin] : [];
}
