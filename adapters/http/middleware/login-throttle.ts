import type { Context } from 'koa';
import type { Logger } from 'pino';
import type { LoginAdmission } from '../../../internal/tenancy/commands/login';
import { RateLimitedError } from '../../../internal/shared/errors';
import type { RateLimiter, RateLimitPolicy } from '../../../ports/rate-limiter';
import type { Metrics } from '../../metrics/metrics';
import { failOpen } from './rate-limit';

/**
 * The buckets and the hashing bound of /auth (docs/security.md, docs/operations.md):
 *
 * - `perAddress`: every POST /auth/login and /auth/refresh of one client address, taken before
 *   the login key is even looked up (a flood without a key stops here).
 * - `perAddressAndUsername`: login attempts of one username from one address.
 * - `perUsername`: login attempts of one username through its organization's login key, from
 *   any address (distributed guessing of one password). Keyed by the key's organization, so
 *   attempts through another organization's key (which could never succeed) cannot lock the
 *   user out.
 * - `concurrentHashes` / `waitingHashes`: password checks (scrypt, 16 MiB and ~40 ms of a core
 *   each) this process runs at once, and how many more may wait for a slot; beyond that 429.
 */
export interface AuthLimits {
  perAddress: RateLimitPolicy;
  perAddressAndUsername: RateLimitPolicy;
  perUsername: RateLimitPolicy;
  concurrentHashes: number;
  waitingHashes: number;
}

/**
 * Login attempts of one username from one client address: a burst of 10, then one every 6 s
 * (10 a minute). Password guessing against a user from one place goes no faster.
 */
export const LOGIN_ATTEMPTS: RateLimitPolicy = { capacity: 10, refillPerSecond: 1 / 6 };

export const DEFAULT_AUTH_LIMITS: AuthLimits = {
  perAddress: { capacity: 30, refillPerSecond: 0.5 },
  perAddressAndUsername: LOGIN_ATTEMPTS,
  perUsername: { capacity: 20, refillPerSecond: 1 / 6 },
  concurrentHashes: 2,
  waitingHashes: 4,
};

/**
 * /auth's throttle. `address` runs first on every /auth request; `admission` is handed to the
 * Login use case, which calls it once the login key is known good and before any hashing.
 * Buckets fail open with the limiter (like the facade gate); the hashing bound is this
 * process's own and never fails.
 */
export interface LoginThrottle {
  address(ctx: Context): Promise<void>;
  admission(ctx: Context): LoginAdmission;
}

export function loginThrottle(limiter: RateLimiter, logger: Logger, metrics?: Metrics | null, limits: AuthLimits = DEFAULT_AUTH_LIMITS): LoginThrottle {
  const consume = failOpen(limiter, logger, metrics);
  const hashing = new Semaphore(limits.concurrentHashes, limits.waitingHashes);
  const take = async (ctx: Context, key: string, policy: RateLimitPolicy) => {
    const decision = await consume(key, policy, ctx.state.requestId);
    if (decision && !decision.allowed) {
      metrics?.requestRateLimited();
      throw new RateLimitedError(decision.retryAfterSeconds);
    }
  };
  return {
    address: (ctx) => take(ctx, `auth:${ctx.ip}`, limits.perAddress),
    admission: (ctx) => async ({ organizationId, clientUsername }) => {
      // The pair first: one address hammering a user is refused without draining the user's own bucket.
      await take(ctx, `login:${ctx.ip}:${clientUsername}`, limits.perAddressAndUsername);
      await take(ctx, `login-user:${organizationId}:${clientUsername}`, limits.perUsername);
      if (!(await hashing.acquire())) {
        metrics?.requestRateLimited();
        throw new RateLimitedError(1);
      }
      return () => hashing.release();
    },
  };
}

/** At most `slots` holders at once and `queue` waiters; a caller beyond both is told no at once. */
export class Semaphore {
  private held = 0;
  private readonly waiters: (() => void)[] = [];

  constructor(
    private readonly slots: number,
    private readonly queue: number,
  ) {
    if (!(slots >= 1)) throw new Error('a semaphore needs at least one slot');
  }

  /** True once a slot is held (at once, or after waiting in the queue); false when both are full. */
  async acquire(): Promise<boolean> {
    if (this.held < this.slots) {
      this.held++;
      return true;
    }
    if (this.waiters.length >= this.queue) return false;
    await new Promise<void>((resolve) => this.waiters.push(resolve));
    return true;
  }

  release(): void {
    const next = this.waiters.shift();
    // The slot passes straight to the next waiter: `held` stays the same.
    if (next) next();
    else this.held--;
  }

  get inUse(): number {
    return this.held;
  }

  get waiting(): number {
    return this.waiters.length;
  }
}
