import type { Application } from '../../../internal/application';
import type { Session } from '../../../internal/tenancy/commands/issue-session';
import type { LoginThrottle } from '../middleware/login-throttle';
import { route } from '../route';
import { loginBody, refreshBody, sessionSchema } from '../schemas/auth.schemas';

/**
 * /auth → internal/tenancy/commands/{login,refresh-session}. The platform login answers its
 * fields at the top level (`{ accessToken, refreshToken, expiresIn }`), as decisions.md
 * section 2 shows it, not under `data`. With `throttle` (middleware/login-throttle.ts), every
 * /auth request takes a token of its client address's bucket first, and a login whose key is
 * good takes one of its username's buckets and a password-hashing slot before the password check.
 */
export function authRoutes(app: Application, throttle?: LoginThrottle) {
  // Cache-Control: no-store is on every route's answer (route.ts).
  const send = (session: Session) => ({ data: session, flat: true });
  return [
    route<{ clientUsername: string; password: string }>({
      method: 'post', path: '/auth/login', operationId: 'login', tag: 'Authentication', summary: 'Log in with the login API key; returns an access and a refresh token',
      auth: 'none', body: loginBody, response: sessionSchema, errors: throttle ? [400, 401, 429] : [400, 401],
      handle: async ({ body, ctx }) => {
        await throttle?.address(ctx);
        const session = await app.commands.login.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }, throttle?.admission(ctx));
        return send(session);
      },
    }),
    route<{ refreshToken: string }>({
      method: 'post', path: '/auth/refresh', operationId: 'refreshSession', tag: 'Authentication', summary: 'Exchange a single-use refresh token for a new pair',
      auth: 'none', body: refreshBody, response: sessionSchema, errors: throttle ? [400, 401, 429] : [400, 401],
      handle: async ({ body, ctx }) => {
        await throttle?.address(ctx);
        return send(await app.commands.refreshSession.execute({ loginApiKey: ctx.get('x-api-key') || undefined, ...body }, ctx.state.requestId));
      },
    }),
  ];
}
