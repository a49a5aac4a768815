import type { PasswordHasher } from '../../../ports/secret-hasher';
import { AuthenticationFailedError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../credentials';
import { issueSession, type Session, type SessionDeps } from './issue-session';

export interface LoginInput {
  loginApiKey: string | undefined;
  clientUsername: unknown;
  password: unknown;
}

/**
 * Called once the login key is known good and before the password is hashed: takes the
 * attempt's share of whatever limits the door keeps (it throws, typically RateLimitedError, to
 * refuse), and returns what to call when the password check is over.
 */
export type LoginAdmission = (attempt: { organizationId: number; clientUsername: string }) => Promise<() => void>;

/**
 * POST /auth/login. Every failure (key, user, password, disabled) is the same 401.
 *
 * A missing or unknown login key is refused first, before any hashing: the key is a
 * high-entropy secret looked up by its hash, not what is being guessed, so answering that 401
 * sooner tells nothing worth knowing, and a flood without a valid key costs no password hashing.
 * Past the key, the password check runs even for an unknown user (against a dummy hash), so
 * timing does not tell whether the username exists or the password was wrong.
 */
export class Login {
  constructor(private readonly deps: SessionDeps & { passwords: PasswordHasher; appEnv: AppEnv }) {
    requireDeps('Login', deps);
  }

  async execute(input: LoginInput, admit?: LoginAdmission): Promise<Session> {
    const { credentials, secrets, passwords, appEnv } = this.deps;
    const key = input.loginApiKey ? await credentials.findApiKey(secrets.digest(input.loginApiKey), 'login', appEnv) : null;
    if (!key) throw new AuthenticationFailedError();
    const username = typeof input.clientUsername === 'string' ? input.clientUsername : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const release = admit ? await admit({ organizationId: key.organizationId, clientUsername: username }) : null;
    let user;
    let passwordOk: boolean;
    try {
      user = username ? await credentials.findClientUserByUsername(username) : null;
      passwordOk = await passwords.verify(password, user?.passwordHash ?? null);
    } finally {
      release?.();
    }
    if (!user || !passwordOk || user.disabled || user.organizationId !== key.organizationId) {
      throw new AuthenticationFailedError();
    }
    return issueSession(this.deps, user);
  }
}
