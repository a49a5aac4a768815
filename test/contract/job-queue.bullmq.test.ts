import crypto from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { BullmqJobConsumer } from '../../adapters/queue/bullmq/bullmq-job-consumer';
import { ConflictError } from '../../internal/shared/errors';
import type { JobHandlers } from '../../ports/job-queue';
import { redisAvailable, TEST_REDIS_URL } from '../support/databases';
import { describeJobQueueContract } from './job-queue.contract';

// Every queue of this run lives under `test-<run>-<n>`; each is obliterated when closed, and the
// last test checks that no key of the run is left behind.
const RUN_PREFIX = `test-${crypto.randomBytes(4).toString('hex')}`;
let queues = 0;

/** Producer and consumer (not started) on a prefix of their own, one job at a time, 50 ms first backoff. */
async function openBullmq() {
  const prefix = `${RUN_PREFIX}-${++queues}`;
  const producer = new BullmqJobQueue(TEST_REDIS_URL, prefix, { backoffDelayMs: 50 });
  const consumer = new BullmqJobConsumer({ redisUrl: TEST_REDIS_URL, prefix, concurrency: 1, queue: producer.queue });
  return {
    producer,
    queue: producer,
    consumer,
    async close() {
      await consumer.close();
      await producer.queue.obliterate({ force: true });
      await producer.close();
    },
  };
}

async function waitFor<T>(probe: () => Promise<T | null | undefined>, what: string, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describeJobQueueContract('bullmq', { available: redisAvailable, open: openBullmq });

describe('job queue [bullmq] specifics', function () {
  this.timeout(20_000);
  before(async function () {
    if (!(await redisAvailable())) this.skip();
  });

  it('fails a job for good on a DomainError: state failed after one attempt', async () => {
    const harness = await openBullmq();
    try {
      await harness.consumer.start({
        'tenancy.purge-expired-refresh-tokens': async () => {
          throw new ConflictError('The product name is taken');
        },
      } as unknown as JobHandlers, []);
      await harness.queue.enqueue({ name: 'tenancy.purge-expired-refresh-tokens', data: {}, jobId: 'domain-1' });
      await waitFor(async () => (await harness.producer.queue.getJobState('domain-1')) === 'failed', 'the job to fail');
      const job = (await harness.producer.queue.getJob('domain-1'))!; // read after the state: final
      expect(job.attemptsMade).to.equal(1);
      expect(job.failedReason).to.equal('RESOURCE_CONFLICT: The product name is taken');
    } finally {
      await harness.close();
    }
  });

  it('adds the jobs enqueued in one turn with one addBulk, and refuses them all when it fails', async () => {
    const harness = await openBullmq();
    const queue = harness.producer.queue;
    const bulks: number[] = [];
    const addBulk = queue.addBulk.bind(queue);
    queue.addBulk = (jobs) => {
      bulks.push(jobs.length);
      return addBulk(jobs);
    };
    try {
      const job = (n: number) => ({ name: 'tenancy.purge-expired-refresh-tokens' as const, data: {}, jobId: `bulk-${n}` });
      await Promise.all([1, 2, 3].map((n) => harness.queue.enqueue(job(n))));
      expect(bulks).to.deep.equal([3]);
      expect(await queue.getJobCounts('wait')).to.deep.equal({ wait: 3 });

      queue.addBulk = async () => {
        throw new Error('Redis said no');
      };
      const outcomes = await Promise.allSettled([4, 5].map((n) => harness.queue.enqueue(job(n))));
      expect(outcomes.map((o) => o.status)).to.deep.equal(['rejected', 'rejected']);
      expect(String((outcomes[0] as PromiseRejectedResult).reason)).to.contain('Redis said no');
    } finally {
      await harness.close();
    }
  });

  it('leaves no key of this run behind', async () => {
    const redis = new Redis(TEST_REDIS_URL);
    try {
      expect(await redis.keys(`${RUN_PREFIX}*`)).to.deep.equal([]);
    } finally {
      redis.disconnect();
    }
  });
});

describe('BullmqJobQueue when Redis is unreachable', () => {
  it('rejects enqueue within seconds instead of hanging', async function () {
    this.timeout(10_000);
    const queue = new BullmqJobQueue('redis://127.0.0.1:1', `test-unreachable-${Date.now()}`);
    const started = Date.now();
    try {
      let error: unknown = null;
      await queue.enqueue({ name: 'tenancy.purge-expired-refresh-tokens', data: {} }).catch((e) => (error = e));
      expect(error).to.be.instanceOf(Error);
      expect(Date.now() - started).to.be.below(6000);
    } finally {
      await queue.close().catch(() => undefined);
    }
  });
});
