import { type Job as BullJob, Queue, UnrecoverableError, Worker } from 'bullmq';
import { bullmqPrefix, openRedis, type RedisConnection } from '../../redis/connection';
import { DomainError } from '../../../internal/shared/errors';
import type { JobHandlers, JobName } from '../../../ports/job-queue';
import type { FinishedJob, JobConsumer, JobCounts, JobObserver, JobSchedule } from '../../../ports/job-consumer';
import { runJob } from '../job-handlers';
import { QUEUE_NAME } from './queue-names';

/** BullMQ states reported as queue depth (completed ones are history, not depth). */
const DEPTH_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

export interface BullmqJobConsumerOptions {
  redisUrl: string;
  prefix: string;
  /** Jobs one process runs at once (WORKER_CONCURRENCY). */
  concurrency: number;
  /** The producer's Queue, which reads the depth (no Worker needed for that). */
  queue: Queue;
}

/**
 * Consumer side of BullMQ: one Worker switching on `job.name`, opened by `start` (a process that
 * only produces, the API without RUN_WORKERS, opens no worker connection). A DomainError can
 * never succeed on retry, so it becomes an UnrecoverableError; anything else is retried with
 * backoff.
 */
export class BullmqJobConsumer implements JobConsumer {
  private readonly prefix: string;
  private readonly observers: JobObserver[] = [];
  private connection: RedisConnection | null = null;
  private worker: Worker | null = null;
  private handlers: JobHandlers | null = null;
  private schedules: readonly JobSchedule[] = [];

  constructor(private readonly options: BullmqJobConsumerOptions) {
    this.prefix = bullmqPrefix(options.redisUrl, options.prefix);
  }

  async start(handlers: JobHandlers, schedules: readonly JobSchedule[]): Promise<void> {
    if (this.worker) throw new Error('the BullMQ consumer is already started');
    this.handlers = handlers;
    this.schedules = schedules;
    // Workers block on Redis; BullMQ requires maxRetriesPerRequest null for them.
    const connection = openRedis(this.options.redisUrl, { maxRetriesPerRequest: null });
    this.connection = connection;
    await this.registerSchedules();
    const worker = new Worker(QUEUE_NAME, (job) => this.process(job), { connection, prefix: this.prefix, concurrency: this.options.concurrency });
    this.worker = worker;
    worker.on('completed', (job, result) => this.report(finishedJob(job, 'completed', { result })));
    worker.on('failed', (job, error) => job && this.report(finishedJob(job, 'failed', { error })));
    await worker.waitUntilReady();
    // A Redis that comes back empty (restarted without persistence, failed over) has lost the
    // schedules: register them again on every reconnection (upserting is idempotent).
    connection.on('ready', this.onReconnected);
  }

  async counts(): Promise<JobCounts> {
    return (await this.options.queue.getJobCounts(...DEPTH_STATES)) as JobCounts;
  }

  observe(observer: JobObserver): void {
    this.observers.push(observer);
  }

  /** Stops taking jobs and waits for the active ones to finish. */
  async close(): Promise<void> {
    const { connection, worker } = this;
    this.connection = null;
    this.worker = null;
    connection?.off('ready', this.onReconnected);
    await worker?.close();
    connection?.disconnect();
  }

  private readonly onReconnected = (): void => void this.registerSchedules().catch(() => undefined);

  private report(job: FinishedJob): void {
    for (const observer of this.observers) observer.jobFinished(job);
  }

  private async registerSchedules(): Promise<void> {
    if (!this.connection || this.schedules.length === 0) return;
    const queue = new Queue(QUEUE_NAME, { connection: this.connection, prefix: this.prefix });
    try {
      for (const schedule of this.schedules) {
        await queue.upsertJobScheduler(schedule.name, { every: schedule.everyMs }, { name: schedule.name, data: {} });
      }
    } finally {
      await queue.close();
    }
  }

  private async process(job: BullJob): Promise<unknown> {
    const handlers = this.handlers!;
    const handler = handlers[job.name as JobName];
    if (!handler) throw new UnrecoverableError(`no handler for job ${job.name}`);
    try {
      return await runJob(handlers, job.name as JobName, job.data);
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
function finishedJob(job: BullJob, outcome: 'completed' | 'failed', settled: { result?: unknown; error?: unknown }): FinishedJob {
  const processedOn = job.processedOn ?? Date.now();
  const finishedOn = job.finishedOn ?? Date.now();
  const firstAttempt = job.attemptsMade <= 1 && (outcome === 'completed' || job.finishedOn !== undefined);
  return {
    queue: QUEUE_NAME,
    name: job.name,
    jobId: job.id ?? null,
    outcome,
    attempts: job.attemptsMade,
    runSeconds: Math.max(0, finishedOn - processedOn) / 1000,
    waitSeconds: firstAttempt ? Math.max(0, processedOn - job.timestamp - (job.delay ?? 0)) / 1000 : null,
    ...settled,
  };
}
