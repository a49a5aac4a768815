import type { UnitOfWork } from '../../../ports/unit-of-work';
import { AuthenticationFailedError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../credentials';
import { issueSession, type Session, type SessionDeps } from './issue-session';

/**
 * A refresh token that had already been used came back: its whole family (the login it came
 * from and every token rotated since) is revoked. The answer is the same 401 as every other
 * authentication failure; the class tells the door it may want to log it.
 */
export class RefreshTokenReusedError extends AuthenticationFailedError {
  constructor(
    readonly clientUserId: number,
    readonly familyId: number | null,
  ) {
    super();
  }
}

/**
 * POST /auth/refresh: a refresh token buys one new pair (rotation) of the same family. Reuse is a
 * 401 and, as the OAuth 2.0 Security BCP recommends, revokes the family: whoever holds its newer
 * token (the legitimate client or a thief, the server cannot tell) must log in again. The
 * revocation is audited (`session.revoked`), once per family.
 */
export class RefreshSession {
  constructor(private readonly deps: SessionDeps & { appEnv: AppEnv; uow: UnitOfWork }) {
    requireDeps('RefreshSession', deps);
  }

  async execute(input: { loginApiKey: string | undefined; refreshToken: unknown }, requestId: string | null = null): Promise<Session> {
    const { credentials, refreshTokens, secrets, clock, appEnv } = this.deps;
    if (!input.loginApiKey || typeof input.refreshToken !== 'string' || !input.refreshToken) {
      throw new AuthenticationFailedError();
    }
    const key = await credentials.findApiKey(secrets.digest(input.loginApiKey), 'login', appEnv);
    if (!key) throw new AuthenticationFailedError();
    const use = await refreshTokens.consumeRefreshToken(secrets.digest(input.refreshToken), key.organizationId, clock.now());
    if (use?.outcome === 'replayed') {
      await this.revokeFamily(use.clientUserId, use.familyId, key.organizationId, requestId);
      throw new RefreshTokenReusedError(use.clientUserId, use.familyId);
    }
    const user = use ? await credentials.findClientUser(use.clientUserId) : null;
    if (!use || !user || user.disabled || user.organizationId !== key.organizationId) throw new AuthenticationFailedError();
    return issueSession(this.deps, user, use.familyId);
  }

  private async revokeFamily(clientUserId: number, familyId: number | null, organizationId: number, requestId: string | null): Promise<void> {
    if (familyId === null) return; // a token used before families existed: nothing to follow
    const now = this.deps.clock.now();
    await this.deps.uow.run(async ({ credentials, refreshTokens, audit }) => {
      if (!(await refreshTokens.revokeRefreshTokenFamily(familyId, now))) return; // revoked already, and audited then
      const user = await credentials.findClientUser(clientUserId);
      await audit.record({
        organizationId,
        action: 'session.revoked',
        resourceType: 'client',
        resourceId: user?.username ?? String(clientUserId),
        actor: { type: 'system', name: 'refresh token reuse detection' },
        details: { reason: 'refresh_token_reused', refreshTokenFamily: familyId, requestId },
        at: now,
      });
    });
  }
}
