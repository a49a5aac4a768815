/**
 * The job queue contract: one suite, run against the in-process queue and BullMQ through the
 * JobQueue port (producer) and the adapter's consumer. Entry files: job-queue.<adapter>.test.ts.
 * Not a spec itself (it does not match test/**\/*.test.ts).
 *
 * Every test opens its own queue (for BullMQ, a prefix of its own) with the handlers it needs.
 */
import { expect } from 'chai';
import { ConflictError } from '../../internal/shared/errors';
import type { Job, JobHandlers, JobQueue } from '../../ports/job-queue';

export interface QueueHarness {
  /** The producer side, as the application sees it. */
  queue: JobQueue;
  /** Stops the consumers (resolving once the active job has finished) and releases everything. */
  close(): Promise<void>;
}

export interface JobQueueAdapter {
  /** False skips the suite (its server is absent). */
  available?(): Promise<boolean>;
  /**
   * A producer and running consumers over a queue of their own, with these handlers. Transient
   * failures must be retried at least twice (three attempts), quickly.
   */
  open(handlers: JobHandlers): Promise<QueueHarness>;
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

    /** Opens a queue whose single handler is `handle`; afterEach closes it if the test did not. */
    async function open(handle: (data: Data) => Promise<unknown>) {
      const entry = { harness: await adapter.open({ [JOB]: handle } as unknown as JobHandlers), closed: false };
      opened.push(entry);
      return {
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
  });
}
