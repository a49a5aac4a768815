import type { RateLimitPolicy } from '../internal/tenancy/rate-limit';

export type { RateLimitPolicy };

export interface RateLimitDecision {
  allowed: boolean;
  /** The bucket's capacity. */
  limit: number;
  /** Whole tokens left after this request. */
  remaining: number;
  /** Seconds until the bucket is full again (at least 0). */
  resetSeconds: number;
  /** When refused: whole seconds until enough tokens are back (at least 1); else 0. */
  retryAfterSeconds: number;
}

/**
 * Rate limiting by key (an API key, a client address). Every process limiting the same key
 * must share one bucket: Redis in production, this process's memory on the embedded default.
 * A bucket always follows the policy of the call (a lowered capacity applies at once).
 */
export interface RateLimiter {
  /**
   * Takes `cost` tokens (default 1) from the key's bucket when it has them. Rejects, fast, when
   * the store holding the buckets cannot answer; the caller decides what that means.
   */
  consume(key: string, policy: RateLimitPolicy, cost?: number): Promise<RateLimitDecision>;
  close(): Promise<void>;
}
