import { REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS } from '../../../internal/tenancy/credentials';
import type { RefreshTokenRepository, RefreshTokenUse } from '../../../ports/refresh-token-repository';
import type { MemoryStore } from './memory-store';

export class MemoryRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly store: MemoryStore) {}

  private get t() {
    return this.store.tables;
  }

  async startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number> {
    const id = ++this.t.sequence;
    this.t.refreshTokenFamilies.push({ id, clientUserId, createdAt: at, revokedAt: null });
    return id;
  }

  async insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void> {
    this.t.refreshTokens.push({ clientUserId, tokenHash, expiresAt, usedAt: null, familyId });
  }

  async consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null> {
    const token = this.t.refreshTokens.find((r) => r.tokenHash === tokenHash);
    const owner = token && this.t.clientUsers.find((u) => u.id === token.clientUserId);
    if (!token || owner?.organizationId !== organizationId) return null;
    if (token.usedAt) return { outcome: 'replayed', clientUserId: token.clientUserId, familyId: token.familyId };
    const family = this.t.refreshTokenFamilies.find((f) => f.id === token.familyId);
    if (family?.revokedAt || token.expiresAt.getTime() <= now.getTime()) return null;
    token.familyId ??= await this.startRefreshTokenFamily(token.clientUserId, now);
    token.usedAt = now;
    return { outcome: 'consumed', clientUserId: token.clientUserId, familyId: token.familyId };
  }

  async revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean> {
    const family = this.t.refreshTokenFamilies.find((f) => f.id === familyId && !f.revokedAt);
    if (family) family.revokedAt = at;
    return !!family;
  }

  async revokeRefreshTokens(clientUserId: number, at: Date): Promise<void> {
    for (const family of this.t.refreshTokenFamilies) if (family.clientUserId === clientUserId) family.revokedAt ??= at;
    for (const token of this.t.refreshTokens) if (token.clientUserId === clientUserId && !token.usedAt) token.usedAt = at;
  }

  async purgeRefreshTokens(before: Date): Promise<number> {
    const keep = this.t.refreshTokens.filter((r) => r.expiresAt.getTime() >= before.getTime());
    const purged = this.t.refreshTokens.length - keep.length;
    this.t.refreshTokens = keep;
    const live = new Set(keep.map((r) => r.familyId));
    this.t.refreshTokenFamilies = this.t.refreshTokenFamilies.filter(
      (f) => live.has(f.id) || f.createdAt.getTime() >= before.getTime() - REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS,
    );
    return purged;
  }
}
