/** The headers and error answers every operation shares, as /openapi.json declares them. */

export const HEADERS = {
  XRequestId: {
    description: 'The `req_…` id of this request, also in the body: quote it to support',
    required: true,
    schema: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
  },
  RateLimitLimit: {
    description: "Capacity of the API key's token bucket (present unless the organization is not rate limited or the limiter is unavailable)",
    schema: { type: 'integer', minimum: 0 },
  },
  RateLimitRemaining: { description: 'Requests left in the bucket now', schema: { type: 'integer', minimum: 0 } },
  RateLimitReset: { description: 'Seconds until the bucket is full again', schema: { type: 'integer', minimum: 0 } },
  RetryAfter: { description: 'Seconds to wait before trying again', required: true, schema: { type: 'integer', minimum: 0 } },
  IdempotentReplayed: {
    description: '`true` when this answer replays the debt an earlier request with the same Idempotency-Key created (nothing new was created)',
    schema: { type: 'string', enum: ['true'] },
  },
  CacheControlNoStore: {
    description: '`no-store` on every API answer: they carry credentials, secrets shown once, capability URLs and personal data, which no cache may keep',
    required: true,
    schema: { type: 'string', enum: ['no-store'] },
  },
} as const;

export type HeaderName = keyof typeof HEADERS;

/** The wire name of each declared header. */
export const HEADER_WIRE_NAMES: Record<HeaderName, string> = {
  XRequestId: 'X-Request-Id',
  RateLimitLimit: 'RateLimit-Limit',
  RateLimitRemaining: 'RateLimit-Remaining',
  RateLimitReset: 'RateLimit-Reset',
  RetryAfter: 'Retry-After',
  IdempotentReplayed: 'Idempotent-Replayed',
  CacheControlNoStore: 'Cache-Control',
};

export const RATE_LIMIT_HEADERS: HeaderName[] = ['RateLimitLimit', 'RateLimitRemaining', 'RateLimitReset'];

/** What each error status means here, and the example answer it shows. */
export const ERROR_ANSWERS: Record<number, { summary: string; code: string; message: string }> = {
  400: {
    summary: 'INVALID_REQUEST: the body, query or a header is malformed; details[] names every offending field',
    code: 'INVALID_REQUEST',
    message: 'Invalid request',
  },
  401: {
    summary: 'AUTHENTICATION_FAILED: a key or the access token is missing, wrong, expired or of another organization (one answer for every cause)',
    code: 'AUTHENTICATION_FAILED',
    message: 'Invalid or missing credentials',
  },
  404: { summary: 'RESOURCE_NOT_FOUND: no such resource in your organization', code: 'RESOURCE_NOT_FOUND', message: 'Resource not found' },
  409: { summary: 'RESOURCE_CONFLICT: the natural key or idempotency key is taken', code: 'RESOURCE_CONFLICT', message: 'The key is already taken' },
  413: { summary: 'PAYLOAD_TOO_LARGE: the body exceeds 1 MiB', code: 'PAYLOAD_TOO_LARGE', message: 'Request body exceeds 1 MiB' },
  422: {
    summary: 'BUSINESS_RULE_VIOLATION (or RESOLUTION_ERROR): well-formed, but the rules forbid it in the current state',
    code: 'BUSINESS_RULE_VIOLATION',
    message: 'The debt is not payable in its current state',
  },
  429: { summary: 'RATE_LIMITED: too many requests; wait Retry-After seconds', code: 'RATE_LIMITED', message: 'Too many requests' },
  500: { summary: 'INTERNAL_ERROR: nothing of the cause is shown; the requestId finds it in the logs', code: 'INTERNAL_ERROR', message: 'Internal error' },
};

export const EXAMPLE_REQUEST_ID = 'req_8QmZk2VbX1sN4pL7rT0yWc3d';

export function errorExample(status: number, invalid: { field: string; issue: string } | null): unknown {
  const answer = ERROR_ANSWERS[status];
  if (!answer) throw new Error(`no error answer is described for status ${status}`);
  if (status !== 400 || !invalid) return { error: { code: answer.code, message: answer.message }, requestId: EXAMPLE_REQUEST_ID };
  return { error: { code: answer.code, message: `${invalid.field} ${invalid.issue}`, details: [invalid] }, requestId: EXAMPLE_REQUEST_ID };
}
