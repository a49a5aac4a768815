import { type ErrorCode, errorCodes } from './generated/operations.js';

/** One entry of `error.details`: the field as sent (`email`, `phones[0].type`, `body`) and what is wrong. */
export interface ErrorDetail {
  field?: string;
  issue?: string;
  /** Batch entries: the item's index and key. */
  index?: number;
  externalRequestId?: string;
  [key: string]: unknown;
}

/** Every error the SDK throws extends this. */
export class CollectionsError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/**
 * The API answered an error: `{ error: { code, message, details? }, requestId }`. Branch on
 * `status`, `code` and `details[].field`, never on `message` (its text may change).
 */
export class CollectionsApiError extends CollectionsError {
  readonly status: number;
  /** One of {@link ErrorCode}; a code a newer server adds is passed through as is. */
  readonly code: ErrorCode | (string & {});
  readonly details: ErrorDetail[];
  readonly requestId: string | null;
  /** Seconds to wait, from `Retry-After` (429, 503), when the server sent one. */
  readonly retryAfter: number | null;
  /** The operation that failed. */
  readonly operationId: string;
  /** The answer's headers. */
  readonly headers: Headers;
  /** The answer's body as parsed (null when it was not JSON). */
  readonly body: unknown;

  constructor(init: {
    status: number;
    code: string;
    message: string;
    details?: ErrorDetail[];
    requestId?: string | null;
    retryAfter?: number | null;
    operationId: string;
    headers: Headers;
    body: unknown;
  }) {
    super(`${init.operationId}: ${init.status} ${init.code}: ${init.message}`);
    this.status = init.status;
    this.code = init.code;
    this.details = init.details ?? [];
    this.requestId = init.requestId ?? null;
    this.retryAfter = init.retryAfter ?? null;
    this.operationId = init.operationId;
    this.headers = init.headers;
    this.body = init.body;
  }
}

/**
 * `207 PARTIAL_UPDATE` (PATCH /subscriptions/{id}): the change was applied, but some generated
 * debts could not be brought in line. Thrown so it cannot go unnoticed; `data` is the updated
 * resource the answer carries.
 */
export class CollectionsPartialUpdateError<T = unknown> extends CollectionsApiError {
  readonly data: T;

  constructor(init: ConstructorParameters<typeof CollectionsApiError>[0] & { data: T }) {
    super(init);
    this.data = init.data;
  }
}

/** No answer: the connection failed, or the attempt was cut by its timeout. */
export class CollectionsNetworkError extends CollectionsError {
  readonly operationId: string;
  /** How many attempts were made. */
  readonly attempts: number;

  constructor(operationId: string, message: string, attempts: number, cause?: unknown) {
    super(`${operationId}: ${message}`, { cause });
    this.operationId = operationId;
    this.attempts = attempts;
  }
}

/** The attempt got no answer within `timeoutMs`. */
export class CollectionsTimeoutError extends CollectionsNetworkError {
  readonly timeoutMs: number;

  constructor(operationId: string, timeoutMs: number, attempts: number) {
    super(operationId, `no answer within ${timeoutMs} ms`, attempts);
    this.timeoutMs = timeoutMs;
  }
}

export type WebhookSignatureFailure = 'MISSING_HEADER' | 'MALFORMED_HEADER' | 'NO_MATCHING_SIGNATURE' | 'TIMESTAMP_OUT_OF_TOLERANCE' | 'INVALID_PAYLOAD';

/** `verifyWebhook` refused the delivery: answer it with a 400 and do not process it. */
export class WebhookSignatureError extends CollectionsError {
  readonly reason: WebhookSignatureFailure;

  constructor(reason: WebhookSignatureFailure, message: string) {
    super(message);
    this.reason = reason;
  }
}

const KNOWN = new Set<string>(errorCodes);

/** Whether `code` is one of the codes the API documents. */
export function isErrorCode(code: unknown): code is ErrorCode {
  return typeof code === 'string' && KNOWN.has(code);
}

/** The code of an answer whose body is not the error envelope (a proxy's page, say). */
export function codeForStatus(status: number): string {
  switch (status) {
    case 400: return 'INVALID_REQUEST';
    case 401: return 'AUTHENTICATION_FAILED';
    case 404: return 'RESOURCE_NOT_FOUND';
    case 409: return 'RESOURCE_CONFLICT';
    case 413: return 'PAYLOAD_TOO_LARGE';
    case 422: return 'BUSINESS_RULE_VIOLATION';
    case 429: return 'RATE_LIMITED';
    case 431: return 'HEADERS_TOO_LARGE';
    case 502: case 503: case 504: return 'SERVICE_UNAVAILABLE';
    default: return status >= 500 ? 'INTERNAL_ERROR' : 'INVALID_REQUEST';
  }
}
