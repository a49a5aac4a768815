import type { Clock } from '../../../ports/clock';
import type { JobOutbox } from '../../../ports/job-outbox';
import type { JobQueue } from '../../../ports/job-queue';
import { requireDeps } from '../use-case-deps';
import { jobOf } from './outbox-job';

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
 */
export class DispatchOutbox {
  private running: Promise<{ dispatched: number }> | null = null;
  private next: Promise<{ dispatched: number }> | null = null;

  constructor(private readonly deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock }) {
    requireDeps('DispatchOutbox', deps);
  }

  execute(limit = 100): Promise<{ dispatched: number }> {
    if (this.running === null) return this.start(limit);
    // The run in flight may have read the outbox before the caller's entry was committed.
    this.next ??= this.running
      .catch(() => undefined)
      .then(() => {
        this.next = null;
        return this.start(limit);
      });
    return this.next;
  }

  private start(limit: number): Promise<{ dispatched: number }> {
    const run = this.dispatch(limit).finally(() => {
      if (this.running === run) this.running = null;
    });
    this.running = run;
    return run;
  }

  private async dispatch(limit: number): Promise<{ dispatched: number }> {
    const entries = await this.deps.outbox.pending(limit);
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
