/**
 * When a failed delivery is tried again: the n-th failed attempt of a round waits the n-th
 * delay, and the delivery fails for good once the schedule is used up. Exponential (doubling
 * from one minute, capped at 16 hours) within three days: 15 attempts, the last one 71 h 3 min
 * after the first. WEBHOOK_RETRY_DELAYS replaces it (tests use a short one).
 */
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [
  1 * MINUTE,
  2 * MINUTE,
  4 * MINUTE,
  8 * MINUTE,
  16 * MINUTE,
  32 * MINUTE,
  1 * HOUR,
  2 * HOUR,
  4 * HOUR,
  8 * HOUR,
  16 * HOUR,
  16 * HOUR,
  16 * HOUR,
  7 * HOUR,
];

/** The wait after the `failedAttempts`-th failed attempt of a round; null when it was the last. */
export function retryDelayAfter(schedule: readonly number[], failedAttempts: number): number | null {
  return schedule[failedAttempts - 1] ?? null;
}

/** A delivery that answers 2xx in time has arrived; anything else is retried. */
export function isDelivered(statusCode: number | null): boolean {
  return statusCode !== null && statusCode >= 200 && statusCode < 300;
}
