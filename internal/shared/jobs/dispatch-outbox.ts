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
 * a run that reads all of their entries, so the rest need no run of their own.
 */
export class DispatchOutbox {
  private running: Run | null = null;
  private next: Promise<{ dispatched: number }> | null = null;

  constructor(private readonly deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock }) {
    requireDeps('DispatchOutbox', deps);
  }

  execute(limit = 100): Promise<{ dispatched: number }> {
    return this.dispatch(limit);
  }

  /** After a commit that wrote the job `jobId`: the run in flight, when its read found the job, else the next run. */
  executeFor(jobId: string, limit = 100): Promise<{ dispatched: number }> {
    return this.dispatch(limit, jobId);
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
    const entries = this.deps.outbox.pending(limit);
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
    await this.deps.outbox.markDispatched(done, this.deps.clock.now());
    const refused = handed.find((outcome): outcome is PromiseRejectedResult => outcome.status === 'rejected');
    if (refused) throw refused.reason;
    return { dispatched: done.length };
  }
}
