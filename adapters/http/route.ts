import type Router from '@koa/router';
import type { Context } from 'koa';
import type { TenantScope } from '../../internal/shared/tenant-scope';
import type { Application } from '../../internal/application';
import type { RateLimitGate } from './middleware/rate-limit';
import { malformedJsonError } from './middleware/json-body';
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
  /** The platform login answers its fields at the top level instead of under `data`. */
  flat?: boolean;
  /** Top-level members beside `data` (a batch answer's `batchId` and `errors`). */
  extra?: Record<string, unknown>;
}

/**
 * One endpoint: its schemas (which validate the request and feed /openapi.json) and the use
 * case it calls. `auth: 'facade'` needs the API key and access token of one organization.
 */
export interface Route<B = any, Q = any> {
  method: Method;
  path: string;
  /** Stable camelCase name of the operation: the OpenAPI operationId and the SDK's method name. */
  operationId: string;
  tag: string;
  summary: string;
  auth: 'facade' | 'none';
  body?: JsonSchema;
  /**
   * The body's schema when `handle` validates it itself (a state check comes first, or the body
   * takes one of several shapes): published in /openapi.json, not checked before `handle`.
   */
  handlerBody?: JsonSchema;
  query?: JsonSchema;
  /** Documented shape of `data`. */
  response?: JsonSchema;
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
export function mountRoutes(router: Router, routes: Route[], app: Application, rateLimit?: RateLimitGate): void {
  for (const r of routes) {
    router[r.method](r.path, async (ctx: Context) => {
      ctx.set('Cache-Control', 'no-store');
      if (ctx.state.malformedBody && (r.body || r.handlerBody)) throw malformedJsonError();
      const rawQuery: Record<string, unknown> = { ...ctx.query };
      let body: unknown = ctx.state.body;
      const scope = r.auth === 'facade' ? await authenticate(ctx, app, body, rawQuery) : (undefined as never);
      if (rateLimit && r.auth === 'facade') await rateLimit(ctx, scope);
      if (r.body) body = validateBody(r.body, body === undefined ? {} : body);
      const query = r.query ? validateQuery(r.query, rawQuery) : rawQuery;
      const reply = await r.handle({ body, query, params: ctx.params, scope, ctx });
      ctx.status = reply.status ?? r.status ?? 200;
      const requestId = ctx.state.requestId;
      if (reply.flat) ctx.body = { ...(reply.data as object), requestId };
      else if (reply.meta) ctx.body = { data: reply.data, meta: reply.meta, requestId };
      else ctx.body = { data: reply.data, ...reply.extra, requestId };
    });
  }
}

/**
 * Resolves the caller's scope. `companyCode` is context, not data: it is taken from the body
 * (POST/PATCH/PUT) or the query string and removed before the body and query are validated.
 */
async function authenticate(ctx: Context, app: Application, body: unknown, query: Record<string, unknown>): Promise<TenantScope> {
  let companyCode: unknown;
  if (body !== null && typeof body === 'object' && !Array.isArray(body) && 'companyCode' in body) {
    companyCode = (body as Record<string, unknown>).companyCode;
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
