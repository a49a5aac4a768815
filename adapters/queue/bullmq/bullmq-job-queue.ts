import { Queue } from 'bullmq';
import { bullmqPrefix, openRedis, type RedisConnection } from '../../redis/connection';
import type { Job, JobQueue } from '../../../ports/job-queue';
import { QUEUE_NAME } from './queue-names';

export const DEFAULT_JOB_OPTIONS = {
  attempts: 5,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** Overrides of DEFAULT_JOB_OPTIONS (tests use a short backoff). */
export interface BullmqJobQueueOptions {
  attempts?: number;
  /** First delay of the exponential backoff between attempts. */
  backoffDelayMs?: number;
}

const ENQUEUE_CONNECT_DEADLINE_MS = 2000;
const ENQUEUE_DEADLINE_MS = 5000;

/**
 * What only the BullMQ queue has, named for the few that need it: the library's Queue (the
 * bull-board console; tests that inspect job states or obliterate their queue) and the age of
 * the oldest waiting job (a metric). Everything else goes through JobQueue and JobConsumer.
 */
export interface BullmqQueueAccess {
  readonly queue: Queue;
  /** When the oldest waiting job became due (added, or its delay ended), epoch ms; null when none waits. */
  oldestWaitingDueAt(): Promise<number | null>;
}

/** A job enqueued in this turn of the event loop, waiting for the turn's addBulk. */
interface PendingAdd {
  job: Job;
  resolve(): void;
  reject(error: unknown): void;
}

/**
 * Producer side of BullMQ. Fail fast: with the offline queue off and bounded waits, an
 * unreachable Redis rejects `enqueue` within seconds instead of parking the request.
 *
 * The jobs enqueued in one turn of the event loop (the outbox entries of a group commit, the
 * deliveries of one event) are added together, by one addBulk: one pipelined round trip to Redis
 * instead of one per job, each job written exactly as `add` writes it (its jobId included, so a
 * duplicate is still one job). When the round trip fails, every job of it is refused.
 */
export class BullmqJobQueue implements JobQueue, BullmqQueueAccess {
  private readonly connection: RedisConnection;
  readonly queue: Queue;
  private pending: PendingAdd[] = [];

  constructor(redisUrl: string, prefix: string, options: BullmqJobQueueOptions = {}) {
    this.connection = openRedis(redisUrl, { enableOfflineQueue: false, maxRetriesPerRequest: 1 });
    this.connection.on('error', () => undefined); // surfaced by the failing calls themselves
    const defaultJobOptions = {
      ...DEFAULT_JOB_OPTIONS,
      attempts: options.attempts ?? DEFAULT_JOB_OPTIONS.attempts,
      backoff: { ...DEFAULT_JOB_OPTIONS.backoff, delay: options.backoffDelayMs ?? DEFAULT_JOB_OPTIONS.backoff.delay },
    };
    this.queue = new Queue(QUEUE_NAME, { connection: this.connection, prefix: bullmqPrefix(redisUrl, prefix), defaultJobOptions });
    this.queue.on('error', () => undefined); // idem: enqueue reports it to its caller
  }

  async enqueue(job: Job): Promise<void> {
    // BullMQ itself waits for a connection that may never come; the port promises to fail fast.
    if (this.connection.status !== 'ready') {
      await withDeadline(this.queue.waitUntilReady(), ENQUEUE_CONNECT_DEADLINE_MS, 'Redis is unreachable');
    }
    const added = new Promise<void>((resolve, reject) => {
      if (this.pending.push({ job, resolve, reject }) === 1) setImmediate(() => this.addPending());
    });
    await withDeadline(added, ENQUEUE_DEADLINE_MS, 'Redis did not accept the job in time');
  }

  private addPending(): void {
    const adds = this.pending;
    this.pending = [];
    this.queue.addBulk(adds.map(({ job }) => ({ name: job.name, data: job.data, opts: job.jobId ? { jobId: job.jobId } : {} }))).then(
      () => adds.forEach((add) => add.resolve()),
      (error: unknown) => adds.forEach((add) => add.reject(error)),
    );
  }

  /** When the oldest waiting job became due (added, or its delay ended), epoch ms; null when none waits. */
  async oldestWaitingDueAt(): Promise<number | null> {
    const [oldest] = await this.queue.getJobs(['wait'], 0, 0, true);
    return oldest ? oldest.timestamp + (oldest.delay ?? 0) : null;
  }

  async ping(): Promise<void> {
    await this.connection.ping();
  }

  async close(): Promise<void> {
    await this.queue.close();
    this.connection.disconnect();
  }
}

function withDeadline<T>(work: Promise<T>, ms: number, message: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}
