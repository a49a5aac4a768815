import crypto from 'node:crypto';

/** 128-bit tags: far past guessing, short enough for a URL (22 base64url characters). */
const TAG_BYTES = 16;

/**
 * HMAC-SHA256 signatures for the hosted pages: the signed debt and subscription URLs, the
 * enrollment URL's sealed grant and the CSRF tokens of every form. Each use signs under its own
 * purpose, so a signature made for one can never pass for another. Parts are length-prefixed, so
 * ("a", "bc") and ("ab", "c") sign differently.
 */
export class PageSigner {
  private readonly key: crypto.KeyObject;

  constructor(secret: string) {
    if (secret.length < 16) throw new Error('the hosted pages secret must be at least 16 characters');
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  }

  /** A signer whose key is derived from another secret (the JWT secret) for this use only. */
  static derivedFrom(secret: string): PageSigner {
    return new PageSigner(crypto.createHmac('sha256', secret).update('collections-facade/hosted-pages/v1').digest('base64url'));
  }

  sign(purpose: string, ...parts: string[]): string {
    // The length-prefixed parts in one update (one call into the native HMAC, not one per part).
    let message = `${Buffer.byteLength(purpose)}:${purpose};`;
    for (const part of parts) message += `${Buffer.byteLength(part)}:${part};`;
    return crypto.createHmac('sha256', this.key).update(message).digest().subarray(0, TAG_BYTES).toString('base64url');
  }

  verify(signature: string, purpose: string, ...parts: string[]): boolean {
    const expected = Buffer.from(this.sign(purpose, ...parts));
    const given = Buffer.from(signature);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected);
  }

  /** `<base64url JSON>.<tag>`: readable by anyone, changeable by no one. */
  seal(purpose: string, payload: Record<string, unknown>): string {
    const body = Buffer.from(JSON.stringify(payload)).toString('base64url');
    return `${body}.${this.sign(purpose, body)}`;
  }

  /** The payload of a sealed token, or null when it was not sealed here for this purpose. */
  open(purpose: string, token: string): Record<string, unknown> | null {
    const match = /^([A-Za-z0-9_-]{1,1024})\.([A-Za-z0-9_-]{22})$/.exec(token);
    if (!match || !this.verify(match[2]!, purpose, match[1]!)) return null;
    try {
      const payload: unknown = JSON.parse(Buffer.from(match[1]!, 'base64url').toString('utf8'));
      return payload !== null && typeof payload === 'object' && !Array.isArray(payload) ? (payload as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }
}
