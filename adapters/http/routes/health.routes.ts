import { route } from '../route';

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/** Liveness and readiness probes for orchestrators and load balancers. */
export function healthRoutes(checks: ReadinessCheck[]) {
  return [
    route({
      method: 'get', path: '/health/live', operationId: 'getLiveness', tag: 'Operations', summary: 'The process is up',
      auth: 'none', handle: async () => ({ data: { status: 'ok' } }),
    }),
    route({
      method: 'get', path: '/health/ready', operationId: 'getReadiness', tag: 'Operations', summary: 'The database (and Redis, when configured) answer',
      auth: 'none', errors: [503],
      handle: async ({ ctx }) => {
        const results = await Promise.all(
          checks.map(async (c) => {
            try {
              await withTimeout(c.check(), 2000);
              return { name: c.name, status: 'ok' };
            } catch (error) {
              return { name: c.name, status: 'unavailable', issue: (error as Error).message };
            }
          }),
        );
        const ready = results.every((r) => r.status === 'ok');
        if (!ready) ctx.set('Retry-After', '5');
        return { status: ready ? 200 : 503, data: { status: ready ? 'ok' : 'unavailable', checks: results } };
      },
    }),
  ];
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<T>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    }),
  ]);
}
