import type { Clock } from '../../../ports/clock';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import type { JobQueue } from '../../../ports/job-queue';
import { requireDeps } from '../use-case-deps';
import { jobOf } from './outbox-job';

interface Run {
  /** The jobIds the run read from the outbox (none when the read failed). */
  read: Promise<ReadonlySet<string>>;
  done: Promise<{ dispatched: number }>;
}

/**
 * How long the marks of a run made after a commit wait for the runs after it, to be written with
 * theirs: under load one marking transaction (four statements) serves every group that committed
 * in that time instead of one each; alone, an entry is marked this long after its hand-over.
 */
export const MARK_AFTER_MS = 50;

/**
 * Hands pending outbox entries to the queue, oldest first, and marks them dispatched. Runs
 * right after a commit that wrote one, and on a timer in every API and worker process, so a
 * job whose enqueue failed (Redis away) goes out when the queue is back. Entries keep their
 * jobId, so one handed over twice still runs once.
 *
 * One run at a time per instance: a call while a run is in flight waits for the next run, which
 * starts when that one ends and reads the outbox after the caller's commit; every call made
 * meanwhile shares it. Thirty-two requests committing together so cost one or two reads of the
 * outbox and one enqueue per entry, not thirty-two reads each handing over every pending entry.
 *
 * A caller that names the job it committed (`executeFor`) shares the run in flight when that run's
 * read found the job: the creations of one group commit together, and the first to call starts
 * a run that reads all of their entries, so the rest need no run of their own. Its answer comes
 * once the queue holds the job; the entry is marked dispatched MARK_AFTER_MS later, together with
 * what the runs of that time handed over (`execute` marks before it answers). Until then this
 * instance's reads leave the entry out, and another dispatcher that hands it over again gives the
 * queue the same jobId: the job still runs once.
 */
export class DispatchOutbox {
  private running: Run | null = null;
  private next: Promise<{ dispatched: number }> | null = null;
  /** Entry ids the queue accepted that are not marked dispatched yet. */
  private readonly unmarked = new Set<number>();
  private marking: Promise<void> | null = null;
  private markTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock }) {
    requireDeps('DispatchOutbox', deps);
  }

  /** Hands the pending entries over and marks them (with any handed over before) before it answers. */
  async execute(limit = 100): Promise<{ dispatched: number }> {
    try {
      return await this.dispatch(limit);
    } finally {
      await this.markHanded();
    }
  }

  /**
   * After a commit that wrote the job `jobId`: the run in flight, when its read found the job,
   * else the next run. Answers once the queue holds the job; its mark follows (MARK_AFTER_MS).
   */
  executeFor(jobId: string, limit = 100): Promise<{ dispatched: number }> {
    return this.dispatch(limit, jobId).finally(() => this.markSoon());
  }

  /** Marks dispatched every entry handed over so far (one marking transaction at a time). */
  async markHanded(): Promise<void> {
    while (this.marking) await this.marking.catch(() => undefined);
    if (this.unmarked.size === 0) return;
    const ids = [...this.unmarked];
    this.marking = this.deps.outbox
      .markDispatched(ids, this.deps.clock.now())
      .then(() => ids.forEach((id) => this.unmarked.delete(id)))
      .finally(() => (this.marking = null));
    return this.marking;
  }

  private markSoon(): void {
    if (this.markTimer !== null || this.unmarked.size === 0) return;
    this.markTimer = setTimeout(() => {
      this.markTimer = null;
      // A mark that failed is tried again with the next one (and by the periodic `execute`).
      this.markHanded().catch(() => undefined);
    }, MARK_AFTER_MS);
    this.markTimer.unref?.();
  }

  private dispatch(limit: number, jobId?: string): Promise<{ dispatched: number }> {
    const running = this.running;
    if (running === null) return this.start(limit);
    if (jobId !== undefined) return running.read.then((seen) => (seen.has(jobId) ? running.done : this.dispatch(limit)));
    // The run in flight may have read the outbox before the caller's entry was committed.
    this.next ??= running.done
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start(limit);
      });
    return this.next;
  }

  private start(limit: number): Promise<{ dispatched: number }> {
    // Entries handed over but not yet marked are still pending in the outbox: read past them.
    const entries = this.deps.outbox.pending(limit + this.unmarked.size).then((read) => read.filter((entry) => !this.unmarked.has(entry.id)).slice(0, limit));
    const done = entries
      .then((read) => this.handOver(read))
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    const run: Run = { read: entries.then((read) => new Set(read.map((entry) => entry.jobId)), () => new Set<string>()), done };
    this.running = run;
    return done;
  }

  private async handOver(entries: OutboxEntry[]): Promise<{ dispatched: number }> {
    // All handed over at once, in order (one round trip to the queue, not one per entry: the
    // requests whose commit this run follows wait for it); those the queue accepted are marked.
    const handed = await Promise.allSettled(entries.map((entry) => this.deps.queue.enqueue(jobOf(entry))));
    const done = entries.filter((_, i) => handed[i]!.status === 'fulfilled').map((entry) => entry.id);
    for (const id of done) this.unmarked.add(id);
    const refused = handed.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refused) throw refused.reason;
    return { dispatched: done.length };
  }
}
