/**
 * Domain errors carry the specification's error codes. Adapters map them to transport
 * (adapters/http/error-mapping.ts is the only code-to-status table); the core never knows HTTP.
 */
export interface ErrorDetail {
  field: string;
  issue: string;
}

/**
 * Every code a domain error carries. A new DomainError needs its code here, and
 * adapters/http/error-mapping.ts then fails to compile until the code has a status.
 */
export type DomainErrorCode =
  | 'INVALID_REQUEST'
  | 'AUTHENTICATION_FAILED'
  | 'RESOURCE_NOT_FOUND'
  | 'RESOURCE_CONFLICT'
  | 'BUSINESS_RULE_VIOLATION'
  | 'RESOLUTION_ERROR'
  | 'RATE_LIMITED';

/**
 * A domain error is an answer the caller is given (400, 401, 404, 409, 422, 429), not a fault, so
 * it captures no stack trace: a trace costs about 10 µs per error, a tenth of the whole CPU of a
 * refused request (docs/performance.md, POST /v2/debts refused), and a flood of refused requests
 * (bad credentials, a client past its rate limit) should cost as little as possible. Its name and
 * code say where it comes from; a fault (any other Error) keeps its trace.
 */
export abstract class DomainError extends Error {
  abstract readonly code: DomainErrorCode;
  constructor(message: string) {
    const traceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    super(message);
    Error.stackTraceLimit = traceLimit;
    this.name = new.target.name;
  }
}

/** 400: the request is malformed; `details` names the offending fields. */
export class InvalidRequestError extends DomainError {
  readonly code = 'INVALID_REQUEST';
  constructor(
    message: string,
    readonly details: ErrorDetail[] = [],
  ) {
    super(message);
  }

  static field(field: string, issue: string): InvalidRequestError {
    return new InvalidRequestError(`${field}: ${issue}`, [{ field, issue }]);
  }
}

export class AuthenticationFailedError extends DomainError {
  readonly code = 'AUTHENTICATION_FAILED';
  constructor(message = 'Invalid or missing credentials') {
    super(message);
  }
}

export class NotFoundError extends DomainError {
  readonly code = 'RESOURCE_NOT_FOUND';
  constructor(resource: string) {
    super(`${resource} not found`);
  }
}

/** 409: a natural key or idempotency key is already taken. */
export class ConflictError extends DomainError {
  readonly code = 'RESOURCE_CONFLICT';
}

export class BusinessRuleViolationError extends DomainError {
  readonly code = 'BUSINESS_RULE_VIOLATION';
}

export class ResolutionError extends DomainError {
  readonly code = 'RESOLUTION_ERROR';
}

export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  constructor(readonly retryAfterSeconds: number) {
    super('Too many requests');
  }
}
