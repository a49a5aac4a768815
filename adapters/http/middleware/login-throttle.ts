import type { Context } from 'koa';
import type { Logger } from 'pino';
import { RateLimitedError } from '../../../internal/shared/errors';
import type { RateLimiter, RateLimitPolicy } from '../../../ports/rate-limiter';
import type { Metrics } from '../../metrics/metrics';
import { failOpen } from './rate-limit';

/**
 * Login attempts of one username from one client address: a burst of 10, then one every 6 s
 * (10 a minute). Password guessing against a user is slowed to that pace; an integrator logs in
 * once per session and renews it with /auth/refresh, which is not throttled (its tokens are
 * 256-bit random, nothing to guess).
 */
export const LOGIN_ATTEMPTS: RateLimitPolicy = { capacity: 10, refillPerSecond: 1 / 6 };

/** Takes one attempt or throws 429 RATE_LIMITED (with Retry-After); fails open like the facade gate. */
export type LoginThrottle = (ctx: Context, clientUsername: string) => Promise<void>;

export function loginThrottle(limiter: RateLimiter, logger: Logger, metrics?: Metrics | null): LoginThrottle {
  const consume = failOpen(limiter, logger, metrics);
  return async (ctx, clientUsername) => {
    const decision = await consume(`login:${ctx.ip}:${clientUsername}`, LOGIN_ATTEMPTS, ctx.state.requestId);
    if (decision && !decision.allowed) {
      metrics?.requestRateLimited();
      throw new RateLimitedError(decision.retryAfterSeconds);
    }
  };
}
