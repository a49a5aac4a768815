import type { Job, JobQueue } from '../../ports/job-queue';

/**
 * The real queue, or an unreachable one while `down` (an injected failing adapter: Redis away
 * for the process that uses it). Jobs it refused are kept for assertions.
 */
export class SwitchableJobQueue implements JobQueue {
  down = false;
  readonly refused: Job[] = [];

  /** `inner` may be set later (a memory world creates its in-process queue with the application). */
  constructor(public inner: JobQueue | null = null) {}

  async enqueue(job: Job): Promise<void> {
    if (this.down) {
      this.refused.push(job);
      throw new Error('the queue is unreachable (test outage)');
    }
    return this.inner!.enqueue(job);
  }
}
