/** /auth's throttle pieces: the password-hashing semaphore and the admission's 429 when it is full. */
import { expect } from 'chai';
import type { Context } from 'koa';
import pino from 'pino';
import { DEFAULT_AUTH_LIMITS, loginThrottle, Semaphore } from '../../adapters/http/middleware/login-throttle';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import { RateLimitedError } from '../../internal/shared/errors';

describe('Semaphore', () => {
  it('hands out its slots, queues up to its queue, refuses beyond, and passes a released slot to the next waiter', async () => {
    const semaphore = new Semaphore(2, 1);
    expect(await semaphore.acquire()).to.equal(true);
    expect(await semaphore.acquire()).to.equal(true);
    let third = false;
    const waiting = semaphore.acquire().then((ok) => (third = ok));
    expect(semaphore.waiting).to.equal(1);
    expect(await semaphore.acquire()).to.equal(false);
    await Promise.resolve();
    expect(third).to.equal(false);
    semaphore.release();
    await waiting;
    expect(third).to.equal(true);
    expect(semaphore.inUse).to.equal(2);
    semaphore.release();
    semaphore.release();
    expect(semaphore.inUse).to.equal(0);
    expect(await semaphore.acquire()).to.equal(true);
  });
});

describe('loginThrottle admission', () => {
  const ctx = (ip: string) => ({ ip, state: { requestId: 'req_test' } }) as unknown as Context;

  it('refuses a login beyond the hashing slots and their queue with 429 and Retry-After 1, and admits again once a slot is free', async () => {
    const throttle = loginThrottle(new InProcessTokenBucket(), pino({ level: 'silent' }), null, { ...DEFAULT_AUTH_LIMITS, concurrentHashes: 1, waitingHashes: 0 });
    const release = await throttle.admission(ctx('192.0.2.1'))({ organizationId: 1, clientUsername: 'a' });
    const refused = await throttle.admission(ctx('192.0.2.2'))({ organizationId: 1, clientUsername: 'b' }).catch((e) => e);
    expect(refused).to.be.instanceOf(RateLimitedError);
    expect((refused as RateLimitedError).retryAfterSeconds).to.equal(1);
    release();
    const again = await throttle.admission(ctx('192.0.2.2'))({ organizationId: 1, clientUsername: 'b' });
    again();
  });

  it('keys the username bucket by the login key\'s organization', async () => {
    const throttle = loginThrottle(new InProcessTokenBucket(), pino({ level: 'silent' }), null, {
      ...DEFAULT_AUTH_LIMITS,
      perUsername: { capacity: 2, refillPerSecond: 0.001 },
    });
    const attempt = async (ip: string, organizationId: number) => (await throttle.admission(ctx(ip))({ organizationId, clientUsername: 'victim' }))();
    await attempt('192.0.2.1', 1);
    await attempt('192.0.2.2', 1);
    expect(await attempt('192.0.2.3', 1).catch((e) => e)).to.be.instanceOf(RateLimitedError);
    // Another organization's key opens another bucket for the same name.
    await attempt('192.0.2.4', 2);
  });
});
