import { expect } from 'chai';
import { InProcessTokenBucket, takeTokens } from '../../adapters/rate-limit/in-process-token-bucket';
import { InvalidRequestError } from '../../internal/shared/errors';
import { rateLimitPolicy } from '../../internal/tenancy/rate-limit';

describe('InProcessTokenBucket', () => {
  let now = 0;
  const policy = { capacity: 3, refillPerSecond: 1 };
  const limiter = () => new InProcessTokenBucket(() => now, 2);

  beforeEach(() => {
    now = 1_000_000;
  });

  it('allows a burst of capacity, then refuses with the seconds until a token is back', async () => {
    const l = limiter();
    const decisions = [];
    for (let i = 0; i < 4; i++) decisions.push(await l.consume('k', policy));
    expect(decisions.map((d) => d.allowed)).to.deep.equal([true, true, true, false]);
    expect(decisions.map((d) => d.remaining)).to.deep.equal([2, 1, 0, 0]);
    expect(decisions[3]).to.include({ limit: 3, retryAfterSeconds: 1, resetSeconds: 3 });
    expect(decisions[0]!.retryAfterSeconds).to.equal(0);
  });

  it('refills at the policy rate, never above capacity', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.consume('k', policy);
    now += 1500;
    expect(await l.consume('k', policy)).to.include({ allowed: true, remaining: 0 });
    now += 60_000;
    expect(await l.consume('k', policy)).to.include({ allowed: true, remaining: 2 });
  });

  it('keeps one bucket per key', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.consume('a', policy);
    expect((await l.consume('a', policy)).allowed).to.equal(false);
    expect((await l.consume('b', policy)).allowed).to.equal(true);
  });

  it('forgets the least recently used key past its bound, which only forgives it', async () => {
    const l = limiter();
    for (let i = 0; i < 3; i++) await l.consume('a', policy);
    await l.consume('b', policy);
    await l.consume('c', policy); // evicts a
    expect(await l.consume('a', policy)).to.include({ allowed: true, remaining: 2 });
  });

  it('charges a cost larger than one', async () => {
    const l = limiter();
    expect(await l.consume('k', policy, 3)).to.include({ allowed: true, remaining: 0 });
    expect(await l.consume('k', policy, 2)).to.include({ allowed: false, retryAfterSeconds: 2 });
  });
});

describe('takeTokens (the token-bucket arithmetic)', () => {
  const bucket = (tokens: number, updatedAt = 0) => ({ tokens, updatedAt });

  it('refills for the elapsed time at the policy rate, capped at capacity', () => {
    const b = bucket(0);
    expect(takeTokens(b, { capacity: 10, refillPerSecond: 2 }, 1, 2500)).to.include({ allowed: true, remaining: 4 });
    expect(b.tokens).to.equal(4);
    expect(b.updatedAt).to.equal(2500);
    expect(takeTokens(bucket(9), { capacity: 10, refillPerSecond: 2 }, 1, 60_000)).to.include({ allowed: true, remaining: 9 });
  });

  it('keeps fractional tokens: a slow refill adds up across calls', () => {
    const policy = { capacity: 1, refillPerSecond: 0.5 };
    const b = bucket(0);
    expect(takeTokens(b, policy, 1, 1000)).to.include({ allowed: false, remaining: 0, retryAfterSeconds: 1 });
    expect(b.tokens).to.be.closeTo(0.5, 1e-9);
    expect(takeTokens(b, policy, 1, 2000)).to.include({ allowed: true, remaining: 0 });
  });

  it('answers the seconds until full (reset) and until enough tokens (retry after), rounded up', () => {
    const policy = { capacity: 10, refillPerSecond: 3 };
    const refused = takeTokens(bucket(0.5), policy, 1, 0);
    expect(refused).to.deep.equal({ allowed: false, limit: 10, remaining: 0, resetSeconds: 4, retryAfterSeconds: 1 });
    const allowed = takeTokens(bucket(10), policy, 1, 0);
    expect(allowed).to.deep.equal({ allowed: true, limit: 10, remaining: 9, resetSeconds: 1, retryAfterSeconds: 0 });
    expect(takeTokens(bucket(0), { capacity: 10, refillPerSecond: 0.1 }, 1, 0)).to.include({ retryAfterSeconds: 10, resetSeconds: 100 });
  });

  it('applies a lowered capacity at once and a raised one by refilling, never by a free burst', () => {
    const b = bucket(8);
    expect(takeTokens(b, { capacity: 3, refillPerSecond: 1 }, 1, 0)).to.include({ allowed: true, remaining: 2, limit: 3 });
    expect(takeTokens(b, { capacity: 100, refillPerSecond: 1 }, 1, 0)).to.include({ allowed: true, remaining: 1, limit: 100 });
  });

  it('refuses without taking anything, so a refused caller does not dig the hole deeper', () => {
    const b = bucket(0.9);
    for (let i = 0; i < 5; i++) expect(takeTokens(b, { capacity: 5, refillPerSecond: 1 }, 1, 0).allowed).to.equal(false);
    expect(b.tokens).to.be.closeTo(0.9, 1e-9);
  });

  it('never counts time backwards (a clock step back refills nothing)', () => {
    const b = bucket(1, 5000);
    expect(takeTokens(b, { capacity: 5, refillPerSecond: 1 }, 1, 1000)).to.include({ allowed: true, remaining: 0 });
  });
});

describe('rateLimitPolicy (what an operator may set)', () => {
  it('accepts a whole capacity from 1 and a positive refill rate, fractions included', () => {
    expect(rateLimitPolicy(1, 0.25)).to.deep.equal({ capacity: 1, refillPerSecond: 0.25 });
    expect(rateLimitPolicy(1_000_000, 1_000_000)).to.deep.equal({ capacity: 1_000_000, refillPerSecond: 1_000_000 });
  });

  it('refuses a capacity below 1, fractional or too large, naming the field', () => {
    for (const capacity of [0, -1, 1.5, Number.NaN, 1_000_001]) {
      const error = catching(() => rateLimitPolicy(capacity, 1));
      expect(error, String(capacity)).to.be.instanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal(['capacity']);
    }
  });

  it('refuses a refill rate of 0, negative, not finite or too large, naming the field', () => {
    for (const rate of [0, -2, Number.POSITIVE_INFINITY, Number.NaN, 1_000_001]) {
      const error = catching(() => rateLimitPolicy(10, rate));
      expect(error, String(rate)).to.be.instanceOf(InvalidRequestError);
      expect((error as InvalidRequestError).details.map((d) => d.field)).to.deep.equal(['refill-per-second']);
    }
  });
});

function catching(work: () => unknown): unknown {
  try {
    work();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}
