import crypto from 'node:crypto';

/**
 * True when `authorization` is `Bearer <token>`. Compares digests in constant time, so neither
 * the content nor the length of the token leaks through timing.
 */
export function bearerMatches(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(authorization ?? '')?.[1] ?? '';
  const digest = (text: string) => crypto.createHash('sha256').update(text).digest();
  return crypto.timingSafeEqual(digest(presented), digest(token));
}
