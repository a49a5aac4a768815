import type { Knex } from 'knex';
import { REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS } from '../../../internal/tenancy/credentials';
import type { RefreshTokenRepository, RefreshTokenUse } from '../../../ports/refresh-token-repository';
import { insertedId } from './shared-transaction';
import { toMillis } from './rows/columns';

/** Refresh tokens and their families. */
export class KnexRefreshTokenRepository implements RefreshTokenRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number> {
    return insertedId(this.db, 'refresh_token_families', { client_user_id: clientUserId, created_at: toMillis(at), revoked_at: null });
  }

  async insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void> {
    await this.db('refresh_tokens').insert({
      client_user_id: clientUserId,
      token_hash: tokenHash,
      expires_at: toMillis(expiresAt),
      used_at: null,
      family_id: familyId,
    });
  }

  async consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null> {
    const row = await this.db('refresh_tokens as r')
      .join('client_users as u', 'u.id', 'r.client_user_id')
      .leftJoin('refresh_token_families as f', 'f.id', 'r.family_id')
      .where({ 'r.token_hash': tokenHash, 'u.organization_id': organizationId })
      .select('r.id', 'r.client_user_id', 'r.used_at', 'r.expires_at', 'r.family_id', 'f.revoked_at as family_revoked_at')
      .first();
    if (!row) return null;
    const clientUserId = Number(row.client_user_id);
    const familyOf = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    if (row.used_at !== null) return { outcome: 'replayed', clientUserId, familyId: familyOf(row.family_id) };
    if (row.family_revoked_at !== null || Number(row.expires_at) <= now.getTime()) return null;
    const familyId = familyOf(row.family_id) ?? (await this.startRefreshTokenFamily(clientUserId, now));
    // The conditional update is the arbiter: of two concurrent refreshes only one changes the row.
    const changed = await this.db('refresh_tokens')
      .where({ id: row.id })
      .whereNull('used_at')
      .update({ used_at: toMillis(now), family_id: familyId });
    if (changed === 1) return { outcome: 'consumed', clientUserId, familyId };
    const winner = await this.db('refresh_tokens').where({ id: row.id }).first('family_id');
    return { outcome: 'replayed', clientUserId, familyId: familyOf(winner?.family_id) };
  }

  async revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean> {
    return (await this.db('refresh_token_families').where({ id: familyId }).whereNull('revoked_at').update({ revoked_at: toMillis(at) })) === 1;
  }

  async revokeRefreshTokens(clientUserId: number, at: Date): Promise<void> {
    await this.db('refresh_token_families').where({ client_user_id: clientUserId }).whereNull('revoked_at').update({ revoked_at: toMillis(at) });
    await this.db('refresh_tokens').where({ client_user_id: clientUserId }).whereNull('used_at').update({ used_at: toMillis(at) });
  }

  async purgeRefreshTokens(before: Date): Promise<number> {
    const purged = await this.db('refresh_tokens').where('expires_at', '<', toMillis(before)).delete();
    // Families whose every token is gone (a family lives as long as its newest token); not one
    // just started, whose first token is being inserted.
    await this.db('refresh_token_families')
      .whereNotIn('id', (q) => q.select('family_id').from('refresh_tokens').whereNotNull('family_id'))
      .where('created_at', '<', toMillis(before) - REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS)
      .delete();
    return purged;
  }
}
