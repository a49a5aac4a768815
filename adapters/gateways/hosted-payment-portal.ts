import { LRUCache } from 'lru-cache';
import type { EnrollmentGrant } from '../../internal/direct-debit/enrollment-grant';
import { isCurrency } from '../../internal/shared/currency';
import type { PaymentPortal } from '../../ports/payment-portal';
import type { ReminderLinks, UnsubscribeTarget } from '../../ports/reminder-links';
import { REMINDER_CHANNELS, type ReminderChannel } from '../../internal/reminders/reminder-policy';
import type { PageSigner } from '../security/page-signer';

/** Signed URLs kept at most per purpose (the least recently used is dropped first). */
const SIGNED_URLS_KEPT = 20_000;

/** A URL signed lately, for the company it was signed for. */
interface SignedUrl {
  companyCode: string;
  url: string;
}

/**
 * The portal served under PUBLIC_BASE_URL by this service's hosted pages (adapters/http/pages).
 * Debt and subscription URLs carry an HMAC of the company and the id, so no page is reachable by
 * guessing ids; private links use their opaque short code; public links the identifier the
 * specification builds them from. The same object verifies what it signed.
 */
export class HostedPaymentPortal implements PaymentPortal, ReminderLinks {
  /**
   * URLs signed lately, per purpose and then by id: a debt's URL never changes, and a list of 50
   * debts (or a debt and its event) would otherwise sign the same ones again and again. The id
   * alone is the key: a key joining purpose, company and id was a new string to build, flatten and
   * hash on every lookup, about 2 % of a `GET /debts` page's instructions (docs/performance.md).
   * The company is checked on a hit, so two companies' debts of the same id each get their own URL.
   */
  private readonly signed = new Map<string, LRUCache<string, SignedUrl>>();
  private lastPortal: { companyCode: string; portalUrl: string | null; base: string } | null = null;

  constructor(
    private readonly publicBaseUrl: string,
    private readonly signer: PageSigner,
  ) {}

  debtUrl(debt: { companyCode: string; debtId: string }): string | null {
    return this.signedUrl('debt', 'pay', '/debts', debt.companyCode, debt.debtId);
  }

  subscriptionUrl(subscription: { companyCode: string; subscriptionId: string }): string | null {
    return this.signedUrl('subscription', 'pay', '/subscriptions', subscription.companyCode, subscription.subscriptionId);
  }

  /**
   * `<base>/<section>/<company><after>/<id>/<signature>`: the signature covers the purpose, the
   * company and the id. Built on a miss only; a hit (a page of 50 debts) encodes nothing.
   */
  private signedUrl(purpose: string, section: string, after: string, companyCode: string, id: string): string {
    let urls = this.signed.get(purpose);
    if (urls === undefined) {
      urls = new LRUCache<string, SignedUrl>({ max: SIGNED_URLS_KEPT });
      this.signed.set(purpose, urls);
    }
    const kept = urls.get(id);
    if (kept !== undefined && kept.companyCode === companyCode) return kept.url;
    const signature = this.signer.sign(purpose, companyCode, id);
    const url = `${this.publicBaseUrl}/${section}/${encodeURIComponent(companyCode)}${after}/${encodeURIComponent(id)}/${signature}`;
    urls.set(id, { companyCode, url });
    return url;
  }

  linkUrl(link: { companyCode: string; portalUrl: string | null; shortCode: string | null; identifier: string }): string | null {
    if (link.shortCode) return `${this.publicBaseUrl}/l/${link.shortCode}`;
    return `${this.portalBase(link.companyCode, link.portalUrl)}/${encodeURIComponent(link.identifier)}`;
  }

  /** The company's portal root without a trailing slash; a page of links asks for the same one each time, so the last is kept. */
  private portalBase(companyCode: string, portalUrl: string | null): string {
    const last = this.lastPortal;
    if (last && last.companyCode === companyCode && last.portalUrl === portalUrl) return last.base;
    const base = (portalUrl ?? `${this.publicBaseUrl}/pay/${encodeURIComponent(companyCode)}`).replace(/\/+$/, '');
    this.lastPortal = { companyCode, portalUrl, base };
    return base;
  }

  /** `<base>/unsubscribe/<sealed target>`: the one-click unsubscribe page of a reminder email (RFC 8058); it never expires. */
  unsubscribeUrl(target: UnsubscribeTarget): string {
    const token = this.signer.seal('unsubscribe', { v: 1, co: target.companyCode, c: target.contactCode, ch: target.channel });
    return `${this.publicBaseUrl}/unsubscribe/${token}`;
  }

  /** The contact and channel an unsubscribe token names, or null when this service did not seal it. */
  openUnsubscribe(token: string): UnsubscribeTarget | null {
    const payload = this.signer.open('unsubscribe', token);
    if (!payload || typeof payload.co !== 'string' || typeof payload.c !== 'string') return null;
    if (!(REMINDER_CHANNELS as readonly unknown[]).includes(payload.ch)) return null;
    return { companyCode: payload.co, contactCode: payload.c, channel: payload.ch as ReminderChannel };
  }

  enrollmentUrl(grant: EnrollmentGrant): string {
    const token = this.signer.seal('enroll', {
      v: 1,
      co: grant.companyCode,
      cl: grant.externalClientId,
      cur: grant.currency,
      exp: Math.floor(grant.expiresAt.getTime() / 1000),
    });
    return `${this.publicBaseUrl}/enroll/${token}`;
  }

  voucherUrls(instruction: { companyCode: string; paymentInstructionId: string }): { barcodeUrl: string; voucherUrl: string } {
    const base = this.signedUrl('voucher', 'vouchers', '', instruction.companyCode, instruction.paymentInstructionId);
    return { barcodeUrl: `${base}/barcode.svg`, voucherUrl: `${base}/voucher.pdf` };
  }

  /** The debtor's page of one payment instruction (the account to transfer to, or the voucher), with its status. */
  instructionUrl(instruction: { companyCode: string; paymentInstructionId: string }): string {
    return this.signedUrl('instruction', 'pay', '/instructions', instruction.companyCode, instruction.paymentInstructionId);
  }

  verifyVoucher(companyCode: string, paymentInstructionId: string, signature: string): boolean {
    return this.signer.verify(signature, 'voucher', companyCode, paymentInstructionId);
  }

  verifyInstruction(companyCode: string, paymentInstructionId: string, signature: string): boolean {
    return this.signer.verify(signature, 'instruction', companyCode, paymentInstructionId);
  }

  verifyDebt(companyCode: string, debtId: string, signature: string): boolean {
    return this.signer.verify(signature, 'debt', companyCode, debtId);
  }

  verifySubscription(companyCode: string, subscriptionId: string, signature: string): boolean {
    return this.signer.verify(signature, 'subscription', companyCode, subscriptionId);
  }

  /** The grant of an enrollment URL's token; null when it was not signed here (expiry is the core's to judge). */
  openEnrollment(token: string): EnrollmentGrant | null {
    const p = this.signer.open('enroll', token);
    if (!p || p.v !== 1 || typeof p.co !== 'string' || typeof p.cl !== 'string' || !isCurrency(p.cur) || !Number.isSafeInteger(p.exp)) return null;
    return { companyCode: p.co, externalClientId: p.cl, currency: p.cur, expiresAt: new Date((p.exp as number) * 1000) };
  }
}
