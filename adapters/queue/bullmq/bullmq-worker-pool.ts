import { type Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import { bullmqPrefix, openRedis, type RedisConnection } from '../../redis/connection';
import { DomainError } from '../../../internal/shared/errors';
import type { JobHandlers, JobName } from '../../../ports/job-queue';
import type { JobObserver } from '../job-observer';
import { runJob } from '../job-handlers';
import { QUEUE_NAME } from './queue-names';

export interface WorkerPoolOptions {
  redisUrl: string;
  prefix: string;
  concurrency: number;
  /** Repeating jobs, registered once per pool (idempotent across workers). */
  schedules: { name: JobName; everyMs: number }[];
  onCompleted?: (job: BullJob, result: unknown) => void;
  onFailed?: (job: BullJob | undefined, error: Error) => void;
  /** Told about every attempt that ends (metrics). */
  observer?: JobObserver;
}

/**
 * Consumer side of BullMQ: one Worker switching on `job.name`. A DomainError can never succeed
 * on retry, so it becomes an UnrecoverableError; anything else is retried with backoff.
 */
export class BullmqWorkerPool {
  private readonly connection: RedisConnection;
  private readonly prefix: string;
  private worker: Worker | null = null;

  constructor(
    private readonly handlers: JobHandlers,
    private readonly options: WorkerPoolOptions,
  ) {
    // Workers block on Redis; BullMQ requires maxRetriesPerRequest null for them.
    this.connection = openRedis(options.redisUrl, { maxRetriesPerRequest: null });
    this.prefix = bullmqPrefix(options.redisUrl, options.prefix);
  }

  async start(): Promise<void> {
    const { concurrency } = this.options;
    const prefix = this.prefix;
    await this.registerSchedules();
    this.worker = new Worker(QUEUE_NAME, (job) => this.process(job), { connection: this.connection, prefix, concurrency });
    if (this.options.onCompleted) this.worker.on('completed', this.options.onCompleted);
    if (this.options.onFailed) this.worker.on('failed', this.options.onFailed);
    const observer = this.options.observer;
    if (observer) {
      this.worker.on('completed', (job) => observer.jobFinished(finishedJob(job, 'completed')));
      this.worker.on('failed', (job) => job && observer.jobFinished(finishedJob(job, 'failed')));
    }
    await this.worker.waitUntilReady();
    // A Redis that comes back empty (restarted without persistence, failed over) has lost the
    // schedules: register them again on every reconnection (upserting is idempotent).
    this.connection.on('ready', this.onReconnected);
  }

  private readonly onReconnected = (): void => void this.registerSchedules().catch(() => undefined);

  private async registerSchedules(): Promise<void> {
    const queue = new Queue(QUEUE_NAME, { connection: this.connection, prefix: this.prefix });
    try {
      for (const schedule of this.options.schedules) {
        await queue.upsertJobScheduler(schedule.name, { every: schedule.everyMs }, { name: schedule.name, data: {} });
      }
    } finally {
      await queue.close();
    }
  }

  /** Stops taking jobs and waits for the active ones to finish. */
  async close(): Promise<void> {
    this.connection.off('ready', this.onReconnected);
    await this.worker?.close();
    this.connection.disconnect();
  }

  private async process(job: BullJob): Promise<unknown> {
    const handler = this.handlers[job.name as JobName];
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    try {
      return await runJob(this.handlers, job.name as JobName, job.data);
    } catch (error) {
      if (error instanceof DomainError) throw new UnrecoverableError(`${error.code}: ${error.message}`);
      throw error;
    }
  }
}

/**
 * Times from BullMQ's own stamps: added (plus its delay), processed (this attempt), finished.
 * The wait is known for a first attempt only, and not when it failed into a retry (BullMQ has
 * then replaced the delay with the back-off).
 */
function finishedJob(job: BullJob, outcome: 'completed' | 'failed') {
  const processedOn = job.processedOn ?? Date.now();
  const finishedOn = job.finishedOn ?? Date.now();
  const firstAttempt = job.attemptsMade <= 1 && (outcome === 'completed' || job.finishedOn !== undefined);
  return {
    queue: QUEUE_NAME,
    name: job.name,
    outcome,
    runSeconds: Math.max(0, finishedOn - processedOn) / 1000,
    waitSeconds: firstAttempt ? Math.max(0, processedOn - job.timestamp - (job.delay ?? 0)) / 1000 : null,
  };
}
