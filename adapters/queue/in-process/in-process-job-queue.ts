import { DomainError } from '../../../internal/shared/errors';
import type { Job, JobHandlers, JobQueue } from '../../../ports/job-queue';
import type { JobConsumer, JobCounts, JobObserver, JobSchedule } from '../../../ports/job-consumer';
import { runJob, sweepJob } from '../job-handlers';

/** The name this queue reports in metrics: the same as the BullMQ queue it stands in for. */
const QUEUE_LABEL = 'collections';

export interface InProcessQueueOptions {
  attempts?: number;
  /** Called when a job fails for good (after its attempts, or at once for a DomainError). */
  onFailed?: (job: Job, error: unknown) => void;
}

/**
 * The embedded default's queue, producer and consumer at once: jobs run in this process, after
 * the caller's turn, with the same semantics as the BullMQ adapter (a jobId runs once, a
 * DomainError is not retried). The schedules are timers of this process.
 */
export class InProcessJobQueue implements JobQueue, JobConsumer {
  private readonly seen = new Set<string>();
  private readonly running = new Set<Promise<void>>();
  private readonly observers: JobObserver[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  private handlers: JobHandlers | null = null;
  private waiting = 0;
  private active = 0;

  constructor(private readonly options: InProcessQueueOptions = {}) {}

  /**
   * The handlers come from the application, which is itself built on this queue. They are bound
   * before this returns (a caller that cannot wait may `void` it).
   */
  async start(handlers: JobHandlers, schedules: readonly JobSchedule[]): Promise<void> {
    this.handlers = handlers;
    for (const schedule of schedules) {
      this.timers.push(setInterval(() => void this.enqueue(sweepJob(schedule.name)).catch(() => undefined), schedule.everyMs).unref());
    }
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

  /**
   * Resolves when every job enqueued so far, and every job those enqueued, has finished. Only
   * this adapter can promise it (tests wait on it through Infrastructure's `jobs.inProcess`).
   */
  async drain(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running]);
  }

  observe(observer: JobObserver): void {
    this.observers.push(observer);
  }

  /** Jobs enqueued and not started, and jobs running now. */
  async counts(): Promise<JobCounts> {
    return { waiting: this.waiting, active: this.active };
  }

  /** Stops the schedules and accepting jobs, and waits for the active ones. */
  async close(): Promise<void> {
    this.timers.splice(0).forEach(clearInterval);
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
        const report = (outcome: 'completed' | 'failed', settled: { result?: unknown; error?: unknown }) => {
          const finished = {
            queue: QUEUE_LABEL,
            name: job.name,
            jobId: job.jobId ?? null,
            outcome,
            attempts: attempt,
            runSeconds: Number(process.hrtime.bigint() - started) / 1e9,
            waitSeconds: attempt === 1 ? Number(started - enqueuedAt) / 1e9 : null,
            ...settled,
          };
          for (const observer of this.observers) observer.jobFinished(finished);
        };
        try {
          if (!this.handlers) throw new Error('in-process queue has no handlers bound');
          const result = await runJob(this.handlers, job.name, job.data);
          report('completed', { result });
          return;
        } catch (error) {
          report('failed', { error });
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
