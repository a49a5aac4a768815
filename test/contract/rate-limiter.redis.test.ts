import crypto from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { RedisTokenBucket } from '../../adapters/rate-limit/redis-token-bucket';
import { deleteRedisKeys, redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis';
import { describeRateLimiterContract } from './rate-limiter.contract';

// Buckets of this run live under `test-<run>:rate-limit:`; after() deletes them (never FLUSHALL).
const PREFIX = `test-${crypto.randomBytes(4).toString('hex')}`;

describeRateLimiterContract('redis', async () => {
  if (!(await redisAvailable())) return null;
  const limiter = new RedisTokenBucket(TEST_REDIS_URL, { prefix: PREFIX });
  return {
    limiter,
    async close() {
      await limiter.close();
      await deleteRedisKeys(TEST_REDIS_URL, `${PREFIX}:rate-limit:*`);
    },
  };
});

describe('RedisTokenBucket beyond the contract', function () {
  this.timeout(30_000);
  let redis: PrivateRedis | null = null;

  before(async function () {
    if (!(await redisAvailable())) this.skip(); // same machine requirement as the shared Redis
    redis = await startPrivateRedis();
  });
  after(async () => {
    await redis?.stop();
  });

  it('keeps each bucket under <prefix>:rate-limit:<key>, expiring when it would be full again', async () => {
    const limiter = new RedisTokenBucket(redis!.url, { prefix: 'p1' });
    const client = new Redis(redis!.url);
    try {
      await limiter.consume('org:ck_dev_abc', { capacity: 10, refillPerSecond: 2 });
      expect(await client.keys('*')).to.deep.equal(['p1:rate-limit:org:ck_dev_abc']);
      // One token short at 2/s: full in 500 ms, kept a second beyond that.
      const ttl = await client.pttl('p1:rate-limit:org:ck_dev_abc');
      expect(ttl).to.be.above(1000).and.at.most(1500);
    } finally {
      client.disconnect();
      await limiter.close();
    }
  });

  it('fails fast while Redis is away, backs off, and works again once it is back', async () => {
    const limiter = new RedisTokenBucket(redis!.url, { prefix: 'p2', backoffMs: 200 });
    const policy = { capacity: 5, refillPerSecond: 1 };
    try {
      expect((await limiter.consume('k', policy)).allowed).to.equal(true);
      await redis!.stop();
      const started = Date.now();
      let failure: unknown = null;
      await limiter.consume('k', policy).catch((error) => (failure = error));
      expect(failure).to.be.instanceOf(Error);
      expect(Date.now() - started, 'rejects within the command timeout').to.be.below(1000);
      // Within the back-off the next call does not even try.
      const again = Date.now();
      await limiter.consume('k', policy).then(
        () => expect.fail('should reject'),
        (error: Error) => expect(error.message).to.match(/backing off/),
      );
      expect(Date.now() - again).to.be.below(50);

      await redis!.restart();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const decision = await limiter.consume('k', policy).catch(() => null);
        if (decision) {
          // The restarted Redis is empty: the bucket starts full again.
          expect(decision).to.include({ allowed: true, remaining: 4 });
          break;
        }
        expect(Date.now(), 'works again within 10 s of Redis coming back').to.be.below(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await limiter.close();
    }
  });

  it('starts while Redis is away (the first call fails within the connect timeout) and works once Redis comes up', async () => {
    await redis!.stop();
    const limiter = new RedisTokenBucket(redis!.url, { prefix: 'p4', backoffMs: 100 });
    try {
      const started = Date.now();
      let failure: unknown = null;
      await limiter.consume('k', { capacity: 2, refillPerSecond: 1 }).catch((error) => (failure = error));
      expect(failure).to.be.instanceOf(Error);
      expect(Date.now() - started).to.be.below(2000);
      await redis!.restart();
      const deadline = Date.now() + 10_000;
      for (;;) {
        const decision = await limiter.consume('k', { capacity: 2, refillPerSecond: 1 }).catch(() => null);
        if (decision) {
          expect(decision).to.include({ allowed: true, remaining: 1 });
          break;
        }
        expect(Date.now(), 'works within 10 s of Redis coming up').to.be.below(deadline);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } finally {
      await limiter.close();
    }
  });

  it('reloads its script after Redis forgot it (SCRIPT FLUSH)', async () => {
    const limiter = new RedisTokenBucket(redis!.url, { prefix: 'p3' });
    const client = new Redis(redis!.url);
    try {
      await limiter.consume('k', { capacity: 3, refillPerSecond: 1 });
      await client.script('FLUSH');
      expect(await limiter.consume('k', { capacity: 3, refillPerSecond: 0.001 })).to.include({ allowed: true, remaining: 1 });
    } finally {
      client.disconnect();
      await limiter.close();
    }
  });
});
