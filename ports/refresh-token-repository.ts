/** What presenting a refresh token found (RefreshTokenRepository.consumeRefreshToken). */
export type RefreshTokenUse =
  /** It was live and is now used: its holder gets the next token of the family. */
  | { outcome: 'consumed'; clientUserId: number; familyId: number }
  /** It had been used already (or a concurrent call used it first): a replay, and `familyId` is compromised. */
  | { outcome: 'replayed'; clientUserId: number; familyId: number | null };

/** Refresh tokens, in families (one login each), single-use. */
export interface RefreshTokenRepository {
  /**
   * A new family of refresh tokens (one login: the token it issues and every token rotated from
   * it); returns its id.
   */
  startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number>;
  insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void>;
  /**
   * Presents a refresh token of a user of that organization. A live token (unused, unexpired, its
   * family not revoked) is marked used, atomically: of two concurrent calls with the same token
   * only one gets `consumed`, the other `replayed`. A token already used answers `replayed` (its
   * family, null for a token issued before families existed), whatever its expiry. Anything else
   * (unknown, another organization's, expired unused, of a revoked family) answers null and
   * leaves the token as it was. A token without a family (issued before families existed) joins
   * a new one as it is consumed.
   */
  consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null>;
  /** No token of the family is accepted any more (reuse of one of them was detected); false when it was revoked already. */
  revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean>;
  /** Every refresh token and family of the user dies (disable-client). */
  revokeRefreshTokens(clientUserId: number, at: Date): Promise<void>;
  /**
   * Deletes refresh tokens expired before `before`, used or not (a used token is kept until its
   * expiry so that its reuse is still recognized), and the families left without tokens; returns
   * how many tokens.
   */
  purgeRefreshTokens(before: Date): Promise<number>;
}
