/**
 * How a job that works through a backlog in chunks (the status sweeps: overdue debts, expired
 * links and payment instructions, ended subscriptions, 500 rows a transaction) shares the
 * database with the requests of the moment: between two chunks it may pause, so that a backlog
 * (a day with many debts falling due, the sandbox clock moved years ahead) is spread over time
 * instead of taking a core of the database for as long as it lasts (docs/operations.md,
 * BACKGROUND_JOB_DUTY_CYCLE).
 */
export interface JobPace {
  /**
   * A pacer for one run of a job: each call runs one chunk, after a pause in proportion to the
   * time the call before it took (none before the first, so a run of one chunk never waits).
   * Once the process is stopping (`stop`) a call runs nothing and answers null: the run ends
   * there and the next run, on this process or another, takes the rest.
   */
  pacer(): <T>(chunk: () => Promise<T>) => Promise<T | null>;
  /** The process is shutting down: a pause ends now, and no chunk starts after it. */
  stop(): void;
}
