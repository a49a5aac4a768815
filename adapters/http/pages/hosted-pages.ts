import type { Middleware } from 'koa';
import { SegmentRouter } from '../segment-router';
import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { Application } from '../../../internal/application';
import type { Currency } from '../../../internal/shared/currency';
import { NotFoundError } from '../../../internal/shared/errors';
import type { RateLimiter, RateLimitPolicy } from '../../../ports/rate-limiter';
import type { HostedPaymentPortal } from '../../gateways/hosted-payment-portal';
import type { PageSigner } from '../../security/page-signer';
import { failOpen } from '../middleware/rate-limit';
import { ASSETS } from './assets';
import type { FormContext } from './components';
import { enrollmentPages } from './enrollment-routes';
import { instructionPages } from './instruction-routes';
import { type Document, layout } from './layout';
import { chooseLocale } from './locale';
import { messagesFor } from './messages';
import type { PageKit } from './page-kit';
import { CsrfTokens, newSubmissionKey, setPageHeaders, UnsupportedFormError } from './page-security';
import { messageDocument, type RenderContext } from './payment-pages';
import { portalPages } from './portal-routes';
import { unsubscribePages } from './unsubscribe-pages';

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

/**
 * The hosted pages, served by the API process before its JSON body reader (forms are
 * urlencoded): the payment portal behind every paymentUrl and its receipts (portal-routes.ts),
 * the direct-debit enrollment page (enrollment-routes.ts) and the payment instructions' pages
 * (instruction-routes.ts). This file holds what they share (the page wrapper with its rate
 * limit and error pages, rendering, CSRF forms); each route resolves a code or signature through
 * a use case; every page has the strict headers, every form a CSRF token, every lookup the rate limit.
 */
export function hostedPages(options: HostedPagesOptions): Middleware {
  const { app, portal, logger } = options;
  const csrf = new CsrfTokens(options.signer);
  const limit = options.lookupLimit ?? DEFAULT_LOOKUP_LIMIT;
  const identifierLimit = options.identifierLookupLimit ?? DEFAULT_IDENTIFIER_LOOKUP_LIMIT;
  // Like every bucket of the API: when the limiter's store does not answer, pages go through (logged, counted).
  const consume = failOpen(options.rateLimiter, logger, undefined);
  const router = new SegmentRouter();

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

  const kit: PageKit = { app, portal, csrf, sandbox: options.sandbox, page, renderContext, send, newForm, formExpired };
  portalPages(router, kit);
  enrollmentPages(router, kit);
  instructionPages(router, kit);
  unsubscribePages(router, kit);

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

  function send(ctx: Context, status: number, doc: Document, r: RenderContext, formActionOrigins: string[] = []): void {
    setPageHeaders(ctx, formActionOrigins);
    ctx.set('Cache-Control', 'no-store');
    ctx.status = status;
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = layout(doc, r.locale, r.t, options.sandbox);
  }

  return router.routes();
}
