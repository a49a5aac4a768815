import { expect } from 'chai';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';

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
