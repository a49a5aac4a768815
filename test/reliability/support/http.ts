/** Requests of the reliability suite: rate-limit tolerant, and checked against the envelope rules. */
import type { Response, Test } from 'supertest';
import { REQUEST_ID } from '../../support/http-expect';

/** A 429 is retried after its Retry-After (at most 2 s each, 30 times): the suite measures answers, not the limiter. */
export async function send(request: () => Test): Promise<Response> {
  for (let attempt = 0; ; attempt++) {
    const res = await request();
    if (res.status !== 429 || attempt >= 30) return res;
    const seconds = Math.min(Number(res.headers['retry-after']) || 1, 2);
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }
}

/** Sends every request at once (rate-limit tolerant) and resolves with their answers in order. */
export function concurrently(n: number, request: (i: number) => Test): Promise<Response[]> {
  return Promise.all(Array.from({ length: n }, (_, i) => send(() => request(i))));
}

/**
 * What is wrong with an answer under the conventions: a 5xx; a 4xx outside the error envelope
 * `{ error: { code, message, details? }, requestId: req_… }`; any answer without its requestId
 * (body and X-Request-Id). Null when nothing is.
 */
export function envelopeProblem(res: Response, options: { document?: boolean; serverError?: boolean } = {}): string | null {
  const body = res.body as Record<string, any> | undefined;
  // `serverError`: a 5xx is the expected answer here, checked like any other error.
  if (res.status >= 500 && !options.serverError) return `${res.status} ${JSON.stringify(body).slice(0, 300)}`;
  // The OpenAPI document and the docs page are documents, not envelopes, when they succeed.
  if (options.document && res.status < 400) return null;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return `${res.status} without a JSON object body: ${res.text?.slice(0, 200)}`;
  if (typeof body.requestId !== 'string' || !REQUEST_ID.test(body.requestId)) return `${res.status} without a req_ requestId: ${JSON.stringify(body).slice(0, 300)}`;
  if (res.headers['x-request-id'] !== body.requestId) return `${res.status}: X-Request-Id ${res.headers['x-request-id']} is not the body's ${body.requestId}`;
  if (res.status < 400) return null;
  // A batch none of whose items was created: 422 with an empty `data` and every item in `errors[]`.
  if (res.status === 422 && Array.isArray(body.data) && Array.isArray(body.errors)) {
    const items = body.errors as Record<string, unknown>[];
    const wellFormed = body.data.length === 0 && items.length > 0 && typeof body.batchId === 'string' &&
      items.every((e) => typeof e.index === 'number' && typeof e.code === 'string' && typeof e.message === 'string');
    return wellFormed ? null : `422 batch answer malformed: ${JSON.stringify(body).slice(0, 300)}`;
  }
  const error = body.error as Record<string, unknown> | undefined;
  if (!error || typeof error.code !== 'string' || typeof error.message !== 'string' || error.message === '') {
    return `${res.status} outside the error envelope: ${JSON.stringify(body).slice(0, 300)}`;
  }
  if (error.details !== undefined) {
    const details = error.details;
    if (!Array.isArray(details) || details.some((d) => typeof d?.field !== 'string' || typeof d?.issue !== 'string')) {
      return `${res.status} with malformed details: ${JSON.stringify(error).slice(0, 300)}`;
    }
  }
  return null;
}

/** The problem of an error answer that is not exactly `status` + `code` in the envelope. */
export function errorProblem(res: Response, status: number, code: string): string | null {
  const envelope = envelopeProblem(res, { serverError: status >= 500 });
  if (envelope) return envelope;
  if (res.status !== status || res.body.error?.code !== code) return `expected ${status} ${code}, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
  return null;
}

const WIRE_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PLAIN_DATE = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;
const DATE_KEYS = new Set(['dueDate', 'startDate', 'endDate']);

/**
 * Dates in an answer that break convention 3: a `…At` date-time (or the clock's `now`) not in
 * UTC with milliseconds (`YYYY-MM-DDTHH:mm:ss.sssZ`), a dueDate/startDate/endDate not `YYYY-MM-DD`.
 */
export function dateShapeProblem(value: unknown, path = 'body'): string | null {
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = dateShapeProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (value === null || typeof value !== 'object') return null;
  for (const [key, member] of Object.entries(value)) {
    if (typeof member === 'string' && (key.endsWith('At') || key === 'now') && !WIRE_INSTANT.test(member)) return `${path}.${key} is ${JSON.stringify(member)}`;
    if (typeof member === 'string' && DATE_KEYS.has(key) && !PLAIN_DATE.test(member)) return `${path}.${key} is ${JSON.stringify(member)}`;
    const problem = dateShapeProblem(member, `${path}.${key}`);
    if (problem) return problem;
  }
  return null;
}
