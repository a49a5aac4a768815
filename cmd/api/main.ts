import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { answerParserErrorsInEnvelope } from '../../adapters/http/parser-errors';
import { createHttpServer } from '../../adapters/http/server';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import { BullmqWorkerPool } from '../../adapters/queue/bullmq/bullmq-worker-pool';
import { jobHandlers, OUTBOX_DISPATCH_EVERY_MS, SCHEDULES } from '../../adapters/queue/job-handlers';
import { buildApplication } from '../../internal/application';
import { loadConfig, publicBaseUrlOf } from '../shared/config';
import { demoBanner } from '../shared/demo-banner';
import { bindInProcessJobs, openInfrastructure } from '../shared/infrastructure';
import { onShutdown } from '../shared/lifecycle';
import { createLogger } from '../shared/logger';
import { startWebhookDispatcher } from '../shared/webhook-dispatcher';

/**
 * The API process. Without REDIS_URL the jobs run in this process too (the embedded default);
 * with it, `npm run worker` processes run them (or this one, with RUN_WORKERS=true).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'api');
  const infra = await openInfrastructure({ ...config, publicBaseUrl: publicBaseUrlOf(config), migrate: config.migrateOnStart });
  const app = buildApplication(infra.ports);
  const handlers = jobHandlers(app);
  bindInProcessJobs(infra, handlers);

  const timers: NodeJS.Timeout[] = [
    setInterval(() => void app.jobs.dispatchOutbox.execute().catch((err) => logger.warn({ err }, 'outbox dispatch failed')), OUTBOX_DISPATCH_EVERY_MS).unref(),
  ];
  if (infra.inProcessQueue) {
    for (const s of SCHEDULES) timers.push(setInterval(() => void infra.ports.queue.enqueue({ name: s.name, data: {} }), s.everyMs).unref());
  }
  const workers =
    config.redisUrl && config.runWorkers
      ? new BullmqWorkerPool(handlers, { redisUrl: config.redisUrl, prefix: config.queuePrefix, concurrency: config.workerConcurrency, schedules: SCHEDULES })
      : null;
  await workers?.start();
  // Webhooks go out from the processes that run jobs: this one only without Redis or with RUN_WORKERS.
  const webhooks =
    infra.inProcessQueue || workers
      ? startWebhookDispatcher(app, { everyMs: config.webhookDispatchEveryMs, onError: (err) => logger.warn({ err }, 'webhook dispatch failed') })
      : null;

  // The demo tenant is a sandbox convenience: only on an empty database outside production.
  const demo = config.appEnv === 'production' ? null : await app.commands.bootstrapDemoTenant.execute();

  const koa = createHttpServer({
    app,
    ids: infra.ports.ids,
    logger,
    publicBaseUrl: publicBaseUrlOf(config),
    paymentPortal: infra.paymentPortal,
    testHelpers: config.appEnv !== 'production',
    readinessChecks: infra.readinessChecks,
    pages: {
      portal: infra.paymentPortal,
      signer: infra.pageSigner,
      // Per process; a Redis-backed RateLimiter shares one bucket between API processes.
      rateLimiter: new InProcessTokenBucket(),
      sandbox: config.appEnv !== 'production',
    },
  });
  const server = koa.listen(config.port, config.host);
  answerParserErrorsInEnvelope(server, infra.ports.ids);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const baseUrl = config.publicBaseUrl ?? `http://localhost:${port}`;
  if (demo) process.stdout.write(demoBanner(demo, baseUrl) + '\n');
  else if (config.appEnv !== 'production') {
    process.stdout.write(`\n  Database already has tenants. More credentials: npm run admin -- create-client --organization <name> --username <u> --password <p>\n  API reference: ${baseUrl}/docs\n\n`);
  }
  logger.info({ port, appEnv: config.appEnv, database: config.databaseUrl.split(':')[0], queue: config.redisUrl ? 'bullmq' : 'in-process' }, `listening on ${baseUrl}`);

  onShutdown(logger, [
    () => new Promise<void>((resolve) => server.close(() => resolve())),
    async () => timers.forEach(clearInterval),
    async () => webhooks?.stop(),
    async () => workers?.close(),
    () => infra.close(),
  ]);
}

main().catch((error) => {
  process.stderr.write(`api failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
