import { route } from '../route';
import { requestIdSchema } from '../schemas/common.schemas';
import { named } from '../schemas/named';

const liveSchema = named('Liveness', { type: 'object', required: ['status'], properties: { status: { type: 'string', enum: ['ok'] } }, examples: [{ status: 'ok' }] });

const readinessSchema = named('Readiness', {
  type: 'object',
  required: ['status', 'checks'],
  properties: {
    status: { type: 'string', enum: ['ok', 'unavailable'] },
    checks: {
      type: 'array',
      items: {
        type: 'object',
        required: ['name', 'status'],
        properties: {
          name: { type: 'string', description: 'database, redis, or shutdown (the process received SIGTERM and is draining)' },
          status: { type: 'string', enum: ['ok', 'unavailable'] },
          issue: { type: 'string', description: 'Why it is unavailable' },
        },
      },
    },
  },
  examples: [{ status: 'ok', checks: [{ name: 'database', status: 'ok' }] }],
});
const readinessAnswer = { type: 'object', required: ['data', 'requestId'], properties: { data: readinessSchema, requestId: requestIdSchema } };

export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}

/**
 * Liveness and readiness probes for orchestrators and load balancers. `shuttingDown` true (the
 * process received SIGTERM): readiness answers 503 at once, without asking the dependencies, so
 * the load balancer takes the process out while it still serves (docs/operations.md).
 */
export function healthRoutes(checks: ReadinessCheck[], shuttingDown: () => boolean = () => false) {
  return [
    route({
      method: 'get', path: '/health/live', operationId: 'getLiveness', tag: 'Operations', summary: 'The process is up',
      description: 'Always 200 while the process serves requests.',
      auth: 'none', response: liveSchema, handle: async () => ({ data: { status: 'ok' } }),
    }),
    route({
      method: 'get', path: '/health/ready', operationId: 'getReadiness', tag: 'Operations', summary: 'The database (and Redis, when configured) answer',
      description: '200 when the database (and Redis, when configured) answer within 2 s; else 503 with Retry-After and each check. A process that received SIGTERM answers 503 at once (check `shutdown`) while it drains.',
      auth: 'none', response: readinessSchema,
      answers: {
        503: {
          description: 'Not ready: a dependency did not answer within 2 s',
          body: readinessAnswer,
          headers: ['RetryAfter'],
          examples: {
            unavailable: {
              summary: 'The database is away',
              value: { data: { status: 'unavailable', checks: [{ name: 'database', status: 'unavailable', issue: 'no answer within 2000 ms' }] }, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d' },
            },
          },
        },
      },
      handle: async ({ ctx }) => {
        if (shuttingDown()) {
          ctx.set('Retry-After', '5');
          return { status: 503, data: { status: 'unavailable', checks: [{ name: 'shutdown', status: 'unavailable', issue: 'the process is shutting down' }] } };
        }
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
