import { expect } from 'chai';
import { DispatchOutbox, MARK_AFTER_MS } from '../../../internal/shared/jobs/dispatch-outbox';
import type { Clock } from '../../../ports/clock';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import type { Job, JobQueue } from '../../../ports/job-queue';

/** An outbox in memory whose reads can be held open, and a queue that records what it was handed. */
function world() {
  const entries: OutboxEntry[] = [];
  const reads: number[] = [];
  const enqueued: string[] = [];
  const marks: string[][] = [];
  let hold: Promise<void> | null = null;
  let nextId = 1;
  const outbox = {
    add: async (job: Required<Job>) => void entries.push({ ...job, id: nextId++ }),
    pending: async (limit: number) => {
      const seen = entries.slice(0, limit);
      reads.push(seen.length);
      if (hold) await hold;
      return seen;
    },
    markDispatched: async (jobIds: string[]) => {
      marks.push(jobIds);
      for (const jobId of jobIds) entries.splice(entries.findIndex((e) => e.jobId === jobId), 1);
    },
  } as unknown as JobOutbox;
  const queue = { enqueue: async (job: Job) => void enqueued.push(job.jobId!) } as unknown as JobQueue;
  const clock: Clock = { now: () => new Date('2026-11-26T10:00:00Z') } as Clock;
  const job = (jobId: string): Required<Job> => ({ name: 'subscriptions.generate-cycles', jobId, data: { subscriptionId: 1 } });
  return {
    dispatch: new DispatchOutbox({ outbox, queue, clock }),
    add: (jobId: string) => outbox.add(job(jobId), clock.now()),
    /** A commit that wrote the job, then its hand-over. */
    commit: async (jobId: string, dispatch: DispatchOutbox) => {
      await outbox.add(job(jobId), clock.now());
      await dispatch.afterCommit(job(jobId));
    },
    holdReads: () => {
      let release!: () => void;
      hold = new Promise((resolve) => (release = resolve));
      return () => {
        hold = null;
        release();
      };
    },
    reads,
    enqueued,
    marks,
    entries,
  };
}

describe('DispatchOutbox', () => {
  it('hands every pending entry over once and marks it dispatched', async () => {
    const w = world();
    await w.add('a');
    await w.add('b');
    expect(await w.dispatch.execute()).to.deep.equal({ dispatched: 2 });
    expect(w.enqueued).to.deep.equal(['a', 'b']);
    expect(w.entries).to.deep.equal([]);
  });

  it('drains a backlog in one call: rounds of `limit` while a round finds that many, each marked before the next reads', async () => {
    const w = world();
    for (let i = 0; i < 250; i++) await w.add(`j${i}`);
    expect(await w.dispatch.execute()).to.deep.equal({ dispatched: 250 });
    expect(w.reads).to.deep.equal([100, 100, 50]);
    expect(w.marks.map((m) => m.length)).to.deep.equal([100, 100, 50]);
    expect(new Set(w.enqueued).size, 'each handed over once').to.equal(250);
    expect(w.entries).to.deep.equal([]);
  });

  it('hands the entries over all at once, in order, marks those the queue accepted and reports the first refusal', async () => {
    const w = world();
    for (const id of ['a', 'b', 'c']) await w.add(id);
    const started: string[] = [];
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    const queue = {
      enqueue: async (job: Job) => {
        started.push(job.jobId!);
        if (started.length === 3) open();
        await gate; // one after the other, the second would never start
        if (job.jobId === 'b') throw new Error('Redis did not accept the job in time');
      },
    } as unknown as JobQueue;
    const outbox = { pending: async () => [...w.entries], markDispatched: async (jobIds: string[]) => void marked.push(...jobIds) } as unknown as JobOutbox;
    const marked: string[] = [];
    const dispatch = new DispatchOutbox({ outbox, queue, clock: { now: () => new Date() } as Clock });
    const error = await dispatch.execute().then(() => null, (e: Error) => e);
    expect(started).to.deep.equal(['a', 'b', 'c']);
    expect(marked).to.deep.equal(['a', 'c']);
    expect(error?.message).to.equal('Redis did not accept the job in time');
  });

  it('runs once at a time: calls made during a run share one more run, which sees the entries committed meanwhile', async () => {
    const w = world();
    await w.add('first');
    const release = w.holdReads();
    const inFlight = w.dispatch.execute();
    // Committed after the run in flight read the outbox: only a later run can hand it over.
    await w.add('late');
    const waiting = Array.from({ length: 31 }, () => w.dispatch.execute());
    release();
    await inFlight;
    await Promise.all(waiting);
    expect(w.reads).to.deep.equal([1, 1], 'two reads of the outbox for 32 calls');
    expect(w.enqueued).to.deep.equal(['first', 'late']);
    expect(w.entries).to.deep.equal([]);
  });

  it('after a commit, hands over the job the use case built without reading the outbox, and marks it MARK_AFTER_MS later with the others of that time', async () => {
    const w = world();
    await w.commit('a', w.dispatch);
    expect(w.enqueued).to.deep.equal(['a']);
    expect(w.reads).to.deep.equal([], 'no read of the outbox');
    expect(w.marks).to.deep.equal([], 'not marked yet: the request answered once the queue held its job');
    await w.commit('b', w.dispatch);
    const started = Date.now();
    while (w.marks.length === 0 && Date.now() - started < 2000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(w.marks).to.deep.equal([['a', 'b']], 'one mark for both commits');
    expect(Date.now() - started).to.be.at.least(MARK_AFTER_MS - 20);
    expect(w.entries).to.deep.equal([]);
  });

  it('a periodic run reads past what was handed over after a commit and not marked yet, then marks it with its own', async () => {
    const w = world();
    await w.add('left'); // its hand-over failed, say
    await w.commit('a', w.dispatch);
    expect(await w.dispatch.execute()).to.deep.equal({ dispatched: 1 });
    expect(w.enqueued).to.deep.equal(['a', 'left'], 'a is not handed over twice');
    expect(w.marks).to.deep.equal([['a', 'left']]);
    expect(w.entries).to.deep.equal([]);
  });

  it('after a commit whose job the queue refuses, leaves the entry pending for the periodic run', async () => {
    const w = world();
    let away = true;
    const queue = {
      enqueue: async (job: Job) => {
        if (away) throw new Error('Redis is unreachable');
        w.enqueued.push(job.jobId!);
      },
    } as unknown as JobQueue;
    const outbox = (w.dispatch as unknown as { deps: { outbox: JobOutbox } }).deps.outbox;
    const dispatch = new DispatchOutbox({ outbox, queue, clock: { now: () => new Date() } as Clock });
    const error = await w.commit('a', dispatch).then(() => null, (e: Error) => e);
    expect(error?.message).to.equal('Redis is unreachable');
    await dispatch.markHanded();
    expect(w.marks).to.deep.equal([], 'nothing to mark');
    away = false;
    expect(await dispatch.execute()).to.deep.equal({ dispatched: 1 });
    expect(w.enqueued).to.deep.equal(['a']);
    expect(w.entries).to.deep.equal([]);
  });

  it('keeps an entry whose mark failed out of its reads and marks it with the next mark', async () => {
    const w = world();
    await w.commit('a', w.dispatch);
    const outbox = (w.dispatch as unknown as { deps: { outbox: JobOutbox } }).deps.outbox;
    const mark = outbox.markDispatched;
    outbox.markDispatched = async () => {
      throw new Error('database away');
    };
    const error = await w.dispatch.markHanded().then(() => null, (e: Error) => e);
    expect(error?.message).to.equal('database away');
    outbox.markDispatched = mark;
    expect(await w.dispatch.execute()).to.deep.equal({ dispatched: 0 });
    expect(w.enqueued).to.deep.equal(['a'], 'handed over once');
    expect(w.marks).to.deep.equal([['a']]);
    expect(w.entries).to.deep.equal([]);
  });

  it('a call waiting on a run that fails gets a run of its own', async () => {
    let reads = 0;
    const failing = new DispatchOutbox({
      outbox: {
        pending: async () => {
          reads += 1;
          await new Promise((resolve) => setTimeout(resolve, 5));
          throw new Error('database away');
        },
        markDispatched: async () => undefined,
      } as unknown as JobOutbox,
      queue: { enqueue: async () => undefined } as unknown as JobQueue,
      clock: { now: () => new Date() } as Clock,
    });
    const [first, second] = await Promise.allSettled([failing.execute(), failing.execute()]);
    expect([first.status, second.status]).to.deep.equal(['rejected', 'rejected']);
    expect(reads).to.equal(2);
    await failing.execute().catch(() => undefined);
    expect(reads).to.equal(3, 'nothing left in flight after the failures');
  });
});
