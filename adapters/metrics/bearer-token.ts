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

/**
 * The queue console's check: the same token as `bearerMatches`, presented as `Bearer <token>` (a
 * script) or as the password of HTTP Basic authentication with any user name (a browser, which
 * asks for it after a 401 with `WWW-Authenticate: Basic`). Constant time as above.
 */
export function tokenMatches(authorization: string | undefined, token: string): boolean {
  const basic = /^Basic (.+)$/i.exec(authorization ?? '')?.[1];
  if (basic === undefined) return bearerMatches(authorization, token);
  const decoded = Buffer.from(basic, 'base64').toString('utf8');
  const password = decoded.includes(':') ? decoded.slice(decoded.indexOf(':') + 1) : '';
  return bearerMatches(`Bearer ${password}`, token);
}
