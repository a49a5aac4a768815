/**
 * Every answer the test suites receive from a harness API is held to /openapi.json: the status
 * is declared for the operation, the body matches its schema with no undeclared property, the
 * declared required headers are there and no header of the API's own goes undeclared. The
 * harness puts `conformanceMiddleware()` in front of the API; the root hooks in
 * openapi-conformance.hooks.ts fail the test during which a mismatch was seen.
 */
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Context, Next } from 'koa';
import { publishedOpenApiDocument } from '../../adapters/http/published-document';

type Json = Record<string, any>;

/** Headers of the API's own making: present on an answer, each must be declared for it. */
const API_HEADERS = ['x-request-id', 'ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset', 'retry-after', 'idempotent-replayed', 'cache-control'];

const violations: string[] = [];

/** The mismatches seen since the last call (and forgets them). */
export function takeViolations(): string[] {
  return violations.splice(0, violations.length);
}

/** `testHelpers`: whether the API mounts the sandbox helpers (the document it serves lists them). */
export function conformanceMiddleware(options: { testHelpers: boolean }) {
  const conformance = documentConformance(options);
  return async (ctx: Context, next: Next): Promise<void> => {
    await next();
    const path = conformance.operationPath(ctx.method.toLowerCase(), ctx.path);
    if (path === null) return; // not an operation of the document (/openapi.json, /docs, /metrics, pages, unknown paths)
    // An answer written as JSON text or its bytes (adapters/http/raw-json.ts) is checked as the client reads it.
    const written = typeof ctx.body === 'string' || Buffer.isBuffer(ctx.body) ? String(ctx.body) : null;
    const body = written !== null && ctx.response.is('json') ? JSON.parse(written) : ctx.body;
    const problem = conformance.check(ctx.method.toLowerCase(), path, ctx.status, ctx.response.headers, body);
    if (problem) violations.push(`${ctx.method} ${ctx.path} → ${ctx.status}: ${problem}`);
  };
}

/** Checks answers against the published document (built once per process). */
export function documentConformance(options: { testHelpers?: boolean } = {}) {
  const { document, ajv } = documentValidator(publishedOpenApiDocument('http://localhost:3000', options));
  const validators = new Map<string, ValidateFunction>();
  const headerRequired = (ref: string) => !!document.components.headers[ref.split('/').pop()!]?.required;
  // Path templates, literal segments before parameters (/adhesions/cancel is not /adhesions/{id}).
  const templates = Object.keys(document.paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map((template) => ({ template, pattern: new RegExp(`^${template.replace(/\{\w+\}/g, '[^/]+')}$`) }));

  return {
    /**
     * The document path of a request, matched on the wire path (so answers no route produced, such
     * as a 413 for a body too large, are checked too); null when no operation has it.
     */
    operationPath(method: string, path: string): string | null {
      const match = templates.find((t) => t.pattern.test(path) && document.paths[t.template][method]);
      return match?.template ?? null;
    },

    /** Null when the answer conforms, else what is wrong. */
    check(method: string, path: string, status: number, headers: Record<string, unknown>, body: unknown): string | null {
      const operation = document.paths[path]?.[method];
      if (!operation) return `${method.toUpperCase()} ${path} is not an operation of the document`;
      const response = operation.responses[String(status)];
      if (!response) return `status ${status} is not declared for ${operation.operationId} (declared: ${Object.keys(operation.responses).join(', ')})`;
      const problems: string[] = [];
      const declared = Object.fromEntries(Object.entries(response.headers ?? {}).map(([name, h]) => [name.toLowerCase(), (h as Json).$ref as string]));
      for (const [name, ref] of Object.entries(declared)) if (headerRequired(ref) && headers[name] === undefined) problems.push(`header ${name} is missing`);
      for (const name of API_HEADERS) if (headers[name] !== undefined && !(name in declared)) problems.push(`header ${name} is not declared`);
      const key = `${method} ${path} ${status}`;
      let validate = validators.get(key);
      if (!validate) {
        validate = ajv.compile(closed(response.content['application/json'].schema));
        validators.set(key, validate);
      }
      const wire = body === undefined || body === null || Buffer.isBuffer(body) || typeof body === 'string' ? body : JSON.parse(JSON.stringify(body));
      if (!validate(wire)) problems.push(`body does not match: ${ajv.errorsText(validate.errors, { separator: '; ' })}`);
      return problems.length ? `${problems.join('; ')}\n  body: ${JSON.stringify(wire)?.slice(0, 600)}` : null;
    },
  };
}

/**
 * Ajv (JSON Schema 2020-12, as OpenAPI 3.1) over a copy of `source` whose `$ref`s resolve
 * within it and whose schemas are `closed`: compile any schema of the returned document with it.
 */
export function documentValidator(source: object): { document: Json; ajv: Ajv2020 } {
  const document = JSON.parse(JSON.stringify(source).replaceAll('"#/components/', '"doc#/components/')) as Json;
  const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));
  ajv.addSchema({ $id: 'doc', components: { schemas: closed(document.components.schemas) } });
  return { document, ajv };
}

/**
 * A copy where every object schema that lists properties allows no others (the published
 * schemas stay open to additions; answers must not carry a field the document does not name).
 */
export function closed(schema: unknown): any {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) {
    out[key] = key === 'examples' || key === 'example' || key === 'enum' || key === 'const' ? value : key === 'properties' ? mapValues(value as Json, closed) : closed(value);
  }
  if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function mapValues(object: Json, f: (value: unknown) => unknown): Json {
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, f(v)]));
}
