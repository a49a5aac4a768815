import type { Context, Next } from 'koa';
import type { Metrics } from '../../metrics/metrics';

/**
 * Outermost middleware: counts requests in flight, times every answer and counts it by method,
 * route pattern (as the router matched it, `unmatched` otherwise, so raw paths never become
 * label values) and status.
 */
export function httpMetrics(metrics: Metrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const started = process.hrtime.bigint();
    metrics.requestStarted();
    try {
      await next();
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const route = (ctx as Context & { _matchedRoute?: unknown })._matchedRoute;
      metrics.observeRequest(ctx.method, typeof route === 'string' ? route : 'unmatched', ctx.status, seconds);
    }
  };
}
