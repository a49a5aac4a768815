import type { Route } from './route';
import { errorEnvelopeSchema, pageMetaSchema } from './schemas/common.schemas';

const ERROR_TEXT: Record<number, string> = {
  400: 'INVALID_REQUEST', 401: 'AUTHENTICATION_FAILED', 404: 'RESOURCE_NOT_FOUND', 409: 'RESOURCE_CONFLICT',
  413: 'PAYLOAD_TOO_LARGE', 422: 'BUSINESS_RULE_VIOLATION', 429: 'RATE_LIMITED', 500: 'INTERNAL_ERROR',
};

/** Every answer of an authenticated facade request carries these (docs/operations.md). */
const RATE_LIMIT_HEADERS = {
  'RateLimit-Limit': { description: 'Capacity of the API key\'s token bucket', schema: { type: 'integer' } },
  'RateLimit-Remaining': { description: 'Requests left in the bucket', schema: { type: 'integer' } },
  'RateLimit-Reset': { description: 'Seconds until the bucket is full again', schema: { type: 'integer' } },
};
const RETRY_AFTER = { 'Retry-After': { description: 'Seconds until a request is allowed again', schema: { type: 'integer' } } };

/** OpenAPI 3.1, generated from the very schemas that validate requests. */
export function openApiDocument(routes: Route[], serverUrl: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    const isList = r.method === 'get' && !/\{\w+\}$/.test(path) && !!r.query;
    const data = isList ? { type: 'array', items: r.response ?? {} } : (r.response ?? {});
    const success = { type: 'object', properties: { data, ...(isList ? { meta: pageMetaSchema } : {}), requestId: { type: 'string' } } };
    const limited = r.auth === 'facade';
    const headers = limited ? { headers: RATE_LIMIT_HEADERS } : {};
    const responses: Record<string, unknown> = {
      [String(r.status ?? 200)]: { description: 'Success', ...headers, content: { 'application/json': { schema: success } } },
    };
    for (const status of [...(r.errors ?? []), ...(limited ? [429] : []), 500]) {
      const statusHeaders = status === 429 ? { headers: limited ? { ...RATE_LIMIT_HEADERS, ...RETRY_AFTER } : RETRY_AFTER } : status === 401 ? {} : headers;
      responses[String(status)] = { description: ERROR_TEXT[status] ?? 'Error', ...statusHeaders, content: { 'application/json': { schema: errorEnvelopeSchema } } };
    }
    const parameters = [
      ...[...path.matchAll(/\{(\w+)\}/g)].map((m) => ({ name: m[1], in: 'path', required: true, schema: { type: 'string' } })),
      ...Object.entries((r.query?.properties as Record<string, object>) ?? {}).map(([name, schema]) => ({ name, in: 'query', schema })),
    ];
    (paths[path] ??= {})[r.method] = {
      operationId: r.operationId,
      tags: [r.tag],
      summary: r.summary,
      ...(r.auth === 'facade' ? { security: [{ apiKey: [], accessToken: [] }] } : {}),
      ...(parameters.length ? { parameters } : {}),
      ...(r.body || r.handlerBody ? { requestBody: { required: true, content: { 'application/json': { schema: r.body ?? r.handlerBody } } } } : {}),
      responses,
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Collections Facade API',
      version: '1.0.0',
      description: 'Debts, payment links, subscriptions, contacts, products and direct debit for Latin America.',
    },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        accessToken: { type: 'apiKey', in: 'header', name: 'x-authorization-token' },
      },
    },
    paths,
  };
}
