import { AuthenticationFailedError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../credentials';
import { issueSession, type Session, type SessionDeps } from './issue-session';

/** POST /auth/refresh: a refresh token buys one new pair (rotation); reuse is a 401. */
export class RefreshSession {
  constructor(private readonly deps: SessionDeps & { appEnv: AppEnv }) {
    requireDeps('RefreshSession', deps);
  }

  async execute(input: { loginApiKey: string | undefined; refreshToken: unknown }): Promise<Session> {
    const { tenancy, secrets, clock, appEnv } = this.deps;
    if (!input.loginApiKey || typeof input.refreshToken !== 'string' || !input.refreshToken) {
      throw new AuthenticationFailedError();
    }
    const key = await tenancy.findApiKey(secrets.digest(input.loginApiKey), 'login', appEnv);
    if (!key) throw new AuthenticationFailedError();
    const userId = await tenancy.consumeRefreshToken(secrets.digest(input.refreshToken), key.organizationId, clock.now());
    const user = userId === null ? null : await tenancy.findClientUser(userId);
    if (!user || user.disabled || user.organizationId !== key.organizationId) throw new AuthenticationFailedError();
    return issueSession(this.deps, user);
  }
}
