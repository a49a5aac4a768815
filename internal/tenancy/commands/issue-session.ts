import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { SecretHasher } from '../../../ports/secret-hasher';
import type { CredentialRepository } from '../../../ports/credential-repository';
import type { RefreshTokenRepository } from '../../../ports/refresh-token-repository';
import type { TokenService } from '../../../ports/token-service';
import { type ClientUser, REFRESH_TOKEN_TTL_MS } from '../credentials';

export interface Session {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
}

export interface SessionDeps {
  credentials: CredentialRepository;
  refreshTokens: RefreshTokenRepository;
  tokens: TokenService;
  secrets: SecretHasher;
  ids: IdGenerator;
  clock: Clock;
}

/**
 * An access token and a single-use refresh token (stored as a hash) for the user. A login starts
 * a new family of refresh tokens; a refresh passes the family of the token it rotated.
 */
export async function issueSession(deps: SessionDeps, user: ClientUser, familyId?: number): Promise<Session> {
  const { token, expiresIn } = deps.tokens.issue({ clientUserId: user.id, organizationId: user.organizationId });
  const refreshToken = 'rt_' + deps.ids.alphanumeric(48);
  const now = deps.clock.now();
  const expiresAt = new Date(now.getTime() + REFRESH_TOKEN_TTL_MS);
  const family = familyId ?? (await deps.refreshTokens.startRefreshTokenFamily(user.id, now));
  await deps.refreshTokens.insertRefreshToken(user.id, deps.secrets.digest(refreshToken), expiresAt, family);
  return { accessToken: token, refreshToken, expiresIn };
}
