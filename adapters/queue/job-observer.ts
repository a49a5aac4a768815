/** One run of a job, as a queue adapter saw it; both queue adapters report every attempt. */
export interface FinishedJob {
  /** The queue that carried it (`collections` for the BullMQ queue and the in-process one alike). */
  queue: string;
  name: string;
  outcome: 'completed' | 'failed';
  /** How long this attempt ran. */
  runSeconds: number;
  /** From enqueue (or the end of its delay) to the start of the first attempt; null on retries. */
  waitSeconds: number | null;
}

/** Told about every job attempt that ends (the metrics adapter counts and times them). */
export interface JobObserver {
  jobFinished(job: FinishedJob): void;
}
