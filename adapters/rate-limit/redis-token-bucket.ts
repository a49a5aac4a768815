import { Redis } from 'ioredis';
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter';

/**
 * takeTokens (in-process-token-bucket.ts) as one atomic script: read the bucket, refill it for
 * the time elapsed on Redis's own clock (so API processes on different hosts agree), take the
 * cost when there is enough, write it back with a TTL of the time it takes to be full again (a
 * missing bucket is a full one). Returns { allowed, remaining, resetSeconds, retryAfterSeconds }.
 */
const TAKE_TOKENS_LUA = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
local cost = tonumber(ARGV[3])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = capacity
  at = now
end
tokens = math.min(capacity, tokens + math.max(0, now - at) / 1000 * rate)
local allowed = 0
if tokens >= cost then
  tokens = tokens - cost
  allowed = 1
end
local missing = capacity - tokens
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(missing / rate * 1000) + 1000)
local retry = 0
if allowed == 0 then retry = math.max(1, math.ceil((cost - tokens) / rate)) end
return { allowed, math.floor(tokens), math.ceil(missing / rate), retry }
`;

export interface RedisTokenBucketOptions {
  /** Key prefix (the queue prefix): buckets live under `<prefix>:rate-limit:<key>`. */
  prefix: string;
  /** A command taking longer fails (default 250 ms). */
  commandTimeoutMs?: number;
  /** After a failure, calls fail at once for this long instead of waiting again (default 1 s). */
  backoffMs?: number;
  now?: () => number;
}

type TakeTokens = (key: string, capacity: number, rate: number, cost: number) => Promise<[number, number, number, number]>;

/**
 * Token buckets in Redis, shared by every API process: one EVALSHA per request (ioredis loads
 * the script on first use and falls back to EVAL after a Redis restart). Fail fast: no offline
 * queue, a command timeout, and a short back-off after a failure, so an unreachable Redis costs
 * a request microseconds, not a timeout each.
 */
export class RedisTokenBucket implements RateLimiter {
  private readonly redis: Redis & { takeTokens: TakeTokens };
  private unavailableUntil = 0;
  private connecting: Promise<void> | null = null;
  private readonly now: () => number;

  constructor(
    redisUrl: string,
    private readonly options: RedisTokenBucketOptions,
  ) {
    this.now = options.now ?? Date.now;
    const redis = new Redis(redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 1000,
    });
    redis.on('error', () => undefined); // reported by the failing calls
    redis.defineCommand('takeTokens', { numberOfKeys: 1, lua: TAKE_TOKENS_LUA });
    this.redis = redis as Redis & { takeTokens: TakeTokens };
  }

  async consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitDecision> {
    if (this.now() < this.unavailableUntil) throw new Error('Redis rate limiter unavailable (backing off after a failure)');
    try {
      // Connected on first use (a process that never limits opens no connection); later
      // drops reconnect on their own while calls fail fast.
      if (this.redis.status === 'wait') await (this.connecting ??= this.redis.connect().finally(() => (this.connecting = null)));
      const [allowed, remaining, resetSeconds, retryAfterSeconds] = await this.redis.takeTokens(
        `${this.options.prefix}:rate-limit:${key}`,
        policy.capacity,
        policy.refillPerSecond,
        cost,
      );
      return { allowed: allowed === 1, limit: policy.capacity, remaining, resetSeconds, retryAfterSeconds };
    } catch (error) {
      this.unavailableUntil = this.now() + (this.options.backoffMs ?? 1000);
      throw error;
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
