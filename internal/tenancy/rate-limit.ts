import { InvalidRequestError } from '../shared/errors';

/**
 * A token bucket: `capacity` requests at once, refilled at `refillPerSecond`. An organization may
 * carry its own (set by the operator); without one the server's defaults apply.
 */
export interface RateLimitPolicy {
  capacity: number;
  refillPerSecond: number;
}

/** The largest values an operator may set: far above any sane need, far below float trouble. */
export const MAX_RATE_LIMIT_CAPACITY = 1_000_000;
export const MAX_RATE_LIMIT_REFILL_PER_SECOND = 1_000_000;

/** A policy whose bucket works: a whole capacity of at least 1 and a positive refill rate. */
export function rateLimitPolicy(capacity: number, refillPerSecond: number): RateLimitPolicy {
  if (!Number.isInteger(capacity) || capacity < 1 || capacity > MAX_RATE_LIMIT_CAPACITY) {
    throw InvalidRequestError.field('capacity', `must be a whole number from 1 to ${MAX_RATE_LIMIT_CAPACITY}`);
  }
  if (!Number.isFinite(refillPerSecond) || refillPerSecond <= 0 || refillPerSecond > MAX_RATE_LIMIT_REFILL_PER_SECOND) {
    throw InvalidRequestError.field('refill-per-second', `must be a number above 0 and at most ${MAX_RATE_LIMIT_REFILL_PER_SECOND}`);
  }
  return { capacity, refillPerSecond };
}
