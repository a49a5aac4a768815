import { WebhookSignatureError } from './errors.js';
import type { WebhookEvent } from './types.js';

/** The raw request body exactly as received: a string (UTF-8 text) or its bytes. */
export type RawBody = string | Uint8Array | ArrayBuffer;

export interface VerifyWebhookOptions {
  /** How far the signature's timestamp may be from now, in seconds. Default 300. */
  toleranceSeconds?: number;
  /** The current time (a Date, or epoch milliseconds); default: the clock. */
  now?: Date | number;
}

const encoder = new TextEncoder();

/**
 * Verifies a webhook delivery and answers its event.
 *
 * `X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; during a secret
 * rotation the header carries several `v1=`. `secrets` is the endpoint's `whsec_…` secret, or the
 * list of secrets in use during a rotation: the delivery is valid when any `v1` matches any
 * secret (compared in constant time) and `t` is within `toleranceSeconds` of now.
 *
 * Pass the raw body: parsing and serialising JSON again changes the bytes. Throws
 * {@link WebhookSignatureError} otherwise (answer 400 and drop it). Deliveries are at least once:
 * deduplicate on `eventId`.
 */
export async function verifyWebhook(
  rawBody: RawBody,
  signatureHeader: string | null | undefined,
  secrets: string | readonly string[],
  options: VerifyWebhookOptions = {},
): Promise<WebhookEvent> {
  const { timestamp, signatures } = parseSignatureHeader(signatureHeader);
  const keys = (typeof secrets === 'string' ? [secrets] : [...secrets]).filter((s) => typeof s === 'string' && s !== '');
  if (keys.length === 0) throw new TypeError('verifyWebhook: give at least one secret');
  const payload = signedPayload(timestamp, rawBody);
  let matched = false;
  for (const secret of keys) {
    const expected = await hmacSha256(secret, payload);
    for (const candidate of signatures) if (constantTimeEqual(expected, candidate)) matched = true;
  }
  if (!matched) throw new WebhookSignatureError('NO_MATCHING_SIGNATURE', 'no v1 signature of the header matches the secret(s) for this body');
  const tolerance = options.toleranceSeconds ?? 300;
  const nowMs = options.now === undefined ? Date.now() : typeof options.now === 'number' ? options.now : options.now.getTime();
  if (Math.abs(nowMs / 1000 - timestamp) > tolerance) {
    throw new WebhookSignatureError('TIMESTAMP_OUT_OF_TOLERANCE', `the signature's timestamp is more than ${tolerance} s from now`);
  }
  try {
    return JSON.parse(typeof rawBody === 'string' ? rawBody : new TextDecoder().decode(rawBody)) as WebhookEvent;
  } catch {
    throw new WebhookSignatureError('INVALID_PAYLOAD', 'the signed body is not JSON');
  }
}

/**
 * The `X-Signature` header the API would send for `rawBody` (for an integrator's tests of its
 * receiver): one `v1` per secret.
 */
export async function signWebhook(rawBody: RawBody, secrets: string | readonly string[], timestamp = Math.floor(Date.now() / 1000)): Promise<string> {
  const payload = signedPayload(timestamp, rawBody);
  const parts = [`t=${timestamp}`];
  for (const secret of typeof secrets === 'string' ? [secrets] : secrets) parts.push(`v1=${toHex(await hmacSha256(secret, payload))}`);
  return parts.join(',');
}

/** `t` and every `v1` of an `X-Signature` header (other schemes are ignored). */
export function parseSignatureHeader(header: string | null | undefined): { timestamp: number; signatures: Uint8Array[] } {
  if (typeof header !== 'string' || header.trim() === '') throw new WebhookSignatureError('MISSING_HEADER', 'no X-Signature header');
  let timestamp: number | null = null;
  const signatures: Uint8Array[] = [];
  for (const part of header.split(',')) {
    const at = part.indexOf('=');
    if (at < 0) continue;
    const key = part.slice(0, at).trim();
    const value = part.slice(at + 1).trim();
    if (key === 't' && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === 'v1' && /^[0-9a-fA-F]{64}$/.test(value)) signatures.push(fromHex(value));
  }
  if (timestamp === null || signatures.length === 0) {
    throw new WebhookSignatureError('MALFORMED_HEADER', 'X-Signature needs t=<unix seconds> and at least one v1=<64 hex characters>');
  }
  return { timestamp, signatures };
}

function signedPayload(timestamp: number, rawBody: RawBody): Uint8Array<ArrayBuffer> {
  const prefix = encoder.encode(`${timestamp}.`);
  const body = typeof rawBody === 'string' ? encoder.encode(rawBody) : rawBody instanceof Uint8Array ? rawBody : new Uint8Array(rawBody);
  const out = new Uint8Array(prefix.length + body.length);
  out.set(prefix, 0);
  out.set(body, prefix.length);
  return out;
}

async function hmacSha256(secret: string, payload: Uint8Array<ArrayBuffer>): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey('raw', encoder.encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  return new Uint8Array(await crypto.subtle.sign('HMAC', key, payload));
}

/** Equal length and equal bytes, in a time that does not depend on where they differ. */
function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i += 1) diff |= a[i]! ^ b[i]!;
  return diff === 0;
}

function fromHex(hex: string): Uint8Array {
  const out = new Uint8Array(hex.length / 2);
  for (let i = 0; i < out.length; i += 1) out[i] = parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return out;
}

function toHex(bytes: Uint8Array): string {
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}
