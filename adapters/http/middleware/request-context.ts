import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { IdGenerator } from '../../../ports/id-generator';
import { toErrorReply } from '../error-mapping';

/** `req_` + 24 base62 characters. */
export function newRequestId(ids: IdGenerator): string {
  return 'req_' + ids.alphanumeric(24);
}

/**
 * Path parameters the request log may name: resource ids and company codes. Everything else a
 * path can carry is left out, because it is a capability (a debt or subscription URL's
 * signature, a private link's short code, an enrollment token, a receipt code), or may be
 * personal data (a public link's identifier is the debtor's externalClientId), or is anything at
 * all (a wildcard's rest).
 */
const LOGGED_PARAMS = new Set(['id', 'companyCode', 'debtId', 'subscriptionId', 'linkId', 'paymentMethodId', 'name']);
const MAX_LOGGED_PARAM = 80;

/**
 * The route pattern (`/l/:shortCode`, never the raw path: paths carry capability URLs) and the
 * non-secret ids of a request; `unmatched` when no route took it.
 */
export function loggedRoute(ctx: Context): { route: string; params?: Record<string, string> } {
  const route = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
  if (typeof route !== 'string') return { route: 'unmatched' };
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries((ctx.params ?? {}) as Record<string, unknown>)) {
    if (LOGGED_PARAMS.has(name) && typeof value === 'string') params[name] = value.slice(0, MAX_LOGGED_PARAM);
  }
  return Object.keys(params).length ? { route, params } : { route };
}

/**
 * Outermost middleware: gives each request its `req_…` id (body, X-Request-Id header and logs)
 * and turns every error into the envelope. Unknown errors become 500 INTERNAL_ERROR with nothing
 * of the cause in the answer; the cause goes to the log under the same requestId. The request
 * line logs the route pattern and non-secret ids, never the path or query (loggedRoute).
 */
export function requestContext(ids: IdGenerator, logger: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const requestId = newRequestId(ids);
    const started = process.hrtime.bigint();
    ctx.state.requestId = requestId;
    ctx.set('X-Request-Id', requestId);
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) {
        ctx.set('Cache-Control', 'no-store');
        ctx.status = 404;
        ctx.body = { error: { code: 'RESOURCE_NOT_FOUND', message: `No route for ${ctx.method} ${ctx.path}` }, requestId };
      }
    } catch (error) {
      const reply = toErrorReply(error);
      if (reply.internal) logger.error({ err: error, requestId }, 'unhandled error');
      // An error answer is never for a cache to keep (also those before any route: 413, 404).
      ctx.set('Cache-Control', 'no-store');
      ctx.status = reply.status;
      for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
      ctx.body = { error: reply.body, requestId };
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ requestId, method: ctx.method, ...loggedRoute(ctx), status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
  };
}
