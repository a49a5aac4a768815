import type { Context, Next } from 'koa';
import type { Logger } from 'pino';
import type { IdGenerator } from '../../../ports/id-generator';
import { toErrorReply } from '../error-mapping';

/** `req_` + 24 base62 characters. */
export function newRequestId(ids: IdGenerator): string {
  return 'req_' + ids.alphanumeric(24);
}

/**
 * Outermost middleware: gives each request its `req_…` id (body, X-Request-Id header and logs)
 * and turns every error into the envelope. Unknown errors become 500 INTERNAL_ERROR with nothing
 * of the cause in the answer; the cause goes to the log under the same requestId.
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
        ctx.status = 404;
        ctx.body = { error: { code: 'RESOURCE_NOT_FOUND', message: `No route for ${ctx.method} ${ctx.path}` }, requestId };
      }
    } catch (error) {
      const reply = toErrorReply(error);
      if (reply.internal) logger.error({ err: error, requestId }, 'unhandled error');
      ctx.status = reply.status;
      for (const [name, value] of Object.entries(reply.headers ?? {})) ctx.set(name, value);
      ctx.body = { error: reply.body, requestId };
    }
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    logger.info({ requestId, method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 100) / 100 }, 'request');
  };
}
