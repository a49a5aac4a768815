import { DomainError, type DomainErrorCode, InvalidRequestError, RateLimitedError } from '../../internal/shared/errors';

/** Codes the HTTP layer answers by itself, beside the domain's. */
type TransportErrorCode = 'PAYLOAD_TOO_LARGE' | 'REQUEST_TIMEOUT' | 'HEADERS_TOO_LARGE' | 'PARTIAL_UPDATE' | 'INTERNAL_ERROR' | 'SERVICE_UNAVAILABLE';

export type ErrorCode = DomainErrorCode | TransportErrorCode;

/**
 * The only table from error codes to HTTP statuses. Typed over every code: a domain error whose
 * code has no status here does not compile (rather than answering 500 at run time).
 */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  INVALID_REQUEST: 400,
  AUTHENTICATION_FAILED: 401,
  RESOURCE_NOT_FOUND: 404,
  RESOURCE_CONFLICT: 409,
  PAYLOAD_TOO_LARGE: 413,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  RESOLUTION_ERROR: 422,
  BUSINESS_RULE_VIOLATION: 422,
  RATE_LIMITED: 429,
  PARTIAL_UPDATE: 207,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
};

/** Every code an error answer can carry. */
export const ERROR_CODES = Object.keys(STATUS_BY_CODE) as ErrorCode[];

export interface ErrorReply {
  status: number;
  body: { code: string; message: string; details?: unknown[] };
  headers?: Record<string, string>;
  /** True when the cause is not the client's: log it, hide it. */
  internal: boolean;
}

export function toErrorReply(error: unknown): ErrorReply {
  if (error instanceof DomainError) {
    const body: ErrorReply['body'] = { code: error.code, message: error.message };
    if (error instanceof InvalidRequestError && error.details.length > 0) body.details = error.details;
    const headers = error instanceof RateLimitedError ? { 'Retry-After': String(error.retryAfterSeconds) } : undefined;
    return { status: STATUS_BY_CODE[error.code], body, headers, internal: false };
  }
  // Errors raised by the HTTP stack itself (body too large, bad encoding) carry a 4xx status.
  const http = error as { status?: number; expose?: boolean; type?: string };
  if (typeof http?.status === 'number' && http.status >= 400 && http.status < 500) {
    if (http.status === 413) return clientError(413, 'PAYLOAD_TOO_LARGE', 'Request body exceeds 1 MiB');
    return clientError(400, 'INVALID_REQUEST', 'Malformed request');
  }
  return { status: 500, body: { code: 'INTERNAL_ERROR', message: 'Internal error' }, internal: true };
}

function clientError(status: number, code: ErrorCode, message: string): ErrorReply {
  return { status, body: { code, message }, internal: false };
}

/**
 * What Node's HTTP parser rejects before Koa sees a request (a request line and headers over
 * 16 KiB, a malformed request, a request that took too long): the status and envelope body.
 */
export function parserErrorReply(error: { code?: string }): { status: number; body: ErrorReply['body'] } {
  const status = (code: ErrorCode) => STATUS_BY_CODE[code];
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return { status: status('HEADERS_TOO_LARGE'), body: { code: 'HEADERS_TOO_LARGE', message: 'Request line and headers exceed 16 KiB' } };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: status('REQUEST_TIMEOUT'), body: { code: 'REQUEST_TIMEOUT', message: 'The request was not received in time' } };
    default:
      return { status: status('INVALID_REQUEST'), body: { code: 'INVALID_REQUEST', message: 'Malformed HTTP request' } };
  }
}
