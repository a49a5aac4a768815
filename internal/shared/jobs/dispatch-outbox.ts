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
 */
export class DispatchOutbox {
  constructor(private readonly deps: { outbox: JobOutbox; queue: JobQueue; clock: Clock }) {
    requireDeps('DispatchOutbox', deps);
  }

  async execute(limit = 100): Promise<{ dispatched: number }> {
    const entries = await this.deps.outbox.pending(limit);
    const done: number[] = [];
    try {
      for (const entry of entries) {
        await this.deps.queue.enqueue(jobOf(entry));
        done.push(entry.id);
      }
    } finally {
      await this.deps.outbox.markDispatched(done, this.deps.clock.now());
    }
    return { dispatched: done.length };
  }
}
