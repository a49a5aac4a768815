import type { RouteTable } from '../segment-router';
import type { Context } from 'koa';
import { INSTRUCTION_METHODS, type InstructionMethod } from '../../../internal/payment-instructions/payment-instruction';
import type { InstructionPage } from '../../../internal/portal/queries/get-instruction-page';
import type { Currency } from '../../../internal/shared/currency';
import { NotFoundError } from '../../../internal/shared/errors';
import type { HostedPaymentPortal } from '../../gateways/hosted-payment-portal';
import type { InstructionLinks } from './instruction-pages';
import { chooseLocale, type Locale, LOCALES } from './locale';
import { instructionDocument } from './instruction-pages';
import { originUrl, type PageKit, required } from './page-kit';
import { setPageHeaders } from './page-security';
import { barcodeSvg, voucherPdf } from './voucher';

/** TRANSFER and CASH are paid with an instruction; the page form's other methods through the processor. */
export function isInstructionMethod(method: string): method is InstructionMethod {
  return (INSTRUCTION_METHODS as readonly string[]).includes(method);
}

/**
 * The links of an instruction's page, as paths of this host (the page may be served under another
 * name than PUBLIC_BASE_URL, and the CSP allows images from 'self' only): its status, its barcode
 * and its voucher in the page's locale, and the payment page it came from.
 */
export function instructionLinks(page: InstructionPage, locale: Locale, portal: HostedPaymentPortal, path: string): InstructionLinks {
  const companyCode = page.company.code;
  const paymentInstructionId = `pin_${page.instruction.code}`;
  const cash = page.instruction.method === 'CASH' ? portal.voucherUrls({ companyCode, paymentInstructionId }) : null;
  const back = originUrl(portal, companyCode, page.origin);
  return {
    page: path,
    status: `${path}/status`,
    barcode: cash ? new URL(cash.barcodeUrl).pathname : undefined,
    voucher: cash ? `${new URL(cash.voucherUrl).pathname}?locale=${locale}` : undefined,
    back,
  };
}

/** `?locale=` when it names a page locale (the page links its own), else the usual negotiation. */
export function chooseVoucherLocale(ctx: Context, currency: Currency): Locale {
  const asked = ctx.query.locale;
  return typeof asked === 'string' && (LOCALES as readonly string[]).includes(asked) ? (asked as Locale) : chooseLocale(ctx.get('accept-language'), currency);
}

/** The barcode of a CASH instruction, whatever its status (a debtor may hold the voucher): SVG, nothing else. */
export function sendBarcode(ctx: Context, page: InstructionPage): void {
  const cash = page.instruction.cash;
  if (!cash) throw new NotFoundError('Voucher');
  setPageHeaders(ctx);
  ctx.set('Cache-Control', 'private, max-age=3600');
  ctx.type = 'image/svg+xml';
  ctx.body = barcodeSvg(cash.barcodeValue);
}

/** The printable voucher of a CASH instruction (PDF, shown in the browser, in the chosen locale). */
export async function sendVoucher(ctx: Context, page: InstructionPage, locale: Locale, sandbox: boolean): Promise<void> {
  const { instruction } = page;
  if (!instruction.cash) throw new NotFoundError('Voucher');
  const pdf = await voucherPdf(
    {
      company: page.company.name, description: page.description, amountCents: instruction.amountCents, currency: instruction.currency,
      barcodeValue: instruction.cash.barcodeValue, networks: instruction.cash.networks, expiresAt: instruction.expiresAt, sandbox,
    },
    locale,
  );
  setPageHeaders(ctx);
  ctx.set('Cache-Control', 'no-store');
  ctx.set('Content-Disposition', `inline; filename="voucher-${instruction.cash.barcodeValue}.pdf"`);
  ctx.type = 'application/pdf';
  ctx.body = pdf;
}

/** Cash and transfer: a payment instruction's page, its status (polled by the page), its public voucher. */
export function instructionPages(router: RouteTable, kit: PageKit): void {
  const { app, portal, page, renderContext, send } = kit;


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
    await sendVoucher(ctx, found, chooseVoucherLocale(ctx, found.instruction.currency), kit.sandbox);
  }));
}
