import crypto from 'node:crypto';

/**
 * The webhook signature (decisions.md section 6): `X-Signature: t=<unix seconds>,v1=<hex
 * HMAC-SHA256(secret, "<t>.<raw body>")>`. The secret is used as sent in the creation answer
 * (the whole `whsec_…` string, UTF-8).
 */
export const SIGNATURE_HEADER = 'X-Signature';

/** Receivers should refuse a timestamp further than this from their clock (replays). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, timestamp: number, body: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${body}`, 'utf8').digest('hex');
}

/**
 * `t=<t>,v1=<hex>` with one `v1` per secret, in the order given (the current secret first; the
 * previous one too while a rotation's grace period runs). A receiver accepts any `v1` that matches.
 */
export function signatureHeader(secrets: string | readonly string[], timestamp: number, body: string): string {
  const list = typeof secrets === 'string' ? [secrets] : secrets;
  if (list.length === 0) throw new Error('a webhook is signed with at least one secret');
  return [`t=${timestamp}`, ...list.map((secret) => `v1=${computeSignature(secret, timestamp, body)}`)].join(',');
}

/**
 * What a receiver does: true when one `v1` of the header is the HMAC of `<t>.<body>` and `t` is
 * within `toleranceSeconds` of `nowSeconds`. Compares in constant time.
 */
export function verifySignature(
  header: string | undefined,
  secret: string,
  body: string,
  options: { nowSeconds: number; toleranceSeconds?: number },
): boolean {
  if (!header) return false;
  const parts = header.split(',').map((p) => p.trim().split('='));
  const t = Number(parts.find(([k]) => k === 't')?.[1]);
  if (!Number.isInteger(t) || Math.abs(options.nowSeconds - t) > (options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS)) return false;
  const expected = Buffer.from(computeSignature(secret, t, body), 'hex');
  return parts
    .filter(([k, v]) => k === 'v1' && v !== undefined && /^[0-9a-f]{64}$/i.test(v))
    .some(([, v]) => crypto.timingSafeEqual(Buffer.from(v!, 'hex'), expected));
}
