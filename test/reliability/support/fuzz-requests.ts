/**
 * Requests for the fuzzer, generated from a route definition (adapters/http/route.ts): its path
 * parameters, its query schema and its body schema (`body`, or `handlerBody` when the handler
 * validates), each schema-aware (usually valid, so the use cases run) or hostile.
 */
import fc from 'fast-check';
import type { Response } from 'supertest';
import type supertest from 'supertest';
import type { Method, Route } from '../../../adapters/http/route';
import type { JsonSchema } from '../../../adapters/http/validation';
import { hostileKey, hostileString, hostileValue, rawBodies, rawPathSegments, rawQueryParts } from './hostile';
import { type Known, valueOf } from './schema-arbitrary';

export interface FuzzRequest {
  method: Method;
  /** Path with its parameters filled in, already URL-encoded. */
  path: string;
  /** Query string without `?`, already encoded (or deliberately malformed). */
  query: string;
  body: { json: unknown } | { raw: string | Buffer } | null;
  headers: Record<string, string>;
}

/** What the fuzzer needs to aim: real credentials, real ids per path prefix, real values by field name. */
export interface FuzzContext {
  headers: Record<string, string>;
  /** The login API key, for /auth routes. */
  loginHeaders: Record<string, string>;
  /** `/debts` → ids of existing debts (prefixed and bare), and so on. */
  ids: Record<string, string[]>;
  known: Known;
  /** Valid bodies by `METHOD /path`, whose fields the fuzzer replaces by schema values a few at a time. */
  examples: Record<string, fc.Arbitrary<Record<string, unknown>>>;
}

/** The route's path template, its :params filled from `ids` of its resource, or hostile. */
function pathOf(route: Pick<Route, 'path'>, context: FuzzContext): fc.Arbitrary<string> {
  const parts = route.path.split('/');
  const resource = '/' + parts.filter((p) => p && p !== 'test-helpers' && !p.startsWith(':'))[0];
  const known = context.ids[resource] ?? [];
  const segment = fc.oneof(
    { weight: 6, arbitrary: known.length ? fc.constantFrom(...known).map(encodeURIComponent) : hostileString.map(encode) },
    { weight: 3, arbitrary: hostileString.map(encode) },
    { weight: 1, arbitrary: fc.constantFrom(...rawPathSegments) },
  );
  const params = parts.filter((p) => p.startsWith(':'));
  return fc.array(segment, { minLength: params.length, maxLength: params.length }).map((values) => {
    let i = 0;
    return parts.map((p) => (p.startsWith(':') ? values[i++] : p)).join('/');
  });
}

/** encodeURIComponent after replacing lone surrogates (which it cannot encode). */
const encode = (s: string) => encodeURIComponent(s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd'));

/** Pairs from the query schema (as text), mutated with hostile values, repeats and unknown keys. */
function queryOf(schema: JsonSchema | undefined, context: FuzzContext): fc.Arbitrary<string> {
  const valid: fc.Arbitrary<Record<string, unknown>> = schema ? (valueOf(schema, context.known) as fc.Arbitrary<Record<string, unknown>>) : fc.constant({});
  const names = Object.keys((schema?.properties as Record<string, unknown>) ?? {});
  const pairs = valid.chain((object) => {
    const base = Object.entries(object).map(([k, v]) => [k, String(v)] as [string, string]);
    return fc.oneof(
      { weight: 4, arbitrary: fc.constant(base) },
      {
        weight: 3,
        arbitrary: fc
          .tuple(names.length ? fc.constantFrom(...names) : hostileKey, hostileString)
          .map(([k, v]) => [...base.filter(([name]) => name !== k), [k, v] as [string, string]]),
      },
      { weight: 1, arbitrary: fc.tuple(hostileKey, hostileString).map(([k, v]) => [...base, [k, v] as [string, string]]) },
      { weight: 1, arbitrary: fc.constantFrom(...(names.length ? names : ['page'])).map((k) => [...base, [k, '1'] as [string, string], [k, '2'] as [string, string]]) },
      { weight: 1, arbitrary: fc.constant([['companyCode', 'NOPE'] as [string, string], ...base]) },
    );
  });
  const encoded = pairs.map((list) => list.map(([k, v]) => `${encode(k)}=${encode(v)}`).join('&'));
  return fc.oneof({ weight: 8, arbitrary: encoded }, { weight: 1, arbitrary: fc.tuple(encoded, fc.constantFrom(...rawQueryParts)).map(([q, raw]) => [q, raw].filter(Boolean).join('&')) });
}

/** Schema-aware bodies, the same with one field made hostile (or dropped, or joined by a hostile key), hostile values, raw text. */
function bodyOf(route: Route, context: FuzzContext): fc.Arbitrary<FuzzRequest['body']> {
  if (route.method === 'get') return fc.constant(null);
  const schema = route.body ?? route.handlerBody;
  const hostile = fc.oneof(
    { weight: 3, arbitrary: hostileValue.map((json) => ({ json })) },
    { weight: 1, arbitrary: rawBodies.map((raw) => ({ raw })) },
    { weight: 1, arbitrary: fc.constant(null) },
  );
  if (!schema) return hostile;
  const fromSchema = valueOf(schema, context.known);
  const examples = context.examples[`${route.method.toUpperCase()} ${route.path}`];
  // An example with a few of its fields replaced by schema values.
  const fromExample = examples
    ? fc.tuple(examples, fromSchema).chain(([example, generated]) => {
        const fields = generated !== null && typeof generated === 'object' && !Array.isArray(generated) ? (generated as Record<string, unknown>) : {};
        return fc.subarray(Object.keys(fields), { maxLength: Math.min(3, Object.keys(fields).length) }).map((names) => ({ ...example, ...Object.fromEntries(names.map((n) => [n, fields[n]])) }));
      })
    : fromSchema;
  const valid = fc.oneof(fromSchema, fromExample);
  const mutated = valid.chain((body): fc.Arbitrary<FuzzRequest['body']> => {
    if (body === null || typeof body !== 'object' || Array.isArray(body)) return fc.constant({ json: body });
    const keys = [...new Set([...Object.keys(body), ...Object.keys(propertiesOf(schema))])];
    const text = JSON.stringify(body);
    return fc.oneof(
      fc.tuple(fc.constantFrom(...keys), hostileValue).map(([k, v]) => ({ json: { ...body, [k]: v } })),
      fc.constantFrom(...keys).map((k) => ({ json: Object.fromEntries(Object.entries(body).filter(([name]) => name !== k)) })),
      // As text: a key such as __proto__ must reach the server as an own key.
      fc.tuple(hostileKey, hostileValue).map(([k, v]) => ({ raw: `${text.slice(0, -1)}${text === '{}' ? '' : ','}${JSON.stringify(k)}:${JSON.stringify(v) ?? 'null'}}` })),
      fc.constant({ json: [body] }),
    );
  });
  return fc.oneof(
    { weight: 5, arbitrary: valid.map((json) => ({ json })) },
    { weight: 4, arbitrary: mutated },
    { weight: 2, arbitrary: hostile },
  );
}

function propertiesOf(schema: JsonSchema): Record<string, unknown> {
  const variants = (schema.oneOf as JsonSchema[] | undefined) ?? [schema];
  return Object.assign({}, ...variants.map((s) => (s.properties as Record<string, unknown>) ?? {}));
}

/** Header values Node can send: visible latin-1 only. */
const headerValue = hostileString.map((s) => s.replace(/[^\x20-\x7e\x80-\xff]/g, '').slice(0, 4000));

/** The credentials (usually right), an Idempotency-Key (sometimes hostile). */
function headersOf(route: Route, context: FuzzContext): fc.Arbitrary<Record<string, string>> {
  const right = route.path.startsWith('/auth/') ? context.loginHeaders : context.headers;
  const auth = fc.oneof(
    { weight: 30, arbitrary: fc.constant(right) },
    { weight: 1, arbitrary: fc.constant({ 'x-api-key': context.headers['x-api-key']! }) },
    { weight: 1, arbitrary: headerValue.map((token) => ({ ...context.headers, 'x-authorization-token': token })) },
    { weight: 1, arbitrary: headerValue.map((key) => ({ ...context.headers, 'x-api-key': key })) },
  );
  const idempotency = route.method === 'post'
    ? fc.oneof(fc.constant({}), fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._:-]{0,20}$/).map((k) => ({ 'Idempotency-Key': k })), headerValue.map((k) => ({ 'Idempotency-Key': k })))
    : fc.constant({});
  return fc.tuple(auth, idempotency).map(([a, b]) => ({ ...a, ...b }));
}

export function requestOf(route: Route, context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.constant(route.method),
    path: pathOf(route, context),
    query: queryOf(route.query, context),
    body: bodyOf(route, context),
    headers: headersOf(route, context),
  });
}

/** Paths and methods no route serves: every answer must still be the 404 envelope. */
export function unknownRequest(context: FuzzContext): fc.Arbitrary<FuzzRequest> {
  return fc.record({
    method: fc.constantFrom<Method>('get', 'post', 'put', 'patch', 'delete'),
    path: fc.oneof(
      fc.array(fc.oneof(hostileString.map(encode), fc.constantFrom(...rawPathSegments)), { minLength: 1, maxLength: 4 }).map((parts) => '/' + parts.join('/')),
      fc.constantFrom('/contacts/x/y', '/v2', '/v3/debts', '/debts/x/pay', '/auth', '/test-helpers', '/health', '/openapi.json/x', '/%2e%2e/etc/passwd'),
    ),
    query: queryOf(undefined, context),
    body: hostileValue.map((json) => ({ json })),
    headers: fc.constant(context.headers),
  });
}

/** Sends the request; answers within 15 s or throws. */
export function perform(http: supertest.Agent, request: FuzzRequest): Promise<Response> {
  const url = request.path + (request.query ? `?${request.query}` : '');
  let test = http[request.method](url).timeout(15_000).set(request.headers);
  if (request.body && request.method !== 'get') {
    const payload = 'json' in request.body ? JSON.stringify(request.body.json) : request.body.raw;
    if (payload !== undefined) test = test.set('Content-Type', 'application/json').send(payload);
  }
  return test.then((res) => res);
}

/** A short description of a request for failure reports. */
export function describeRequest(request: FuzzRequest): string {
  const body = !request.body ? '' : 'json' in request.body ? JSON.stringify(request.body.json) : `raw ${JSON.stringify(String(request.body.raw))}`;
  const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}…(${text.length} chars)` : text);
  return `${request.method.toUpperCase()} ${cut(request.path, 300)}${request.query ? `?${cut(request.query, 400)}` : ''} ${cut(JSON.stringify(request.headers), 400)} ${cut(body ?? '', 600)}`;
}
