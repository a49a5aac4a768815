import type { Application } from '../../../internal/application';
import type { LoginThrottle } from '../middleware/login-throttle';
import { route } from '../route';
import { loginBody, refreshBody, sessionSchema } from '../schemas/auth.schemas';

/** The token pair, at the top level of the body and never cached. */
const session = { response: sessionSchema, bare: true, headers: ['CacheControlNoStore' as const] };

/**
 * /auth → internal/tenancy/commands/{login,refresh-session}. The platform login answers its
 * fields at the top level (`{ accessToken, refreshToken, expiresIn }`), as decisions.md
 * section 2 shows it, not under `data`. With `throttle`, login attempts are rate limited per
 * username and client address (middleware/login-throttle.ts).
 */
export function authRoutes(app: Application, throttle?: LoginThrottle) {
  return [
    route<{ clientUsername: string; password: string }>({
      method: 'post', path: '/auth/login', operationId: 'login', tag: 'Authentication', summary: 'Log in with the login API key; returns an access and a refresh token',
      description:
        'Send the login API key in `x-api-key` (not the facade key). The answer is at the top level of the body: `accessToken` (send it as ' +
        '`x-authorization-token`, valid `expiresIn` seconds) and a single-use `refreshToken`. A wrong key, user or password is the same 401. ' +
        'Attempts are throttled per username and client address (429 with Retry-After).',
      auth: 'login', body: loginBody, ...session, errors: throttle ? [400, 401, 429] : [400, 401],
      handle: async ({ body, ctx }) => {
        await throttle?.(ctx, body.clientUsername);
        return { data: await app.commands.login.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }) };
      },
    }),
    route<{ refreshToken: string }>({
      method: 'post', path: '/auth/refresh', operationId: 'refreshSession', tag: 'Authentication', summary: 'Exchange a single-use refresh token for a new pair',
      description: 'With the login API key in `x-api-key`. The refresh token works once: the answer carries a new access token and a new refresh token; reusing one is 401.',
      auth: 'login', body: refreshBody, ...session, errors: [400, 401],
      handle: async ({ body, ctx }) => ({ data: await app.commands.refreshSession.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }) }),
    }),
  ];
}
