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
  const marks: number[][] = [];
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
    markDispatched: async (ids: number[]) => {
      marks.push(ids);
      for (const id of ids) entries.splice(entries.findIndex((e) => e.id === id), 1);
    },
  } as unknown as JobOutbox;
  const queue = { enqueue: async (job: Job) => void enqueued.push(job.jobId!) } as unknown as JobQueue;
  const clock: Clock = { now: () => new Date('2026-11-26T10:00:00Z') } as Clock;
  const job = (jobId: string): Required<Job> => ({ name: 'subscriptions.generate-cycles', jobId, data: { subscriptionId: 1 } });
  return {
    dispatch: new DispatchOutbox({ outbox, queue, clock }),
    add: (jobId: string) => outbox.add(job(jobId), clock.now()),
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
    const outbox = { pending: async () => [...w.entries], markDispatched: async (ids: number[]) => void marked.push(...ids) } as unknown as JobOutbox;
    const marked: number[] = [];
    const dispatch = new DispatchOutbox({ outbox, queue, clock: { now: () => new Date() } as Clock });
    const error = await dispatch.execute().then(() => null, (e: Error) => e);
    expect(started).to.deep.equal(['a', 'b', 'c']);
    expect(marked).to.deep.equal([w.entries[0]!.id, w.entries[2]!.id]);
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

  it('a call naming its job shares the run in flight that read it; one whose job came later waits for the next run', async () => {
    const w = world();
    // A group of creations commits its three jobs together; the first to call starts the run.
    for (const id of ['g1', 'g2', 'g3']) await w.add(id);
    const release = w.holdReads();
    const first = w.dispatch.executeFor('g1');
    const rest = [w.dispatch.executeFor('g2'), w.dispatch.executeFor('g3')];
    await w.add('late');
    const late = w.dispatch.executeFor('late');
    release();
    expect(await first).to.deep.equal({ dispatched: 3 });
    expect(await Promise.all(rest)).to.deep.equal([{ dispatched: 3 }, { dispatched: 3 }], 'the run that read them');
    expect(await late).to.deep.equal({ dispatched: 1 });
    // The second read reads past the group's entries, handed over and not yet marked, and leaves them out.
    expect(w.reads).to.deep.equal([3, 4], 'one read for the group, one for the entry committed after it');
    expect(w.enqueued).to.deep.equal(['g1', 'g2', 'g3', 'late']);
    await w.dispatch.markHanded();
    expect(w.entries).to.deep.equal([]);
  });

  it('after a commit, answers once the queue holds the job and marks what the runs of the next MARK_AFTER_MS handed over in one go', async () => {
    const w = world();
    await w.add('a');
    expect(await w.dispatch.executeFor('a')).to.deep.equal({ dispatched: 1 });
    expect(w.marks).to.deep.equal([], 'not marked yet');
    await w.add('b');
    expect(await w.dispatch.executeFor('b')).to.deep.equal({ dispatched: 1 });
    expect(w.enqueued).to.deep.equal(['a', 'b'], 'a, pending until marked, is not handed over again');
    const started = Date.now();
    while (w.marks.length === 0 && Date.now() - started < 2000) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(w.marks).to.deep.equal([[1, 2]], 'one mark for both runs');
    expect(Date.now() - started).to.be.at.least(MARK_AFTER_MS - 20);
    expect(w.entries).to.deep.equal([]);
  });

  it('marks before execute answers, with the entries a run after a commit handed over', async () => {
    const w = world();
    await w.add('a');
    await w.dispatch.executeFor('a');
    await w.add('b');
    expect(await w.dispatch.execute()).to.deep.equal({ dispatched: 1 });
    expect(w.marks).to.deep.equal([[1, 2]]);
    expect(w.enqueued).to.deep.equal(['a', 'b']);
    expect(w.entries).to.deep.equal([]);
  });

  it('keeps an entry whose mark failed out of its reads and marks it with the next mark', async () => {
    const w = world();
    await w.add('a');
    await w.dispatch.executeFor('a');
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
    expect(w.marks).to.deep.equal([[1]]);
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
