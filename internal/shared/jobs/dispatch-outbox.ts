import type { Clock } from '../../../ports/clock';
import type { JobOutbox, OutboxEntry } from '../../../ports/job-outbox';
import type { Job, JobQueue } from '../../../ports/job-queue';
import { requireDeps } from '../use-case-deps';
import { jobOf } from './outbox-job';

/**
 * How long the marks of the jobs handed over after commits wait for those of the commits after
 * them: under load one marking transaction (four statements) serves every commit of that time
 * instead of one each; alone, an entry is marked this long after its hand-over.
 */
export const MARK_AFTER_MS = 50;

/**
 * Hands outbox entries to the queue and marks them dispatched, a process's one dispatcher.
 *
 * After a commit that wrote a job (`afterCommit`) it hands that job over as the use case built it,
 * without reading the outbox: the jobs of a group of creations that commit together go to the
 * queue in one round trip (the queue gathers a turn's enqueues). The request answers once the
 * queue holds its job; the entry is marked dispatched MARK_AFTER_MS later, together with the
 * other jobs of that time.
 *
 * On a timer in every API and worker process (`execute`) it reads the pending entries, oldest
 * first, hands them over and marks them before it answers, so a job whose hand-over failed
 * (Redis away) goes out when the queue is back: `limit` at a time, again and again while a round
 * finds that many, so the backlog of an outage drains in one call rather than `limit` per tick.
 * One run at a time: a call while a run is in flight waits for the next run, which every call
 * made meanwhile shares. Entries this dispatcher handed over and has not marked yet are left out
 * of its reads; another process that hands one over again gives the queue the same jobId, so the
 * job still runs once.
 */
export class DispatchOutbox {
  private running: Promise<{ dispatched: number }> | null = null;
  private next: Promise<{ dispatched: number }> | null = null;
  /** jobIds the queue accepted whose entries are not marked dispatched yet. */
  private readonly unmarked = new Set<string>();
  private marking: Promise<void> | null = null;
  private markTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(private readonly deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock }) {
    requireDeps('DispatchOutbox', deps);
  }

  /**
   * After the commit that wrote `job` to the outbox: hands it to the queue; its entry is marked
   * MARK_AFTER_MS later. When the queue refuses, the entry stays pending for the periodic run.
   */
  async afterCommit(job: Required<Job>): Promise<void> {
    await this.deps.queue.enqueue(job);
    this.unmarked.add(job.jobId);
    this.markSoon();
  }

  /**
   * Hands the pending entries over, `limit` at a time until a round finds fewer, and marks them
   * (with any handed over before) before it answers.
   */
  async execute(limit = 100): Promise<{ dispatched: number }> {
    let dispatched = 0;
    try {
      for (;;) {
        const round = await this.dispatch(limit);
        dispatched += round.dispatched;
        if (round.dispatched < limit) return { dispatched };
        // Marked before the next round reads, so that it reads the entries after them.
        await this.markHanded();
      }
    } finally {
      await this.markHanded();
    }
  }

  /** Marks dispatched every entry handed over so far (one marking transaction at a time). */
  async markHanded(): Promise<void> {
    while (this.marking) await this.marking.catch(() => undefined);
    if (this.unmarked.size === 0) return;
    const jobIds = [...this.unmarked];
    this.marking = this.deps.outbox
      .markDispatched(jobIds, this.deps.clock.now())
      .then(() => jobIds.forEach((jobId) => this.unmarked.delete(jobId)))
      .finally(() => (this.marking = null));
    return this.marking;
  }

  private markSoon(): void {
    if (this.markTimer !== null) return;
    this.markTimer = setTimeout(() => {
      this.markTimer = null;
      // A mark that failed is tried again with the next one (and by the periodic `execute`).
      this.markHanded().catch(() => undefined);
    }, MARK_AFTER_MS);
    this.markTimer.unref?.();
  }

  private dispatch(limit: number): Promise<{ dispatched: number }> {
    const running = this.running;
    if (running === null) return this.start(limit);
    // The run in flight may have read the outbox before the caller's entry was committed.
    this.next ??= running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start(limit);
      });
    return this.next;
  }

  private start(limit: number): Promise<{ dispatched: number }> {
    // Entries handed over but not yet marked are still pending in the outbox: read past them.
    const run = this.deps.outbox
      .pending(limit + this.unmarked.size)
      .then((read) => this.handOver(read.filter((entry) => !this.unmarked.has(entry.jobId)).slice(0, limit)))
      .finally(() => {
        if (this.running === run) this.running = null;
      });
    this.running = run;
    return run;
  }

  private async handOver(entries: OutboxEntry[]): Promise<{ dispatched: number }> {
    // All handed over at once, in order (one round trip to the queue, not one per entry); those
    // the queue accepted are marked.
    const handed = await Promise.allSettled(entries.map((entry) => this.deps.queue.enqueue(jobOf(entry))));
    const done = entries.filter((_, i) => handed[i]!.status === 'fulfilled').map((entry) => entry.jobId);
    for (const jobId of done) this.unmarked.add(jobId);
    const refused = handed.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refused) throw refused.reason;
    return { dispatched: done.length };
  }
}
