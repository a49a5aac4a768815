/**
 * The job queue contract: one suite, run against the in-process queue and BullMQ through the
 * JobQueue port (producer) and the JobConsumer port. Entry files: job-queue.<adapter>.test.ts.
 * Not a spec itself (it does not match test/**\/*.test.ts).
 *
 * Every test opens its own queue (for BullMQ, a prefix of its own) and starts its consumer with
 * the handlers it needs.
 */
import { expect } from 'chai';
import { ConflictError } from '../../internal/shared/errors';
import type { Job, JobHandlers, JobQueue } from '../../ports/job-queue';
import type { FinishedJob, JobConsumer } from '../../ports/job-consumer';

export interface QueueHarness {
  /** The producer side, as the application sees it. */
  queue: JobQueue;
  /** The consumer side, not started yet. */
  consumer: JobConsumer;
  /** Closes the consumer (resolving once the active job has finished) and releases everything. */
  close(): Promise<void>;
}

export interface JobQueueAdapter {
  /** False skips the suite (its server is absent). */
  available?(): Promise<boolean>;
  /**
   * A producer and a consumer over a queue of their own. Transient failures must be retried at
   * least twice (three attempts), quickly; the consumer runs at least one job at a time.
   */
  open(): Promise<QueueHarness>;
}

// The port knows one job name today; tests tell their jobs apart by data.
const JOB = 'tenancy.purge-expired-refresh-tokens' as const;
type Data = Record<string, unknown>;

async function waitFor(condition: () => boolean, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const uid = (): string => Math.random().toString(36).slice(2, 10);

export function describeJobQueueContract(adapterName: string, adapter: JobQueueAdapter): void {
  describe(`job queue contract [${adapterName}]`, function () {
    this.timeout(20_000);
    const opened: { harness: QueueHarness; closed: boolean }[] = [];

    /** Opens a queue; afterEach closes it if the test did not. */
    async function openQueue(): Promise<QueueHarness> {
      const entry = { harness: await adapter.open(), closed: false };
      opened.push(entry);
      return {
        queue: entry.harness.queue,
        consumer: entry.harness.consumer,
        close: async () => {
          entry.closed = true;
          await entry.harness.close();
        },
      };
    }

    /** Opens a queue whose consumer runs `handle` for every job; afterEach closes it if the test did not. */
    async function open(handle: (data: Data) => Promise<unknown>) {
      const entry = { harness: await adapter.open(), closed: false };
      opened.push(entry);
      await entry.harness.consumer.start({ [JOB]: handle } as unknown as JobHandlers, []);
      return {
        consumer: entry.harness.consumer,
        // Any payload: the queue carries what it is given (the real producers are typed by JobPayloads).
        enqueue: (data: Data, jobId?: string) => entry.harness.queue.enqueue({ name: JOB, data, ...(jobId ? { jobId } : {}) } as unknown as Job),
        close: async () => {
          entry.closed = true;
          await entry.harness.close();
        },
      };
    }

    before(async function () {
      if (adapter.available && !(await adapter.available())) this.skip();
    });
    afterEach(async () => {
      for (const entry of opened.splice(0)) if (!entry.closed) await entry.harness.close();
    });

    it('handles a job once, with its data', async () => {
      const seen: Data[] = [];
      const q = await open(async (data) => void seen.push(data));
      await q.enqueue({ n: 1, text: 'héllo', nested: { ok: true } });
      await waitFor(() => seen.length >= 1, 'the job');
      await q.close();
      expect(seen).to.deep.equal([{ n: 1, text: 'héllo', nested: { ok: true } }]);
    });

    it('runs a jobId enqueued twice in a row once', async () => {
      const tags: unknown[] = [];
      const q = await open(async (data) => void tags.push(data.tag));
      const jobId = `dup-${uid()}`;
      await q.enqueue({ tag: 'first' }, jobId);
      await q.enqueue({ tag: 'second' }, jobId);
      await q.enqueue({ tag: 'witness' }); // enqueued last: once it ran, a duplicate would have too
      await waitFor(() => tags.includes('witness'), 'the witness job');
      await q.close();
      expect(tags).to.deep.equal(['first', 'witness']);
    });

    it('runs the jobs enqueued together each once, a jobId repeated among them once', async () => {
      const tags: unknown[] = [];
      const q = await open(async (data) => void tags.push(data.tag));
      const jobId = `together-${uid()}`;
      // One turn: what a group commit's outbox hand-over does (the BullMQ producer adds them in one round trip).
      await Promise.all([q.enqueue({ tag: 'a' }), q.enqueue({ tag: 'b' }, jobId), q.enqueue({ tag: 'b again' }, jobId), q.enqueue({ tag: 'c' })]);
      await waitFor(() => tags.length >= 3, 'three jobs');
      await q.enqueue({ tag: 'witness' });
      await waitFor(() => tags.includes('witness'), 'the witness job');
      await q.close();
      expect([...tags].sort()).to.deep.equal(['a', 'b', 'c', 'witness']);
    });

    it('ignores a jobId that already ran', async () => {
      const tags: unknown[] = [];
      const q = await open(async (data) => void tags.push(data.tag));
      const jobId = `ran-${uid()}`;
      await q.enqueue({ tag: 'first' }, jobId);
      await waitFor(() => tags.includes('first'), 'the first job');
      await q.enqueue({ tag: 'again' }, jobId);
      await q.enqueue({ tag: 'witness' });
      await waitFor(() => tags.includes('witness'), 'the witness job');
      await q.close();
      expect(tags).to.deep.equal(['first', 'witness']);
    });

    it('retries a transient error until the job succeeds', async () => {
      let calls = 0;
      let succeeded = false;
      const q = await open(async () => {
        calls++;
        if (calls < 3) throw new Error(`transient failure ${calls}`);
        succeeded = true;
      });
      await q.enqueue({ kind: 'flaky' });
      await waitFor(() => succeeded, 'the third attempt to succeed');
      await q.close();
      expect(calls).to.equal(3);
    });

    it('does not retry a DomainError', async () => {
      // The witness fails once and is retried; by the time its retry succeeded, a retry of the
      // domain job (which failed first) would have run too.
      let domainCalls = 0;
      let witnessCalls = 0;
      let witnessDone = false;
      const q = await open(async (data) => {
        if (data.kind === 'domain') {
          domainCalls++;
          throw new ConflictError('The product name is taken');
        }
        witnessCalls++;
        if (witnessCalls === 1) throw new Error('transient');
        witnessDone = true;
      });
      await q.enqueue({ kind: 'domain' });
      await q.enqueue({ kind: 'witness' });
      await waitFor(() => witnessDone, 'the witness retry');
      await q.close();
      expect(domainCalls).to.equal(1);
      expect(witnessCalls).to.equal(2);
    });

    it('close() waits for the active job to finish', async () => {
      const events: string[] = [];
      const q = await open(async () => {
        events.push('started');
        await new Promise((resolve) => setTimeout(resolve, 300)); // the job's work takes a while
        events.push('finished');
      });
      await q.enqueue({ kind: 'slow' });
      await waitFor(() => events.includes('started'), 'the job to start');
      await q.close();
      events.push('closed');
      expect(events).to.deep.equal(['started', 'finished', 'closed']);
    });

    it('hands each handler the payload its producer typed for that name', async () => {
      const seen: string[] = [];
      const h = await openQueue();
      // Typed by JobPayloads: `data` is { reminderId } here and { deliveryId, leaseToken } there.
      const handlers: Pick<JobHandlers, 'reminders.send' | 'webhooks.deliver'> = {
        'reminders.send': async (data) => void seen.push(`reminder ${data.reminderId}`),
        'webhooks.deliver': async (data) => void seen.push(`delivery ${data.deliveryId} ${data.leaseToken}`),
      };
      await h.consumer.start(handlers as JobHandlers, []);
      await h.queue.enqueue({ name: 'reminders.send', data: { reminderId: 7 } });
      await h.queue.enqueue({ name: 'webhooks.deliver', data: { deliveryId: 9, leaseToken: 'lease-1' } });
      await waitFor(() => seen.length >= 2, 'both jobs');
      await h.close();
      expect(seen.sort()).to.deep.equal(['delivery 9 lease-1', 'reminder 7']);
    });

    it('counts the jobs pending (waiting or active), and none once they completed', async () => {
      let release: () => void = () => undefined;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const started: unknown[] = [];
      const finished: unknown[] = [];
      const q = await open(async (data) => {
        started.push(data.n);
        await gate;
        finished.push(data.n);
      });
      await q.enqueue({ n: 1 });
      await waitFor(() => started.length === 1, 'the first job to start');
      await q.enqueue({ n: 2 });
      // One job at a time leaves the second waiting; more at once run it: two pending either way.
      const during = await q.consumer.counts();
      expect(during.active).to.be.at.least(1);
      expect(during.waiting + during.active).to.equal(2);
      release();
      await waitFor(() => finished.length === 2, 'both jobs to finish');
      const deadline = Date.now() + 5000;
      let after = await q.consumer.counts();
      while ((after.waiting !== 0 || after.active !== 0) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
        after = await q.consumer.counts();
      }
      expect({ waiting: after.waiting, active: after.active }).to.deep.equal({ waiting: 0, active: 0 });
      await q.close();
    });

    it('reports every attempt that ends to its observers, with the job id, result and error', async () => {
      const seen: FinishedJob[] = [];
      let calls = 0;
      const h = await openQueue();
      h.consumer.observe({ jobFinished: (job) => seen.push(job) });
      await h.consumer.start({ [JOB]: async () => (++calls === 1 ? Promise.reject(new Error('transient')) : { purged: 2 }) } as unknown as JobHandlers, []);
      const jobId = `observed-${uid()}`;
      await h.queue.enqueue({ name: JOB, data: {}, jobId });
      await waitFor(() => seen.some((job) => job.outcome === 'completed'), 'the completed attempt');
      await h.close();
      expect(seen.map((job) => [job.name, job.jobId, job.outcome])).to.deep.equal([
        [JOB, jobId, 'failed'],
        [JOB, jobId, 'completed'],
      ]);
      expect((seen[0]!.error as Error).message).to.equal('transient');
      expect(seen[1]!.result).to.deep.equal({ purged: 2 });
      expect(seen.every((job) => job.queue === 'collections' && job.runSeconds >= 0)).to.equal(true);
    });

    it('runs no job once its consumer is closed', async () => {
      const tags: unknown[] = [];
      const q = await open(async (data) => void tags.push(data.tag));
      await q.enqueue({ tag: 'before' });
      await waitFor(() => tags.includes('before'), 'the job before close');
      await q.consumer.close();
      // The in-process queue, producer and consumer at once, refuses the job; BullMQ keeps it for another consumer.
      await q.enqueue({ tag: 'after' }).catch(() => undefined);
      await new Promise((resolve) => setTimeout(resolve, 300));
      await q.close();
      expect(tags).to.deep.equal(['before']);
    });
  });
}
