import type { Context } from 'koa';
import { AuthenticationFailedError } from '../../internal/shared/errors';
import { bearerMatches } from '../metrics/bearer-token';
import type { Metrics } from '../metrics/metrics';

/**
 * GET /metrics in the Prometheus text format. No facade credentials (scrapers have none); when
 * METRICS_TOKEN is set, `Authorization: Bearer <token>` or 401 in the usual envelope.
 */
export function metricsEndpoint(metrics: Metrics, token: string | null) {
  return async (ctx: Context): Promise<void> => {
    if (token && !bearerMatches(ctx.get('authorization') || undefined, token)) {
      ctx.set('WWW-Authenticate', 'Bearer');
      throw new AuthenticationFailedError('GET /metrics wants Authorization: Bearer <METRICS_TOKEN>');
    }
    const { contentType, body } = await metrics.render();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = contentType;
    ctx.body = body;
  };
}
