import type { Route } from '../route';
import { cappedPageMetaSchema, errorEnvelopeSchema, pageMetaSchema, requestIdSchema } from '../schemas/common.schemas';
import { nameOf } from '../schemas/named';
import type { JsonSchema } from '../validation';
import { ComponentSchemas } from './components';
import { API_DESCRIPTION, TAGS } from './prose';
import { ERROR_ANSWERS, errorExample, EXAMPLE_REQUEST_ID, HEADER_WIRE_NAMES, HEADERS, type HeaderName, RATE_LIMIT_HEADERS } from './responses';
import { webhooksSection } from './webhooks';

type Examples = Record<string, { summary: string; value: unknown }>;

/**
 * OpenAPI 3.1, generated from the route table: the very schemas that validate requests, the
 * documented answers of each route, and the webhooks. Every status an operation can answer is
 * declared with its headers and an example (test/support/openapi-conformance.ts holds every
 * answer of the test suite to it).
 */
export function openApiDocument(routes: Route[], serverUrl: string) {
  const schemas = new ComponentSchemas();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const path = r.path.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[r.method] = operation(r, path, schemas);
  }
  const webhooks = webhooksSection(schemas);
  const usedTags = new Set(routes.map((r) => r.tag));
  return {
    openapi: '3.1.0',
    info: {
      title: 'Collections Facade API',
      version: '1.0.0',
      summary: 'Debts, payment links, subscriptions, contacts, products and direct debit for Latin America.',
      description: API_DESCRIPTION,
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: serverUrl, description: 'This server' }],
    tags: TAGS.filter((t) => usedTags.has(t.name) || t.name === 'Webhook events'),
    security: [],
    paths,
    webhooks,
    components: {
      schemas: schemas.all(),
      parameters: {
        CompanyCode: {
          name: 'companyCode',
          in: 'query',
          required: false,
          description:
            'Clients with several companies: the company this request is for. On POST, PATCH and PUT it may go in the JSON body instead. ' +
            'Missing for a multi-company client, unknown or of another client: 400 with details[].field companyCode.',
          schema: { type: 'string' },
        },
      },
      headers: Object.fromEntries(Object.entries(HEADERS).map(([name, header]) => [name, header])),
      securitySchemes: {
        apiKey: {
          type: 'apiKey', in: 'header', name: 'x-api-key',
          description: 'The facade API key of your organization (`ck_dev_…`, `ck_stg_…`, `ck_live_…`): only a server of its environment accepts it.',
        },
        accessToken: {
          type: 'apiKey', in: 'header', name: 'x-authorization-token',
          description: 'The accessToken from POST /auth/login, without a `Bearer` prefix (the Authorization header is not used).',
        },
        loginApiKey: {
          type: 'apiKey', in: 'header', name: 'x-api-key',
          description: 'The login API key (`lk_dev_…`), different from the facade key: only POST /auth/login and /auth/refresh take it.',
        },
      },
    },
  };
}

function operation(r: Route, path: string, schemas: ComponentSchemas) {
  const body = r.body ?? r.handlerBody;
  const idempotent = r.idempotent ?? ['get', 'put', 'delete'].includes(r.method);
  return {
    operationId: r.operationId,
    summary: r.summary,
    description: r.description,
    tags: [r.tag],
    security: r.auth === 'facade' ? [{ apiKey: [], accessToken: [] }] : r.auth === 'login' ? [{ loginApiKey: [] }] : [],
    parameters: parameters(r, path, schemas),
    ...(body ? { requestBody: { required: true, content: { 'application/json': { schema: schemas.use(body), examples: requestExamples(body) } } } } : {}),
    responses: responses(r, body, schemas),
    'x-idempotent': idempotent,
  };
}

function parameters(r: Route, path: string, schemas: ComponentSchemas): unknown[] {
  const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((m) => {
    const description = r.params?.[m[1]!];
    if (!description) throw new Error(`${r.operationId}: path parameter ${m[1]} has no description`);
    return { name: m[1], in: 'path', required: true, description, schema: { type: 'string' } };
  });
  const required = (r.query?.required as string[] | undefined) ?? [];
  const inQuery = Object.entries((r.query?.properties as Record<string, JsonSchema>) ?? {}).map(([name, schema]) => {
    const { description, ...shape } = schema;
    if (!description) throw new Error(`${r.operationId}: query parameter ${name} has no description`);
    return { name, in: 'query', required: required.includes(name), description, schema: schemas.use(shape) };
  });
  const idempotencyKey = r.idempotencyKey
    ? [{
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description: r.idempotencyKey === 'replays'
          ? 'Becomes the externalRequestId of the debt (generated when absent): a repeat answers the debt the first request created, with Idempotent-Replayed: true, and creates nothing. 1 to 150 letters, digits or . _ : -, starting with a letter or digit. Not used by batches (each item names its own).'
          : 'Becomes externalPaymentLinkId when the body has none: a repeated key answers 409 RESOURCE_CONFLICT and creates nothing. At most 150 characters.',
        schema: { type: 'string', maxLength: 150 },
        example: 'inv-2026-0001',
      }]
    : [];
  const company = r.auth === 'facade' ? [{ $ref: '#/components/parameters/CompanyCode' }] : [];
  return [...inPath, ...inQuery, ...company, ...idempotencyKey];
}

function responses(r: Route, body: JsonSchema | undefined, schemas: ComponentSchemas): Record<string, unknown> {
  const facade = r.auth === 'facade';
  // Every answer of a route carries X-Request-Id and Cache-Control: no-store (route.ts, request-context.ts).
  const always: HeaderName[] = ['XRequestId', 'CacheControlNoStore'];
  const common: HeaderName[] = facade ? [...always, ...RATE_LIMIT_HEADERS] : always;
  const out: Record<string, unknown> = {};
  const success = r.status ?? 200;
  if (r.response) {
    const headers: HeaderName[] = [...common, ...(r.idempotencyKey === 'replays' ? ['IdempotentReplayed' as const] : [])];
    out[String(success)] = answer('Success', envelope(r, schemas), headers, { [exampleName(r.response)]: { summary: 'Success', value: successExample(r) } });
  }
  for (const status of errorStatuses(r, body)) {
    const headers: HeaderName[] = [...(status === 401 ? always : common), ...(status === 429 ? ['RetryAfter' as const] : [])];
    const example = errorExample(status, status === 400 ? invalidField(r, body) : null);
    out[String(status)] = answer(ERROR_ANSWERS[status]!.summary, schemas.use(errorEnvelopeSchema), headers, { [ERROR_ANSWERS[status]!.code]: { summary: ERROR_ANSWERS[status]!.code, value: example } });
  }
  for (const [status, extra] of Object.entries(r.answers ?? {})) {
    const headers: HeaderName[] = [...(Number(status) === 401 ? always : common), ...(extra.headers ?? [])];
    out[status] = answer(extra.description, schemas.use(extra.body), headers, extra.examples ?? schemaExamples(extra.body));
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)));
}

function answer(description: string, schema: unknown, headers: HeaderName[], examples: Examples) {
  return {
    description,
    headers: Object.fromEntries([...new Set(headers)].map((h) => [HEADER_WIRE_NAMES[h], { $ref: `#/components/headers/${h}` }])),
    content: { 'application/json': { schema, examples } },
  };
}

/**
 * The error statuses a route can answer: its own, plus 400 (companyCode), 401 and 429 behind the
 * credentials and the rate limit, 400 where a body or query is read, 413 wherever a body is read off the wire
 * (every method but GET), 500 everywhere.
 */
function errorStatuses(r: Route, body: JsonSchema | undefined): number[] {
  const statuses = new Set(r.errors ?? []);
  // Facade routes read companyCode (400 when it is missing for a multi-company client, or not theirs).
  if (r.auth === 'facade') statuses.add(400).add(401).add(429);
  if (body || r.query) statuses.add(400);
  if (r.method !== 'get') statuses.add(413);
  statuses.add(500);
  for (const status of Object.keys(r.answers ?? {})) statuses.delete(Number(status));
  return [...statuses].sort((a, b) => a - b);
}

function envelope(r: Route, schemas: ComponentSchemas): unknown {
  const data = schemas.use(r.response!);
  if (r.bare) return data;
  if (!r.list) return { type: 'object', required: ['data', 'requestId'], properties: { data, requestId: schemas.use(requestIdSchema) } };
  const items = { type: 'array', items: data };
  if (r.list === 'all') return { type: 'object', required: ['data', 'requestId'], properties: { data: items, requestId: schemas.use(requestIdSchema) } };
  const meta = schemas.use(r.list === 'capped-page' ? cappedPageMetaSchema : pageMetaSchema);
  return { type: 'object', required: ['data', 'meta', 'requestId'], properties: { data: items, meta, requestId: schemas.use(requestIdSchema) } };
}

function successExample(r: Route): unknown {
  const item = firstExample(r.response!);
  if (r.bare) return item;
  if (!r.list) return { data: item, requestId: EXAMPLE_REQUEST_ID };
  if (r.list === 'all') return { data: [item], requestId: EXAMPLE_REQUEST_ID };
  const meta = firstExample(r.list === 'capped-page' ? cappedPageMetaSchema : pageMetaSchema);
  return { data: [item], meta, requestId: EXAMPLE_REQUEST_ID };
}

function firstExample(schema: JsonSchema): unknown {
  const variants = schema.oneOf as JsonSchema[] | undefined;
  if (!schema.examples && variants?.length) return firstExample(variants[0]!);
  const examples = schema.examples as unknown[] | undefined;
  if (!examples?.length) throw new Error(`schema ${nameOf(schema) ?? JSON.stringify(schema).slice(0, 80)} has no example`);
  return examples[0];
}

function schemaExamples(schema: JsonSchema): Examples {
  const variants = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
  return Object.fromEntries(variants.map((v) => [exampleName(v), { summary: nameOf(v) ?? 'Example', value: firstExample(v) }]));
}

function requestExamples(body: JsonSchema): Examples {
  return schemaExamples(body);
}

function exampleName(schema: JsonSchema): string {
  return nameOf(schema) ?? 'example';
}

/**
 * What a 400 example names: the body's first required field, else a malformed body, else the
 * page of a list or a required query parameter, else the company context.
 */
function invalidField(r: Route, body: JsonSchema | undefined): { field: string; issue: string } {
  const first = body ? ((body.oneOf as JsonSchema[] | undefined) ?? [body])[0] : undefined;
  const required = (first?.required as string[] | undefined)?.[0];
  if (required) return { field: required, issue: 'is required' };
  if (body) return { field: 'body', issue: 'is not valid JSON' };
  const query = Object.keys((r.query?.properties as object | undefined) ?? {});
  if (query.includes('page')) return { field: 'page', issue: 'must be >= 1' };
  const requiredQuery = (r.query?.required as string[] | undefined)?.[0];
  if (requiredQuery) return { field: requiredQuery, issue: 'is required' };
  return { field: 'companyCode', issue: 'is required for a client with several companies' };
}
