import { openRedis, type RedisConnection } from '../redis/connection';
import type { RateLimitDecision, RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter';

/**
 * takeTokens (in-process-token-bucket.ts) as one atomic script, for several takes of one bucket
 * in order (the requests of one moment): read the bucket, refill it for the time elapsed on
 * Redis's own clock (so API processes on different hosts agree), then for each cost take it when
 * there is enough, exactly as that many calls one after the other would; write the bucket back
 * with a TTL of the time it takes to be full again (a missing bucket is a full one). Returns
 * { allowed, remaining, resetSeconds, retryAfterSeconds } per take, flattened.
 */
const TAKE_TOKENS_LUA = `
local capacity = tonumber(ARGV[1])
local rate = tonumber(ARGV[2])
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
local out = {}
for i = 3, #ARGV do
  local cost = tonumber(ARGV[i])
  local allowed = 0
  if tokens >= cost then
    tokens = tokens - cost
    allowed = 1
  end
  local retry = 0
  if allowed == 0 then retry = math.max(1, math.ceil((cost - tokens) / rate)) end
  out[#out + 1] = allowed
  out[#out + 1] = math.floor(tokens)
  out[#out + 1] = math.ceil((capacity - tokens) / rate)
  out[#out + 1] = retry
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((capacity - tokens) / rate * 1000) + 1000)
return out
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

type TakeTokens = (key: string, capacity: number, rate: number, ...costs: number[]) => Promise<number[]>;

/** The takes of one bucket waiting for this moment's script call. */
interface Batch {
  key: string;
  policy: RateLimitPolicy;
  takes: { cost: number; resolve(decision: RateLimitDecision): void; reject(error: unknown): void }[];
}

/**
 * Token buckets in Redis, shared by every API process. The takes of one bucket that arrive in the
 * same turn of the event loop go in one EVALSHA (ioredis loads the script on first use and falls
 * back to EVAL after a Redis restart), answered each as if made alone, in order: one script call
 * per key and moment instead of one per request. Fail fast: no offline
 * queue, a command timeout, and a short back-off after a failure, so an unreachable Redis costs
 * a request microseconds, not a timeout each.
 */
export class RedisTokenBucket implements RateLimiter {
  private readonly redis: RedisConnection & { takeTokens: TakeTokens };
  private unavailableUntil = 0;
  private connecting: Promise<void> | null = null;
  private readonly now: () => number;
  private readonly batches = new Map<string, Batch>();

  constructor(
    redisUrl: string,
    private readonly options: RedisTokenBucketOptions,
  ) {
    this.now = options.now ?? Date.now;
    const redis = openRedis(redisUrl, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: options.commandTimeoutMs ?? 250,
      connectTimeout: 1000,
    });
    redis.on('error', () => undefined); // reported by the failing calls
    redis.defineCommand('takeTokens', { numberOfKeys: 1, lua: TAKE_TOKENS_LUA });
    this.redis = redis as RedisConnection & { takeTokens: TakeTokens };
  }

  consume(key: string, policy: RateLimitPolicy, cost = 1): Promise<RateLimitDecision> {
    if (this.now() < this.unavailableUntil) return Promise.reject(new Error('Redis rate limiter unavailable (backing off after a failure)'));
    return new Promise((resolve, reject) => {
      const id = `${policy.capacity}:${policy.refillPerSecond}:${key}`;
      let batch = this.batches.get(id);
      if (!batch) {
        batch = { key, policy, takes: [] };
        this.batches.set(id, batch);
        if (this.batches.size === 1) setImmediate(() => this.flush());
      }
      batch.takes.push({ cost, resolve, reject });
    });
  }

  private flush(): void {
    const batches = [...this.batches.values()];
    this.batches.clear();
    for (const batch of batches) void this.take(batch);
  }

  private async take({ key, policy, takes }: Batch): Promise<void> {
    try {
      // Connected on first use (a process that never limits opens no connection); later
      // drops reconnect on their own while calls fail fast.
      if (this.redis.status === 'wait') await (this.connecting ??= this.redis.connect().finally(() => (this.connecting = null)));
      const answer = await this.redis.takeTokens(
        `${this.options.prefix}:rate-limit:${key}`,
        policy.capacity,
        policy.refillPerSecond,
        ...takes.map((t) => t.cost),
      );
      takes.forEach((take, i) => {
        const [allowed, remaining, resetSeconds, retryAfterSeconds] = answer.slice(4 * i, 4 * i + 4) as [number, number, number, number];
        take.resolve({ allowed: allowed === 1, limit: policy.capacity, remaining, resetSeconds, retryAfterSeconds });
      });
    } catch (error) {
      this.unavailableUntil = this.now() + (this.options.backoffMs ?? 1000);
      for (const take of takes) take.reject(error);
    }
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
