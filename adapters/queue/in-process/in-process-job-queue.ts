import { DomainError } from '../../../internal/shared/errors';
import type { Job, JobHandlers, JobQueue } from '../../../ports/job-queue';
import type { JobObserver } from '../job-observer';
import { runJob } from '../job-handlers';

/** The name this queue reports in metrics: the same as the BullMQ queue it stands in for. */
const QUEUE_LABEL = 'collections';

export interface InProcessQueueOptions {
  attempts?: number;
  /** Called when a job fails for good (after its attempts, or at once for a DomainError). */
  onFailed?: (job: Job, error: unknown) => void;
}

/**
 * The embedded default's queue: jobs run in this process, after the caller's turn, with the
 * same semantics as the BullMQ adapter (a jobId runs once, a DomainError is not retried).
 */
export class InProcessJobQueue implements JobQueue {
  private readonly seen = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private closed = false;

  private handlers: JobHandlers | null = null;
  private observer: JobObserver | null = null;
  private waiting = 0;
  private active = 0;

  constructor(private readonly options: InProcessQueueOptions = {}) {}

  /** The handlers come from the application, which is itself built on this queue. */
  bind(handlers: JobHandlers): void {
    this.handlers = handlers;
  }

  async enqueue(job: Job): Promise<void> {
    if (this.closed) throw new Error('queue is closed');
    if (job.jobId) {
      if (this.seen.has(job.jobId)) return;
      this.seen.add(job.jobId);
    }
    const enqueuedAt = process.hrtime.bigint();
    this.waiting++;
    const run = new Promise<void>((resolve) => setImmediate(resolve)).then(() => this.process(job, enqueuedAt));
    this.running.add(run);
    void run.finally(() => this.running.delete(run));
  }

  /** Resolves when every job enqueued so far, and every job those enqueued, has finished. */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  /** Told about every attempt (metrics). */
  observe(observer: JobObserver): void {
    this.observer = observer;
  }

  /** Jobs enqueued and not started, and jobs running now. */
  counts(): { waiting: number; active: number } {
    return { waiting: this.waiting, active: this.active };
  }

  /** Stops accepting jobs and waits for the active ones. */
  async close(): Promise<void> {
    this.closed = true;
    await this.drain();
  }

  private async process(job: Job, enqueuedAt: bigint): Promise<void> {
    const attempts = this.options.attempts ?? 3;
    this.waiting--;
    this.active++;
    try {
      for (let attempt = 1; ; attempt++) {
        const started = process.hrtime.bigint();
        const report = (outcome: 'completed' | 'failed') =>
          this.observer?.jobFinished({
            queue: QUEUE_LABEL,
            name: job.name,
            outcome,
            runSeconds: Number(process.hrtime.bigint() - started) / 1e9,
            waitSeconds: attempt === 1 ? Number(started - enqueuedAt) / 1e9 : null,
          });
        try {
          if (!this.handlers) throw new Error('in-process queue has no handlers bound');
          await runJob(this.handlers, job.name, job.data);
          report('completed');
          return;
        } catch (error) {
          report('failed');
          if (error instanceof DomainError || attempt >= attempts) {
            this.options.onFailed?.(job, error);
            return;
          }
        }
      }
    } finally {
      this.active--;
    }
  }
}
