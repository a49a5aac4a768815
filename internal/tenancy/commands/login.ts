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
 * POST /auth/login. Every failure (key, user, password, disabled) is the same 401, and the
 * password check runs even for an unknown user so timing does not tell which part was wrong.
 */
export class Login {
  constructor(private readonly deps: SessionDeps & { passwords: PasswordHasher; appEnv: AppEnv }) {
    requireDeps('Login', deps);
  }

  async execute(input: LoginInput): Promise<Session> {
    const { tenancy, secrets, passwords, appEnv } = this.deps;
    const username = typeof input.clientUsername === 'string' ? input.clientUsername : '';
    const password = typeof input.password === 'string' ? input.password : '';
    const [key, user] = await Promise.all([
      input.loginApiKey ? tenancy.findApiKey(secrets.digest(input.loginApiKey), 'login', appEnv) : null,
      username ? tenancy.findClientUserByUsername(username) : null,
    ]);
    const passwordOk = await passwords.verify(password, user?.passwordHash ?? null);
    if (!key || !user || !passwordOk || user.disabled || user.organizationId !== key.organizationId) {
      throw new AuthenticationFailedError();
    }
    return issueSession(this.deps, user);
  }
}
