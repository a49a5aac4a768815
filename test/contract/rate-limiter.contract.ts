/**
 * The RateLimiter port, held to the same answers on every adapter: the in-process buckets of the
 * embedded default and the Redis script shared by API processes.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import type { RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter';

export interface LimiterHarness {
  limiter: RateLimiter;
  close(): Promise<void>;
}

const key = (): string => `key-${crypto.randomBytes(6).toString('hex')}`;
/** A refill so slow nothing comes back during a test. */
const STILL = 0.001;

export function describeRateLimiterContract(adapterName: string, open: () => Promise<LimiterHarness | null>): void {
  describe(`rate limiter contract [${adapterName}]`, function () {
    this.timeout(20_000);
    let harness: LimiterHarness | null = null;
    const limiter = (): RateLimiter => harness!.limiter;

    before(async function () {
      harness = await open();
      if (!harness) this.skip();
    });
    after(async () => {
      await harness?.close();
    });

    it('starts a key full: a burst of capacity, counting down, then a refusal with Retry-After', async () => {
      const k = key();
      const policy: RateLimitPolicy = { capacity: 3, refillPerSecond: 0.5 };
      const decisions = [];
      for (let i = 0; i < 4; i++) decisions.push(await limiter().consume(k, policy));
      expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, false]);
      expect(decisions.map((d) => d.remaining)).to.deep.equal([2, 1, 0, 0]);
      expect(decisions.map((d) => d.limit)).to.deep.equal([3, 3, 3, 3]);
      expect(decisions[0]).to.include({ retryAfterSeconds: 0, resetSeconds: 2 });
      // Empty at 0.5 tokens/s: 2 s until one token, 6 s until full (a refusal takes nothing).
      expect(decisions[3]).to.include({ retryAfterSeconds: 2, resetSeconds: 6 });
    });

    it('answers takes made at the same moment each as if made alone, in order (also with other keys and policies among them)', async () => {
      const [k, other] = [key(), key()];
      const policy: RateLimitPolicy = { capacity: 3, refillPerSecond: STILL };
      const decisions = await Promise.all([
        limiter().consume(k, policy),
        limiter().consume(other, policy),
        limiter().consume(k, policy, 2),
        limiter().consume(k, policy),
        limiter().consume(k, policy),
        limiter().consume(k, { capacity: 10, refillPerSecond: STILL }),
      ]);
      expect(decisions.map((d) => [d.allowed, d.remaining, d.limit])).to.deep.equal([
        [true, 2, 3],
        [true, 2, 3],
        [true, 0, 3],
        [false, 0, 3],
        [false, 0, 3],
        // A policy of its own still takes from the same (empty) bucket.
        [false, 0, 10],
      ]);
      expect(decisions[3]!.retryAfterSeconds).to.be.at.least(1);
    });

    it('keeps one bucket per key', async () => {
      const [a, b] = [key(), key()];
      const policy = { capacity: 2, refillPerSecond: STILL };
      await limiter().consume(a, policy);
      await limiter().consume(a, policy);
      expect((await limiter().consume(a, policy)).allowed).to.equal(false);
      expect(await limiter().consume(b, policy)).to.include({ allowed: true, remaining: 1 });
    });

    it('refills with time at the policy rate', async () => {
      const k = key();
      const policy = { capacity: 2, refillPerSecond: 20 };
      await limiter().consume(k, policy);
      await limiter().consume(k, policy);
      const emptied = Date.now();
      expect((await limiter().consume(k, policy)).allowed).to.equal(false);
      // One token is back after 50 ms at 20/s; poll for it.
      for (;;) {
        const decision = await limiter().consume(k, policy);
        if (decision.allowed) break;
        expect(Date.now() - emptied, 'a token within a second').to.be.below(1000);
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      expect(Date.now() - emptied).to.be.at.least(40);
    });

    it('follows the policy of each call: a lowered capacity applies at once', async () => {
      const k = key();
      expect(await limiter().consume(k, { capacity: 10, refillPerSecond: STILL })).to.include({ remaining: 9, limit: 10 });
      expect(await limiter().consume(k, { capacity: 3, refillPerSecond: STILL })).to.include({ allowed: true, remaining: 2, limit: 3 });
    });

    it('charges a cost above one only when the bucket holds it', async () => {
      const k = key();
      const policy = { capacity: 5, refillPerSecond: STILL };
      expect(await limiter().consume(k, policy, 4)).to.include({ allowed: true, remaining: 1 });
      expect(await limiter().consume(k, policy, 2)).to.include({ allowed: false, remaining: 1 });
      expect(await limiter().consume(k, policy, 1)).to.include({ allowed: true, remaining: 0 });
    });

    it('never lets concurrent calls take more than the capacity', async () => {
      const k = key();
      const policy = { capacity: 5, refillPerSecond: STILL };
      const decisions = await Promise.all(Array.from({ length: 20 }, () => limiter().consume(k, policy)));
      expect(decisions.filter((d) => d.allowed)).to.have.length(5);
      expect(decisions.filter((d) => d.allowed).map((d) => d.remaining).sort()).to.deep.equal([0, 1, 2, 3, 4]);
    });
  });
}
