import type { RouteTable } from './segment-router';
import type { Context } from 'koa';
import type { TenantScope } from '../../internal/shared/tenant-scope';
import type { Application } from '../../internal/application';
import type { RateLimitGate } from './middleware/rate-limit';
import type { HeaderName } from './openapi/responses';
import { malformedJsonError } from './middleware/json-body';
import { answerJson, holdsRawJson, pageJson } from './raw-json';
import { validateBody, validateQuery, type JsonSchema } from './validation';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface RouteInput<B, Q> {
  body: B;
  query: Q;
  params: Record<string, string>;
  scope: TenantScope;
  ctx: Context;
}

export interface Reply {
  status?: number;
  data: unknown;
  meta?: Record<string, unknown>;
  /** Top-level members beside `data` (a batch answer's `batchId` and `errors`). */
  extra?: Record<string, unknown>;
}

/** An answer /openapi.json documents beside the generated ones (a batch's 207, a 200 beside a 201). */
export interface Answer {
  description: string;
  /** The whole body. */
  body: JsonSchema;
  headers?: HeaderName[];
  /** Named example bodies; without, the schema's own `examples`. */
  examples?: Record<string, { summary: string; value: unknown }>;
}

/**
 * One endpoint: its schemas (which validate the request and feed /openapi.json), what the
 * document says of it, and the use case it calls. `auth: 'facade'` needs the API key and
 * access token of one organization; `'login'` the login API key; `'none'` nothing.
 */
export interface Route<B = any, Q = any> {
  method: Method;
  path: string;
  /** Stable camelCase name of the operation: the OpenAPI operationId and the SDK's method name. */
  operationId: string;
  tag: string;
  summary: string;
  /** What an integrator needs to know beyond the summary (Markdown). */
  description: string;
  /** What each path parameter names. */
  params?: Record<string, string>;
  auth: 'facade' | 'login' | 'none';
  /** The path parameter that names the company (`/reminder-policies/:companyCode`): the company context, instead of body or query. */
  companyFromPath?: string;
  /** `data` is an array: one page with `meta` (`capped-page`: a count that stops at 10,000), or every item. */
  list?: 'page' | 'capped-page' | 'all';
  /**
   * `x-idempotent`: whether a request sent again after a lost answer has the effect, and gets the
   * answer, the first would have had (what the SDK may retry after a network error). Not so for
   * a natural key (a repeat is 409) or a state change a repeat refuses (422). Default: GET, PUT
   * and DELETE.
   */
  idempotent?: boolean;
  /** The Idempotency-Key header: it `replays` the first answer (debts) or the key `conflicts` (409, payment links). */
  idempotencyKey?: 'replays' | 'conflicts';
  /** Answers beyond the main success and the error envelope, or replacing them for a status. */
  answers?: Record<number, Answer>;
  body?: JsonSchema;
  /**
   * The body's schema when `handle` validates it itself (a state check comes first, or the body
   * takes one of several shapes): published in /openapi.json, not checked before `handle`.
   */
  handlerBody?: JsonSchema;
  query?: JsonSchema;
  /** Documented shape of `data` (of each item, for a list); with `bare`, of the whole body. */
  response?: JsonSchema;
  /** The answer's fields stand at the top level beside requestId, not under `data` (the platform login). */
  bare?: boolean;
  status?: number;
  errors?: number[];
  handle(input: RouteInput<B, Q>): Promise<Reply>;
}

export function route<B = any, Q = any>(definition: Route<B, Q>): Route<B, Q> {
  return definition;
}

/**
 * `rateLimit` runs on facade routes right after authentication (before validation). Every answer
 * of a route, errors included, carries `Cache-Control: no-store`: API answers hold credentials
 * (/auth), secrets shown once (API keys, webhook secrets, enrollment URLs), capability URLs
 * (paymentUrl) and personal data (contacts, debtors), which no browser, proxy or CDN may keep
 * (docs/security.md). The documents (/openapi.json, /docs) stay cacheable.
 */
export function mountRoutes(router: RouteTable, routes: Route[], app: Application, rateLimit?: RateLimitGate): void {
  for (const r of routes) {
    router[r.method](r.path, async (ctx: Context) => {
      ctx.set('Cache-Control', 'no-store');
      if (ctx.state.malformedBody && (r.body || r.handlerBody)) throw malformedJsonError();
      const rawQuery: Record<string, unknown> = { ...ctx.query };
      let body: unknown = ctx.state.body;
      const scope = r.auth === 'facade' ? await authenticate(ctx, app, body, rawQuery, r.companyFromPath && ctx.params[r.companyFromPath]) : (undefined as never);
      if (rateLimit && r.auth === 'facade') await rateLimit(ctx, scope);
      if (r.body) body = validateBody(r.body, body === undefined ? {} : body);
      const query = r.query ? validateQuery(r.query, rawQuery) : rawQuery;
      const reply = await r.handle({ body, query, params: ctx.params, scope, ctx });
      ctx.status = reply.status ?? r.status ?? 200;
      const requestId = ctx.state.requestId;
      let json: string;
      if (r.bare) json = JSON.stringify({ ...(reply.data as object), requestId });
      else if (reply.meta) json = holdsRawJson(reply.data) ? pageJson(reply.data, reply.meta, requestId) : JSON.stringify({ data: reply.data, meta: reply.meta, requestId });
      else json = JSON.stringify({ data: reply.data, ...reply.extra, requestId });
      answerJson(ctx, json);
    });
  }
}

/**
 * Resolves the caller's scope. `companyCode` is context, not data: it is taken from the body
 * (POST/PATCH/PUT) or the query string and removed before the body and query are validated.
 */
async function authenticate(ctx: Context, app: Application, body: unknown, query: Record<string, unknown>, fromPath?: string): Promise<TenantScope> {
  let companyCode: unknown = fromPath || undefined;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'companyCode' in body) {
    companyCode ??= (body as Record<string, unknown>).companyCode;
    delete (body as Record<string, unknown>).companyCode;
  }
  if ('companyCode' in query) {
    companyCode ??= query.companyCode;
    delete query.companyCode;
  }
  return app.commands.authenticateRequest.execute({
    apiKey: ctx.get('x-api-key') || undefined,
    accessToken: ctx.get('x-authorization-token') || undefined,
    companyCode,
    requestId: ctx.state.requestId,
  });
}
