import type { Context } from 'koa';
import type { Logger } from 'pino';
import { RateLimitedError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from '../../../ports/rate-limiter';
import type { Metrics } from '../../metrics/metrics';

export interface RateLimitOptions {
  limiter: RateLimiter;
  /** The bucket of organizations without one of their own; null: those are not limited. */
  defaults: RateLimitPolicy | null;
  logger: Logger;
  metrics?: Metrics | null;
}

/** Runs after authentication on every facade route: takes a token or throws 429 RATE_LIMITED. */
export type RateLimitGate = (ctx: Context, scope: TenantScope) => Promise<void>;

/** A failing limiter is logged at most this often (it fails open on every request meanwhile). */
const WARN_EVERY_MS = 10_000;

/**
 * `limiter.consume` that fails open: when the limiter's store does not answer, the answer is
 * null (the request goes through unlimited), logged at most every 10 s and counted.
 */
export function failOpen(
  limiter: RateLimiter,
  logger: Logger,
  metrics: Metrics | null | undefined,
): (key: string, policy: RateLimitPolicy, requestId?: string | null) => Promise<RateLimitDecision | null> {
  let warnedAt = 0;
  return async (key, policy, requestId) => {
    try {
      return await limiter.consume(key, policy);
    } catch (error) {
      metrics?.rateLimiterFailed();
      if (Date.now() - warnedAt >= WARN_EVERY_MS) {
        warnedAt = Date.now();
        logger.warn({ err: error, requestId }, 'rate limiter unavailable: requests go through unlimited (fail open)');
      }
      return null;
    }
  };
}

/**
 * One bucket per facade API key (organization id + key prefix), with the organization's policy
 * read along with the credentials. Every answer of an authenticated facade request carries
 * RateLimit-Limit / -Remaining / -Reset (IETF draft style); a refusal adds Retry-After. When the
 * limiter's store does not answer the request goes through unlimited and without those headers
 * (fail open: Redis trouble must not take the API down), logged and counted.
 */
export function rateLimitGate(options: RateLimitOptions): RateLimitGate {
  const { defaults, metrics } = options;
  const consume = failOpen(options.limiter, options.logger, metrics);
  return async (ctx, scope) => {
    const policy = scope.rateLimit ?? defaults;
    if (!policy) return;
    const decision = await consume(`${scope.organizationId}:${scope.apiKeyPrefix ?? scope.clientUserId}`, policy, scope.requestId);
    if (!decision) return;
    ctx.set('RateLimit-Limit', String(decision.limit));
    ctx.set('RateLimit-Remaining', String(decision.remaining));
    ctx.set('RateLimit-Reset', String(decision.resetSeconds));
    if (!decision.allowed) {
      metrics?.requestRateLimited();
      throw new RateLimitedError(decision.retryAfterSeconds);
    }
  };
}
