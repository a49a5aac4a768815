import type { Context } from 'koa';
import type { Application } from '../../../internal/application';
import type { Currency } from '../../../internal/shared/currency';
import { InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { ReceiptOrigin } from '../../../internal/portal/queries/get-portal-receipt';
import type { HostedPaymentPortal } from '../../gateways/hosted-payment-portal';
import type { FormContext } from './components';
import type { Document } from './layout';
import type { CsrfTokens } from './page-security';
import type { RenderContext } from './render-context';

/**
 * What every group of hosted pages (portal, enrollment, payment instructions, unsubscribe) is
 * given by hosted-pages.ts: the use cases, the signed URLs, and the shared page machinery.
 */
export interface PageKit {
  app: Application;
  portal: HostedPaymentPortal;
  csrf: CsrfTokens;
  /** Says on every page that no real money moves (outside production). */
  sandbox: boolean;
  /** Rate limit, then the handler; anything it throws becomes a page (404, 415, 500…), never an error dump. */
  page(handler: (ctx: Context) => Promise<void>, byIdentifier?: boolean): (ctx: Context) => Promise<void>;
  /** `companyCode`: a payment page, which lists its pending instructions with their pages' paths. */
  renderContext(ctx: Context, currency: Currency | null, companyCode?: string): RenderContext;
  send(ctx: Context, status: number, doc: Document, r: RenderContext, formActionOrigins?: string[]): void;
  /** A fresh form of the page at ctx.path: its CSRF token and submission key. */
  newForm(ctx: Context): FormContext;
  /** 403: the form's token did not verify (expired, or another page's). */
  formExpired(ctx: Context): void;
}

/** A target whose signature or token did not verify is an unknown page, like any other. */
export function required<T>(value: T | null): T {
  if (value === null) throw new NotFoundError('Page');
  return value;
}

/** Fields a refused form never writes back into the page. */
const SECRET_FIELDS = new Set(['cardNumber', 'cardExpiry', 'cardCvc', 'accountNumber', '_csrf', 'submission']);

/** What the form sent, without card or account numbers (never written back into a page). */
export function formValues(form: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of form) if (!SECRET_FIELDS.has(key)) values[key] = value;
  return values;
}

export function fieldErrors(error: InvalidRequestError): { field: string; issue: string }[] {
  return error.details.length ? error.details : [{ field: 'submission', issue: error.message }];
}

/** The payment page a receipt or an instruction came from: a debt's, a subscription's, a link's. */
export function originUrl(portal: HostedPaymentPortal, companyCode: string, origin: ReceiptOrigin): string | null {
  switch (origin.kind) {
    case 'debt':
      return portal.debtUrl({ companyCode, debtId: origin.debtId });
    case 'subscription':
      return portal.subscriptionUrl({ companyCode, subscriptionId: origin.subscriptionId });
    default:
      return portal.linkUrl({ companyCode, portalUrl: origin.portalUrl, shortCode: origin.shortCode, identifier: origin.identifier });
  }
}
