import type { JobHandlers, SweepJobName } from './job-queue';

/** A repeating sweep: a job of this name, with no payload, every `everyMs`. */
export interface JobSchedule {
  name: SweepJobName;
  everyMs: number;
}

/**
 * The queue's depth by state, as the metrics (cf_queue_jobs) and the test harness read it. Every
 * adapter has `waiting` (enqueued, not started) and `active` (running now); BullMQ reports its
 * other states too. Completed jobs are history, not depth: they are not counted.
 */
export type JobCounts = { waiting: number; active: number } & Partial<Record<'delayed' | 'prioritized' | 'waiting-children' | 'failed', number>>;

/** One run of a job, as a queue adapter saw it; both queue adapters report every attempt. */
export interface FinishedJob {
  /** The queue that carried it (`collections` for the BullMQ queue and the in-process one alike). */
  queue: string;
  name: string;
  /** The job's id in its queue (null when the adapter has none for it). */
  jobId: string | null;
  outcome: 'completed' | 'failed';
  /** Attempts made so far, this one included. */
  attempts: number;
  /** How long this attempt ran. */
  runSeconds: number;
  /** From enqueue (or the end of its delay) to the start of the first attempt; null on retries. */
  waitSeconds: number | null;
  /** What the handler returned (completed) or threw (failed). */
  result?: unknown;
  error?: unknown;
}

/** Told about every job attempt that ends (the metrics count and time them, the worker logs them). */
export interface JobObserver {
  jobFinished(job: FinishedJob): void;
}

/**
 * The consumer side of the job queue: runs the handler of each job the producers (JobQueue)
 * enqueue, with the payload typed for its name (JobPayloads), and enqueues the sweeps on their
 * schedules. The in-process adapter runs them in this process (no REDIS_URL); the BullMQ one in
 * whichever process starts it (workers, or the API with RUN_WORKERS).
 */
export interface JobConsumer {
  /** Starts consuming with these handlers and registers the schedules (upserts: idempotent across processes). */
  start(handlers: JobHandlers, schedules: readonly JobSchedule[]): Promise<void>;
  /** The queue's depth now; readable whether or not this process consumes. */
  counts(): Promise<JobCounts>;
  /** Adds an observer of every attempt that ends in this process (before or after start). */
  observe(observer: JobObserver): void;
  /** Stops the schedules and taking jobs, and waits for the active ones to finish. Idempotent. */
  close(): Promise<void>;
}
