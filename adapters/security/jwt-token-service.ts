import crypto, { type KeyObject } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { AccessClaims, TokenService } from '../../ports/token-service';

const ALGORITHM = 'HS256';
const ISSUER = 'collections-facade';

/** HS256 access tokens; `verify` pins the algorithm and issuer, so `alg: none` and foreign tokens fail. */
export class JwtTokenService implements TokenService {
  /**
   * A KeyObject, made once: given a string, jsonwebtoken first tries to parse it as a PEM public
   * key on every call, which cost ~0.75 ms per request (measured; see docs/performance.md).
   */
  private readonly key: KeyObject;

  constructor(
    secret: string,
    private readonly ttlSeconds: number,
  ) {
    if (secret.length < 32) throw new Error('JWT secret must have at least 32 characters');
    this.key = crypto.createSecretKey(Buffer.from(secret, 'utf8'));
  }

  issue(claims: AccessClaims): { token: string; expiresIn: number } {
    const token = jwt.sign({ org: claims.organizationId }, this.key, {
      algorithm: ALGORITHM,
      expiresIn: this.ttlSeconds,
      issuer: ISSUER,
      subject: String(claims.clientUserId),
    });
    return { token, expiresIn: this.ttlSeconds };
  }

  verify(token: string): AccessClaims | null {
    try {
      const payload = jwt.verify(token, this.key, { algorithms: [ALGORITHM], issuer: ISSUER });
      if (typeof payload !== 'object' || !payload.sub || typeof payload.org !== 'number') return null;
      return { clientUserId: Number(payload.sub), organizationId: payload.org };
    } catch {
      return null;
    }
  }
}
