import crypto, { type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { LRUCache } from 'lru-cache';
import type { AccessClaims, TokenService } from '../../ports/token-service';

const ALGORITHM = 'HS256';
const ISSUER = 'collections-facade';
/** Verified tokens kept at most (the oldest is dropped first). */
const VERIFIED_MAX = 10_000;

/** HS256 access tokens; `verify` pins the algorithm and issuer, so `alg: none` and foreign tokens fail. */
export class JwtTokenService implements TokenService {
  /**
   * A KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a PEM public
   * key on every call, which cost ~0.75 ms per request (measured; see docs/performance.md).
   */
  private readonly key: KeyObject;
  /**
   * Tokens verified lately, until their expiry: an integrator sends the same token for hours,
   * and verifying it (HMAC, JSON) on every request was a measurable share of a request's CPU.
   * A token string verifies the same way until it expires, so the answer can be kept that long.
   */
  private readonly verified = new LRUCache<string, { claims: AccessClaims; expiresAtMs: number }>({ max: VERIFIED_MAX });

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
    private readonly now: () => number = Date.now,
  ) {
    if (secret.length < 32) throw new Error('JWT secret must have at least 32 characters');
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: AccessClaims): { token: string; expiresIn: number } {
    const token = jwt.sign({ org: claims.organizationId, iat: Math.floor(this.now() / 1000) }, this.key, {
      algorithm: ALGORITHM,
      expiresIn: this.ttlSeconds,
      issuer: ISSUER,
      subject: String(claims.clientUserId),
    });
    return { token, expiresIn: this.ttlSeconds };
  }

  verify(token: string): AccessClaims | null {
    const now = this.now();
    const known = this.verified.get(token);
    if (known && known.expiresAtMs > now) return { ...known.claims };
    try {
      const payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER, clockTimestamp: Math.floor(now / 1000) });
      if (typeof payload !== 'object' || !payload.sub || typeof payload.org !== 'number' || typeof payload.exp !== 'number') return null;
      const claims = { clientUserId: Number(payload.sub), organizationId: payload.org };
      this.verified.set(token, { claims, expiresAtMs: payload.exp * 1000 });
      return { ...claims };
    } catch {
      return null;
    }
  }
}
