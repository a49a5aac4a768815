import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { answerParserErrorsInEnvelope } from '../../adapters/http/parser-errors';
import { createHttpServer } from '../../adapters/http/server';
import { startMetricsServer } from '../../adapters/metrics/metrics-server';
import { BullmqWorkerPool } from '../../adapters/queue/bullmq/bullmq-worker-pool';
import { jobHandlers, OUTBOX_DISPATCH_EVERY_MS, SCHEDULES, sweepJob } from '../../adapters/queue/job-handlers';
import { buildApplication } from '../../internal/application';
import { loadConfig, metricsOnApiPort, publicBaseUrlOf } from '../shared/config';
import { demoBanner } from '../shared/demo-banner';
import { bindInProcessJobs, openInfrastructure } from '../shared/infrastructure';
import { drainOnClose, onShutdown, ReadinessDrain } from '../shared/lifecycle';
import { processMetrics, queueConsoleMount } from '../shared/observability';
import { createLogger } from '../shared/logger';
import { startWebhookDispatcher } from '../shared/webhook-dispatcher';

/**
 * The API process. Without REDIS_URL the jobs run in this process too (the embedded default);
 * with it, `npm run worker` processes run them (or this one, with RUN_WORKERS=true).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'api');
  const infra = await openInfrastructure({
    ...config,
    publicBaseUrl: publicBaseUrlOf(config),
    migrate: config.migrateOnStart,
    readReplica: config.databaseReadUrl ? { url: config.databaseReadUrl, maxLagSeconds: config.replicaMaxLagSeconds, readYourWritesMs: config.readYourWritesMs } : null,
  });
  const app = buildApplication(infra.ports);
  const handlers = jobHandlers(app);
  bindInProcessJobs(infra, handlers);
  // Jobs run here without Redis (in-process queue) or with RUN_WORKERS (BullMQ workers in this process).
  const runsJobs = !!infra.inProcessQueue || !!(config.redisUrl && config.runWorkers);
  const metrics = processMetrics('api', infra, app, {
    runsJobs,
    onReplicaChange: (state) =>
      state.usable
        ? logger.info({ lagSeconds: state.lagSeconds }, 'read replica in use: stale-tolerant reads go to DATABASE_READ_URL')
        : logger.warn({ lagSeconds: state.lagSeconds, reason: state.reason }, 'read replica skipped: every read goes to the primary'),
  });

  const timers: NodeJS.Timeout[] = [
    setInterval(() => void app.jobs.dispatchOutbox.execute().catch((err) => logger.warn({ err }, 'outbox dispatch failed')), OUTBOX_DISPATCH_EVERY_MS).unref(),
  ];
  if (infra.inProcessQueue) {
    for (const s of SCHEDULES) timers.push(setInterval(() => void infra.ports.queue.enqueue(sweepJob(s.name)), s.everyMs).unref());
  }
  const workers =
    config.redisUrl && config.runWorkers
      ? new BullmqWorkerPool(handlers, { redisUrl: config.redisUrl, prefix: config.queuePrefix, concurrency: config.workerConcurrency, schedules: SCHEDULES, observer: metrics })
      : null;
  await workers?.start();
  // Webhooks go out from the processes that run jobs: this one only without Redis or with RUN_WORKERS.
  const webhooks = runsJobs
    ? startWebhookDispatcher(app, { everyMs: config.webhookDispatchEveryMs, onError: (err) => logger.warn({ err }, 'webhook dispatch failed') })
    : null;

  // The demo tenant is a sandbox convenience: only on an empty database outside production.
  const demo = config.appEnv === 'production' ? null : await app.commands.bootstrapDemoTenant.execute();

  const readiness = new ReadinessDrain();
  const koa = createHttpServer({
    app,
    ids: infra.ports.ids,
    logger,
    publicBaseUrl: publicBaseUrlOf(config),
    paymentPortal: infra.paymentPortal,
    testHelpers: config.appEnv !== 'production',
    readinessChecks: infra.readinessChecks,
    readRouter: infra.replica ?? undefined,
    shuttingDown: readiness.shuttingDown,
    pages: {
      portal: infra.paymentPortal,
      signer: infra.pageSigner,
      // The same token buckets as the API keys' (Redis with REDIS_URL: shared by every API process).
      rateLimiter: infra.rateLimiter,
      sandbox: config.appEnv !== 'production',
    },
    rateLimit: {
      limiter: infra.rateLimiter,
      defaults: config.rateLimitCapacity > 0 ? { capacity: config.rateLimitCapacity, refillPerSecond: config.rateLimitRefillPerSecond } : null,
    },
    metrics: { registry: metrics, token: config.metricsToken, onApiPort: metricsOnApiPort(config) },
    trustProxyHops: config.trustProxyHops,
  });
  const server = koa.listen(config.port, config.host);
  answerParserErrorsInEnvelope(server, infra.ports.ids);
  const drainHttp = drainOnClose(server);
  await once(server, 'listening');
  const queueConsole = queueConsoleMount(config, infra);
  if (queueConsole.why) logger.warn(queueConsole.why);
  const metricsServer = config.metricsPort === null ? null : await startMetricsServer(metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken, mount: queueConsole.mount });
  const { port } = server.address() as AddressInfo;
  const baseUrl = config.publicBaseUrl ?? `http://localhost:${port}`;
  if (demo) process.stdout.write(demoBanner(demo, baseUrl) + '\n');
  else if (config.appEnv !== 'production') {
    process.stdout.write(`\n  Database already has tenants. More credentials: npm run admin -- create-client --organization <name> --username <u> --password <p>\n  API reference: ${baseUrl}/docs\n\n`);
  }
  if (!metricsOnApiPort(config) && !metricsServer) {
    logger.warn('GET /metrics is not served: in production it needs METRICS_TOKEN on the API port, or METRICS_PORT (docs/security.md)');
  }
  logger.info(
    { port, metricsPort: metricsServer?.port ?? null, queueConsole: queueConsole.mode, metricsOnApiPort: metricsOnApiPort(config), trustProxyHops: config.trustProxyHops, shutdownDelayMs: config.shutdownDelayMs, appEnv: config.appEnv, database: config.databaseUrl.split(':')[0], readReplica: config.databaseReadUrl ? infra.replica!.replicaState().usable : null, queue: config.redisUrl ? 'bullmq' : 'in-process' },
    `listening on ${baseUrl}`,
  );

  // Answer not-ready and keep serving for SHUTDOWN_DELAY_MS (the load balancer takes this process
  // out), then stop taking requests and let the in-flight ones finish, then the jobs (BullMQ workers, and
  // the in-process queue inside infra.close), then the queues, Redis and database pools.
  onShutdown(
    logger,
    [
      readiness.step(server, config.shutdownDelayMs),
      { name: 'http', run: drainHttp },
      { name: 'timers', run: async () => timers.forEach(clearInterval) },
      { name: 'webhook dispatcher', run: async () => webhooks?.stop() },
      { name: 'workers', run: async () => workers?.close() },
      { name: 'infrastructure', run: () => infra.close() },
      { name: 'metrics', run: async () => metricsServer?.close() },
    ],
    config.shutdownTimeoutMs,
  );
}

main().catch((error) => {
  process.stderr.write(`api failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
