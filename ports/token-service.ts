export interface AccessClaims {
  clientUserId: number;
  organizationId: number;
}

/** Platform access tokens (JWT). `verify` returns null for a bad, foreign or expired token. */
export interface TokenService {
  issue(claims: AccessClaims): { token: string; expiresIn: number };
  verify(token: string): AccessClaims | null;
}
