import type { Application } from '../../../internal/application';
import type { LoginThrottle } from '../middleware/login-throttle';
import { route } from '../route';
import { loginBody, refreshBody, sessionSchema } from '../schemas/auth.schemas';

/** The token pair, at the top level of the body. */
const session = { response: sessionSchema, bare: true };

/**
 * /auth → internal/tenancy/commands/{login,refresh-session}. The platform login answers its
 * fields at the top level (`{ accessToken, refreshToken, expiresIn }`), as decisions.md
 * section 2 shows it, not under `data`. With `throttle` (middleware/login-throttle.ts), every
 * /auth request takes a token of its client address's bucket first, and a login whose key is
 * good takes one of its username's buckets and a password-hashing slot before the password check.
 */
export function authRoutes(app: Application, throttle?: LoginThrottle) {
  return [
    route<{ clientUsername: string; password: string }>({
      method: 'post', path: '/auth/login', operationId: 'login', tag: 'Authentication', summary: 'Log in with the login API key; returns an access and a refresh token',
      description:
        'Send the login API key in `x-api-key` (not the facade key). The answer is at the top level of the body: `accessToken` (send it as ' +
        '`x-authorization-token`, valid `expiresIn` seconds) and a single-use `refreshToken`. A wrong key, user or password is the same 401. ' +
        'Attempts are throttled per client address, per username and per pair, and password checks run a few at a time: beyond, 429 with Retry-After.',
      auth: 'login', body: loginBody, ...session, errors: throttle ? [400, 401, 429] : [400, 401],
      handle: async ({ body, ctx }) => {
        await throttle?.address(ctx);
        return { data: await app.commands.login.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }, throttle?.admission(ctx)) };
      },
    }),
    route<{ refreshToken: string }>({
      method: 'post', path: '/auth/refresh', operationId: 'refreshSession', tag: 'Authentication', summary: 'Exchange a single-use refresh token for a new pair',
      description: 'With the login API key in `x-api-key`. The refresh token works once: the answer carries a new access token and a new refresh token; reusing one is 401 and revokes every token of its family.',
      auth: 'login', body: refreshBody, ...session, errors: throttle ? [400, 401, 429] : [400, 401],
      handle: async ({ body, ctx }) => {
        await throttle?.address(ctx);
        return { data: await app.commands.refreshSession.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }, ctx.state.requestId) };
      },
    }),
  ];
}
