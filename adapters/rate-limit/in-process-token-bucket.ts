import { LRUCache } from 'lru-cache';
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter';

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token buckets in this process's memory: the rate limiter of the embedded default (one API
 * process). At most `maxKeys` buckets are kept; the least recently used one goes first, which
 * only ever forgives a key, never punishes one.
 */
export class InProcessTokenBucket implements RateLimiter {
  private readonly buckets: LRUCache<string, Bucket>;

  constructor(
    private readonly now: () => number = Date.now,
    maxKeys = 100_000,
  ) {
    this.buckets = new LRUCache({ max: maxKeys });
  }

  async consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitDecision> {
    return takeTokens(this.bucket(key, policy), policy, cost, this.now());
  }

  async close(): Promise<void> {
    this.buckets.clear();
  }

  private bucket(key: string, policy: RateLimitPolicy): Bucket {
    let bucket = this.buckets.get(key);
    if (!bucket) {
      bucket = { tokens: policy.capacity, updatedAt: this.now() };
      this.buckets.set(key, bucket);
    }
    return bucket;
  }
}

/**
 * The token-bucket arithmetic. The Redis adapter runs the same steps in Lua
 * (redis-token-bucket.ts); the contract suite holds both to the same answers.
 */
export function takeTokens(bucket: Bucket, policy: RateLimitPolicy, cost: number, now: number): RateLimitDecision {
  const elapsedSeconds = Math.max(0, now - bucket.updatedAt) / 1000;
  bucket.tokens = Math.min(policy.capacity, bucket.tokens + elapsedSeconds * policy.refillPerSecond);
  bucket.updatedAt = now;
  const allowed = bucket.tokens >= cost;
  if (allowed) bucket.tokens -= cost;
  const missing = policy.capacity - bucket.tokens;
  return {
    allowed,
    limit: policy.capacity,
    remaining: Math.floor(bucket.tokens),
    resetSeconds: Math.ceil(missing / policy.refillPerSecond),
    retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((cost - bucket.tokens) / policy.refillPerSecond)),
  };
}
