import Router from '@koa/router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Application } from '../../../internal/application';
import { paymentMethodIdOf } from '../../../internal/direct-debit/payment-method';
import { EnrollmentExpiredError } from '../../../internal/direct-debit/enrollment-grant';
import { PaymentDeclinedError } from '../../../internal/portal/payment-declined';
import type { PortalPage } from '../../../internal/portal/portal-page';
import type { PortalTarget } from '../../../internal/portal/portal-target';
import type { Currency } from '../../../internal/shared/currency';
import { BusinessRuleViolationError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { RateLimiter, RateLimitPolicy } from '../../../ports/rate-limiter';
import type { HostedPaymentPortal } from '../../gateways/hosted-payment-portal';
import type { PageSigner } from '../../security/page-signer';
import { failOpen } from '../middleware/rate-limit';
import { ASSETS } from './assets';
import { EMPTY_FORM, type FormContext, type FormState } from './components';
import { enrolledDocument, enrollmentDocument } from './enrollment-pages';
import { type Document, layout } from './layout';
import { chooseLocale, parseAmount } from './locale';
import { messagesFor } from './messages';
import { CsrfTokens, httpOrigin, newSubmissionKey, readForm, setPageHeaders, UnsupportedFormError } from './page-security';
import { messageDocument, portalDocument, receiptDocument, type RenderContext } from './payment-pages';
import { instructionDocument } from './instruction-pages';
import { unsubscribePages } from './unsubscribe-pages';
import { chooseVoucherLocale, instructionLinks, isInstructionMethod, sendBarcode, sendVoucher } from './instruction-routes';

export interface HostedPagesOptions {
  app: Application;
  /** Builds and verifies the signed page URLs. */
  portal: HostedPaymentPortal;
  /** Signs the forms' CSRF tokens. */
  signer: PageSigner;
  /** Code lookups are limited per client address (a shared bucket when the limiter is shared). */
  rateLimiter: RateLimiter;
  lookupLimit?: RateLimitPolicy;
  /** Public links by identifier (guessable) take a token of this bucket per address too. */
  identifierLookupLimit?: RateLimitPolicy;
  /** Says on every page that no real money moves (outside production). */
  sandbox: boolean;
  logger: Logger;
}

/** 30 lookups at once per client address, then one every 2 seconds. */
export const DEFAULT_LOOKUP_LIMIT: RateLimitPolicy = { capacity: 30, refillPerSecond: 0.5 };
/**
 * Public link pages by identifier (`/pay/<companyCode>/<identifier>`), whose identifier is often
 * a guessable externalClientId: 10 at once per client address, then one every 6 seconds (10 a
 * minute), on top of the lookup limit. A debtor opening and paying their link needs two or three.
 */
export const DEFAULT_IDENTIFIER_LOOKUP_LIMIT: RateLimitPolicy = { capacity: 10, refillPerSecond: 1 / 6 };

/** Fields a refused form never writes back into the page. */
const SECRET_FIELDS = new Set(['cardNumber', 'cardExpiry', 'cardCvc', 'accountNumber', '_csrf', 'submission']);

/**
 * The hosted pages, served by the API process before its JSON body reader (forms are
 * urlencoded): the payment portal behind every paymentUrl, receipts, and the direct-debit
 * enrollment page. Each route resolves a code or signature through a use case; every page has
 * the strict headers, every form a CSRF token, every lookup the rate limit.
 */
export function hostedPages(options: HostedPagesOptions): ReturnType<Router['routes']> {
  const { app, portal, logger } = options;
  const csrf = new CsrfTokens(options.signer);
  const limit = options.lookupLimit ?? DEFAULT_LOOKUP_LIMIT;
  const identifierLimit = options.identifierLookupLimit ?? DEFAULT_IDENTIFIER_LOOKUP_LIMIT;
  // Like every bucket of the API: when the limiter's store does not answer, pages go through (logged, counted).
  const consume = failOpen(options.rateLimiter, logger, undefined);
  const router = new Router();

  router.get('/assets/:name', (ctx) => {
    const asset = ASSETS.get(ctx.params.name!);
    setPageHeaders(ctx);
    if (!asset) {
      ctx.status = 404;
      ctx.type = 'text/plain';
      ctx.body = 'Not found';
      return;
    }
    ctx.set('Cache-Control', 'public, max-age=3600');
    ctx.set('ETag', asset.etag);
    if (ctx.get('if-none-match') === asset.etag) {
      ctx.status = 304;
      return;
    }
    ctx.type = asset.type;
    ctx.body = asset.body;
  });

  /**
   * Rate limit (the address's lookup bucket; `byIdentifier` pages also its identifier bucket),
   * then the handler; anything it throws becomes a page, never an error dump.
   */
  const page = (handler: (ctx: Context) => Promise<void>, byIdentifier = false) => async (ctx: Context) => {
    const requestId = ctx.state.requestId;
    // The identifier bucket first: guesses it refuses do not also drain the address's lookups of signed and private pages.
    let decision = byIdentifier ? await consume(`pages-identifier:${ctx.ip}`, identifierLimit, requestId) : null;
    if (decision?.allowed !== false) decision = await consume(`pages:${ctx.ip}`, limit, requestId);
    if (decision && !decision.allowed) {
      ctx.set('Retry-After', String(decision.retryAfterSeconds));
      const r = renderContext(ctx, null);
      return send(ctx, 429, messageDocument(r.t.tooManyTitle, r.t.tooManyText(decision.retryAfterSeconds)), r);
    }
    try {
      await handler(ctx);
    } catch (error) {
      const r = renderContext(ctx, null);
      if (error instanceof NotFoundError) return send(ctx, 404, messageDocument(r.t.notFoundTitle, r.t.notFoundText), r);
      if (error instanceof UnsupportedFormError) return send(ctx, 415, messageDocument(r.t.formExpiredTitle, r.t.formExpiredText), r);
      // A body the form reader refused (over 16 KiB, bad encoding): the client's fault, not ours.
      const status = (error as { status?: unknown }).status;
      if (typeof status === 'number' && status >= 400 && status < 500) return send(ctx, status, messageDocument(r.t.formExpiredTitle, r.t.formExpiredText), r);
      const posting = ctx.method === 'POST';
      logger.error({ err: error, requestId: ctx.state.requestId }, 'hosted page failed');
      send(ctx, posting ? 503 : 500, posting ? messageDocument(r.t.unavailableTitle, r.t.unavailableText) : messageDocument(r.t.errorTitle, r.t.errorText), r);
    }
  };

  const notFound = page(async () => {
    throw new NotFoundError('Page');
  });

  // ----- payment portal -----

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
    const { origin } = receipt;
    const companyCode = receipt.company.code;
    const back =
      origin.kind === 'debt'
        ? portal.debtUrl({ companyCode, debtId: origin.debtId })
        : origin.kind === 'subscription'
          ? portal.subscriptionUrl({ companyCode, subscriptionId: origin.subscriptionId })
          : portal.linkUrl({ companyCode, portalUrl: origin.portalUrl, shortCode: origin.shortCode, identifier: origin.identifier });
    send(ctx, 200, receiptDocument(receipt, r, back), r);
  }));

  // ----- direct-debit enrollment -----

  const grantOf = (ctx: Context) => required(portal.openEnrollment(ctx.params.token!));

  router.get('/enroll/:token', page(async (ctx) => showEnrollment(ctx)));

  async function showEnrollment(ctx: Context, state: FormState = EMPTY_FORM, status = 200): Promise<void> {
    const grant = grantOf(ctx);
    const found = await app.queries.getEnrollmentPage.execute(grant, ctx.state.requestId);
    const r = renderContext(ctx, grant.currency);
    send(ctx, found.status === 'EXPIRED' ? 410 : status, enrollmentDocument(found, r, newForm(ctx), state), r);
  }

  router.post('/enroll/:token', page(async (ctx) => {
    const grant = grantOf(ctx);
    const form = await readForm(ctx);
    if (!csrf.verify(ctx, form)) return formExpired(ctx);
    const values = formValues(form);
    try {
      const { method } = await app.commands.enrollThroughPage.execute(
        {
          grant,
          type: form.get('type') ?? '',
          accountNumber: form.get('accountNumber') ?? '',
          card: { number: form.get('cardNumber') ?? '', expiry: form.get('cardExpiry') ?? '' },
          makeDefault: form.get('makeDefault') === 'on',
          submissionKey: form.get('submission') ?? '',
        },
        ctx.state.requestId,
      );
      ctx.status = 303;
      setPageHeaders(ctx);
      ctx.redirect(`${ctx.path}/done/${paymentMethodIdOf(method)}`);
    } catch (error) {
      if (error instanceof InvalidRequestError) return showEnrollment(ctx, { values, errors: fieldErrors(error) }, 400);
      if (error instanceof EnrollmentExpiredError) return showEnrollment(ctx);
      if (error instanceof PaymentDeclinedError) return showEnrollment(ctx, { values, errors: [], banner: (t) => t.declined(error.reason) }, 402);
      throw error;
    }
  }));

  router.get('/enroll/:token/done/:paymentMethodId', page(async (ctx) => {
    const grant = grantOf(ctx);
    const found = await app.queries.getEnrollmentPage.execute(grant, ctx.state.requestId);
    const methods = await app.queries.listPaymentMethods.execute(grant.externalClientId, found.scope);
    const method = required(methods.find((m) => paymentMethodIdOf(m) === ctx.params.paymentMethodId) ?? null);
    const r = renderContext(ctx, grant.currency);
    send(ctx, 200, enrolledDocument(found.companyName, method, r, ctx.path.replace(/\/done\/[^/]+$/, '')), r);
  }));

  // ----- cash and transfer: a payment instruction's page, its status, its public voucher -----

  const instructionOf = (ctx: Context) => {
    const { companyCode, paymentInstructionId, signature } = ctx.params as Record<string, string>;
    return portal.verifyInstruction(companyCode, paymentInstructionId, signature) ? { companyCode, paymentInstructionId } : null;
  };
  const voucherOf = (ctx: Context) => {
    const { companyCode, paymentInstructionId, signature } = ctx.params as Record<string, string>;
    return portal.verifyVoucher(companyCode, paymentInstructionId, signature) ? { companyCode, paymentInstructionId } : null;
  };
  router.get('/pay/:companyCode/instructions/:paymentInstructionId/:signature', page(async (ctx) => {
    const found = await app.queries.getInstructionPage.execute(required(instructionOf(ctx)), ctx.state.requestId);
    const r = renderContext(ctx, found.instruction.currency);
    send(ctx, 200, instructionDocument(found, r, instructionLinks(found, r.locale, portal, ctx.path)), r);
  }));
  router.get('/pay/:companyCode/instructions/:paymentInstructionId/:signature/status', page(async (ctx) => {
    const found = await app.queries.getInstructionPage.execute(required(instructionOf(ctx)), ctx.state.requestId);
    setPageHeaders(ctx);
    ctx.set('Cache-Control', 'no-store');
    ctx.type = 'application/json';
    ctx.body = { status: found.status, amountReceived: found.instruction.amountReceivedCents / 100 };
  }));
  router.get('/vouchers/:companyCode/:paymentInstructionId/:signature/barcode.svg', page(async (ctx) => {
    sendBarcode(ctx, await app.queries.getInstructionPage.execute(required(voucherOf(ctx)), ctx.state.requestId));
  }));
  router.get('/vouchers/:companyCode/:paymentInstructionId/:signature/voucher.pdf', page(async (ctx) => {
    const found = await app.queries.getInstructionPage.execute(required(voucherOf(ctx)), ctx.state.requestId);
    await sendVoucher(ctx, found, chooseVoucherLocale(ctx, found.instruction.currency), options.sandbox);
  }));

  // ----- one-click unsubscribe of reminder emails -----
  unsubscribePages(router, { app, portal, page, renderContext: (ctx) => renderContext(ctx, null), send: (ctx, status, doc, r) => send(ctx, status, doc, r) });

  for (const prefix of ['/pay', '/l', '/receipts', '/enroll', '/vouchers', '/unsubscribe']) {
    router.all(prefix, notFound);
    router.all(`${prefix}/*rest`, notFound);
  }

  // ----- helpers -----

  function newForm(ctx: Context): FormContext {
    const cookie = csrf.cookieOf(ctx);
    const submission = newSubmissionKey();
    return { action: ctx.path, csrf: csrf.token(cookie, ctx.path, submission), submission };
  }

  function formExpired(ctx: Context): void {
    const r = renderContext(ctx, null);
    send(ctx, 403, messageDocument(r.t.formExpiredTitle, r.t.formExpiredText, { href: ctx.path, label: r.t.reload }), r);
  }

  /** `companyCode`: a payment page, which lists its pending instructions with their pages' paths. */
  function renderContext(ctx: Context, currency: Currency | null, companyCode?: string): RenderContext {
    const locale = chooseLocale(ctx.get('accept-language'), currency);
    const instructionHref = companyCode === undefined
      ? undefined
      : (paymentInstructionId: string) => new URL(portal.instructionUrl({ companyCode, paymentInstructionId })).pathname;
    return { locale, t: messagesFor(locale), instructionHref };
  }

  function fieldErrors(error: InvalidRequestError): { field: string; issue: string }[] {
    return error.details.length ? error.details : [{ field: 'submission', issue: error.message }];
  }

  function send(ctx: Context, status: number, doc: Document, r: RenderContext, formActionOrigins: string[] = []): void {
    setPageHeaders(ctx, formActionOrigins);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = layout(doc, r.locale, r.t, options.sandbox);
  }

  return router.routes();
}

/** A target whose signature or token did not verify is an unknown page, like any other. */
function required<T>(value: T | null): T {
  if (value === null) throw new NotFoundError('Page');
  return value;
}

/** What the form sent, without card or account numbers (never written back into a page). */
function formValues(form: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (!SECRET_FIELDS.has(key)) values[key] = value;
  return values;
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
