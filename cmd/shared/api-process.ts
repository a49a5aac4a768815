import type { Server } from 'node:http';
import type Koa from 'koa';
import type { Logger } from 'pino';
import { answerParserErrorsInEnvelope } from '../../adapters/http/parser-errors';
import { createHttpServer } from '../../adapters/http/server';
import type { AuthLimits } from '../../adapters/http/middleware/login-throttle';
import type { Metrics } from '../../adapters/metrics/metrics';
import { jobHandlers, OUTBOX_DISPATCH_EVERY_MS, SCHEDULES } from '../../adapters/queue/job-handlers';
import { type Application, buildApplication } from '../../internal/application';
import type { JobQueue } from '../../ports/job-queue';
import type { RateLimiter, RateLimitPolicy } from '../../ports/rate-limiter';
import { type Config, metricsOnApiPort, publicBaseUrlOf } from './config';
import { type Infrastructure, type InfrastructureOptions, openInfrastructure } from './infrastructure';
import { ReadinessDrain, type ShutdownStep } from './lifecycle';
import { processMetrics } from './observability';
import { startWebhookDispatcher } from './webhook-dispatcher';

/** What the API process is made of: the infrastructure's options and the API's own settings. */
export type ApiProcessConfig = Omit<InfrastructureOptions, 'migrate'> &
  Pick<Config, 'migrateOnStart' | 'runWorkers' | 'webhookDispatchEveryMs' | 'rateLimitCapacity' | 'rateLimitRefillPerSecond' | 'metricsToken' | 'trustProxyHops'>;

/** The loaded config as the API process takes it (PUBLIC_BASE_URL resolved, the replica's settings grouped). */
export function apiProcessConfig(config: Config): ApiProcessConfig {
  return {
    ...config,
    publicBaseUrl: publicBaseUrlOf(config),
    readReplica: config.databaseReadUrl ? { url: config.databaseReadUrl, maxLagSeconds: config.replicaMaxLagSeconds, readYourWritesMs: config.readYourWritesMs } : null,
  };
}

/**
 * How a process runs the API beyond its config: `npm start` takes the defaults; the test harness
 * sets what a test needs (its logger, a queue it can make unreachable, its limits, the OpenAPI
 * conformance check) over the same composition.
 */
export interface ApiProcessOptions {
  logger: Logger;
  /** Creates the demo tenant on an empty database (`npm start` outside production); it comes back as `demo`. */
  demoTenant?: boolean;
  /**
   * The outbox dispatch timer and, with the jobs in this process, the sweeps' schedules (default
   * on). The test harness turns them off: its tests run those jobs when they mean to.
   */
  periodicJobs?: boolean;
  /** The webhook dispatcher, when this process runs the jobs (default on). */
  webhookDispatcher?: boolean;
  /** Wraps the producer the application enqueues on (tests: a queue that can be made unreachable). */
  wrapQueue?: (queue: JobQueue) => JobQueue;
  /** The token buckets of API keys, /auth and (unless `pages` names another) the hosted pages; default `infra.rateLimiter`. */
  rateLimiter?: RateLimiter;
  /** The hosted pages' per-address limiter (default: the API keys' one) and limits (default: the production ones). */
  pages?: { rateLimiter?: RateLimiter; lookupLimit?: RateLimitPolicy; identifierLookupLimit?: RateLimitPolicy };
  /** /auth's buckets and hashing bound (default: the server's DEFAULT_AUTH_LIMITS). */
  authLimits?: Partial<AuthLimits>;
  /** Middleware in front of every other (tests: the OpenAPI conformance check). */
  outerMiddleware?: Koa.Middleware[];
}

export interface ApiProcess {
  infra: Infrastructure;
  app: Application;
  koa: Koa;
  metrics: Metrics;
  /** Whether jobs run in this process: without Redis (in-process queue), or with RUN_WORKERS. */
  runsJobs: boolean;
  /** The demo tenant created on an empty database (with `demoTenant`), else null. */
  demo: Awaited<ReturnType<Application['commands']['bootstrapDemoTenant']['execute']>> | null;
  /** Makes `server` serve this API (its request handler, and malformed requests answered in the error envelope). */
  serve(server: Server): void;
  /** Its step goes first at shutdown: /health/ready answers 503 while the balancer takes the process out. */
  readiness: ReadinessDrain;
  /** Once HTTP has stopped: timers, webhook dispatcher, workers, infrastructure (each named in the shutdown logs). */
  shutdownSteps: ShutdownStep[];
  /** Runs `shutdownSteps` in order (tests, once their server has closed). */
  close(): Promise<void>;
}

/**
 * The API process, composed once for `cmd/api/main.ts` and the test harness: the infrastructure,
 * the application on its producer, the jobs (the consumer started when they run here: without
 * Redis, or with RUN_WORKERS), metrics, the outbox and webhook dispatchers, and the HTTP server
 * (readiness, hosted pages, rate limits, /metrics). Listening and signals are the caller's.
 */
export async function startApiProcess(config: ApiProcessConfig, options: ApiProcessOptions): Promise<ApiProcess> {
  const { logger } = options;
  const periodic = options.periodicJobs ?? true;
  const infra = await openInfrastructure({ ...config, migrate: config.migrateOnStart });
  const queue = options.wrapQueue ? options.wrapQueue(infra.ports.queue) : infra.ports.queue;
  const app = buildApplication({ ...infra.ports, queue });
  // Jobs run here without Redis (in-process queue) or with RUN_WORKERS (BullMQ workers in this process).
  const runsJobs = infra.jobs.inProcess !== null || !!(config.redisUrl && config.runWorkers);
  const metrics = processMetrics('api', infra, app, {
    runsJobs,
    onReplicaChange: (state) =>
      state.usable
        ? logger.info({ lagSeconds: state.lagSeconds }, 'read replica in use: stale-tolerant reads go to DATABASE_READ_URL')
        : logger.warn({ lagSeconds: state.lagSeconds, reason: state.reason }, 'read replica skipped: every read goes to the primary'),
  });

  const timers: NodeJS.Timeout[] = periodic
    ? [setInterval(() => void app.jobs.dispatchOutbox.execute().catch((err) => logger.warn({ err }, 'outbox dispatch failed')), OUTBOX_DISPATCH_EVERY_MS).unref()]
    : [];
  if (runsJobs) await infra.jobs.consumer.start(jobHandlers(app), periodic ? SCHEDULES : []);
  // Webhooks go out from the processes that run jobs: this one only without Redis or with RUN_WORKERS.
  const webhooks =
    runsJobs && (options.webhookDispatcher ?? true)
      ? startWebhookDispatcher(app, { everyMs: config.webhookDispatchEveryMs, onError: (err) => logger.warn({ err }, 'webhook dispatch failed') })
      : null;

  // The demo tenant is a sandbox convenience: only on an empty database outside production.
  const demo = options.demoTenant && config.appEnv !== 'production' ? await app.commands.bootstrapDemoTenant.execute() : null;

  const readiness = new ReadinessDrain();
  const rateLimiter = options.rateLimiter ?? infra.rateLimiter;
  const sandbox = config.appEnv !== 'production';
  const koa = createHttpServer({
    app,
    ids: infra.ports.ids,
    logger,
    publicBaseUrl: config.publicBaseUrl,
    paymentPortal: infra.paymentPortal,
    testHelpers: sandbox,
    readinessChecks: infra.readinessChecks,
    readRouter: infra.replica ?? undefined,
    shuttingDown: readiness.shuttingDown,
    pages: {
      portal: infra.paymentPortal,
      signer: infra.pageSigner,
      // The same token buckets as the API keys' (Redis with REDIS_URL: shared by every API process).
      rateLimiter: options.pages?.rateLimiter ?? rateLimiter,
      lookupLimit: options.pages?.lookupLimit,
      identifierLookupLimit: options.pages?.identifierLookupLimit,
      sandbox,
    },
    rateLimit: {
      limiter: rateLimiter,
      defaults: config.rateLimitCapacity > 0 ? { capacity: config.rateLimitCapacity, refillPerSecond: config.rateLimitRefillPerSecond } : null,
    },
    metrics: { registry: metrics, token: config.metricsToken, onApiPort: metricsOnApiPort(config) },
    trustProxyHops: config.trustProxyHops,
    authLimits: options.authLimits,
  });
  if (options.outerMiddleware) koa.middleware.unshift(...options.outerMiddleware);

  const shutdownSteps: ShutdownStep[] = [
    {
      name: 'timers',
      run: async () => {
        timers.forEach(clearInterval);
        // The outbox entries handed over after the last commits, whose marks were still waiting
        // (DispatchOutbox); left unmarked, another process would only hand them over again.
        await app.jobs.dispatchOutbox.markHanded().catch((err) => logger.warn({ err }, 'outbox marks failed at shutdown'));
      },
    },
    { name: 'webhook dispatcher', run: async () => webhooks?.stop() },
    // A status sweep working through a backlog ends after its chunk in flight; the next run takes the rest.
    {
      name: 'workers',
      run: () => {
        infra.ports.jobPace.stop();
        return infra.jobs.consumer.close();
      },
    },
    { name: 'infrastructure', run: () => infra.close() },
  ];
  return {
    infra,
    app,
    koa,
    metrics,
    runsJobs,
    demo,
    serve(server) {
      server.on('request', koa.callback());
      answerParserErrorsInEnvelope(server, infra.ports.ids);
    },
    readiness,
    shutdownSteps,
    async close() {
      for (const step of shutdownSteps) await step.run();
    },
  };
}
