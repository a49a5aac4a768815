import crypto from 'node:crypto';
import type { Context } from 'koa';
import getRawBody from 'raw-body';
import type { PageSigner } from '../../security/page-signer';

/**
 * The headers of every hosted page and asset. The CSP allows this origin only, no inline
 * script or style, no framing; forms post here (and a link's successUrl origin, so the redirect
 * after its payment is allowed). No page is cached or indexed; no referrer leaves it.
 */
export function setPageHeaders(ctx: Context, formActionOrigins: string[] = []): void {
  const formAction = ["'self'", ...formActionOrigins].join(' ');
  ctx.set('Content-Security-Policy', [
    "default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data:", "font-src 'self'", "connect-src 'self'",
    `form-action ${formAction}`, "frame-ancestors 'none'", "base-uri 'none'", "object-src 'none'",
  ].join('; '));
  ctx.set('X-Content-Type-Options', 'nosniff');
  ctx.set('Referrer-Policy', 'no-referrer');
  ctx.set('X-Frame-Options', 'DENY');
  ctx.set('Cross-Origin-Opener-Policy', 'same-origin');
  ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
  ctx.set('Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=()');
  ctx.set('X-Robots-Tag', 'noindex, nofollow');
  if (ctx.secure) ctx.set('Strict-Transport-Security', 'max-age=31536000');
}

/** The origin a successUrl redirects to, when it is an http(s) URL (anything else is never followed). */
export function httpOrigin(url: string | null): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'https:' || parsed.protocol === 'http:' ? parsed.origin : null;
  } catch {
    return null;
  }
}

export const CSRF_COOKIE = 'cf_pages_csrf';
const COOKIE_VALUE = /^[A-Za-z0-9_-]{43}$/;

/**
 * Signed double-submit CSRF protection: a random value in an HttpOnly, SameSite=Strict cookie,
 * and in every form a token that is the HMAC of that value, the form's path and its submission
 * key. A forged post has neither the cookie's value nor the key to sign it.
 */
export class CsrfTokens {
  constructor(private readonly signer: PageSigner) {}

  /** The browser's cookie value, set now when it has none. */
  cookieOf(ctx: Context): string {
    const current = ctx.cookies.get(CSRF_COOKIE);
    if (current && COOKIE_VALUE.test(current)) return current;
    const value = crypto.randomBytes(32).toString('base64url');
    ctx.cookies.set(CSRF_COOKIE, value, { httpOnly: true, sameSite: 'strict', secure: ctx.secure, path: '/', overwrite: true });
    return value;
  }

  token(cookie: string, path: string, submission: string): string {
    return this.signer.sign('csrf', cookie, path, submission);
  }

  /** True when the form carries a token the browser's cookie and this path sign. */
  verify(ctx: Context, form: URLSearchParams): boolean {
    const cookie = ctx.cookies.get(CSRF_COOKIE);
    const token = form.get('_csrf');
    const submission = form.get('submission') ?? '';
    return !!cookie && COOKIE_VALUE.test(cookie) && !!token && this.signer.verify(token, 'csrf', cookie, ctx.path, submission);
  }
}

/** A fresh key for a form: sending the same form twice does its work once. */
export function newSubmissionKey(): string {
  return crypto.randomBytes(18).toString('base64url').replace(/[-_]/g, 'x');
}

export class UnsupportedFormError extends Error {}

/** A urlencoded form body, at most 16 KiB. */
export async function readForm(ctx: Context): Promise<URLSearchParams> {
  if (!ctx.is('application/x-www-form-urlencoded')) throw new UnsupportedFormError('not a form post');
  const text = await getRawBody(ctx.req, { limit: 16 * 1024, length: ctx.request.length, encoding: 'utf8' });
  return new URLSearchParams(text);
}
