import { startMetricsServer } from '../../adapters/metrics/metrics-server';
import { jobHandlers, OUTBOX_DISPATCH_EVERY_MS, SCHEDULES } from '../../adapters/queue/job-handlers';
import { buildApplication } from '../../internal/application';
import { loadConfig, publicBaseUrlOf } from '../shared/config';
import { openInfrastructure } from '../shared/infrastructure';
import { onShutdown } from '../shared/lifecycle';
import { processMetrics, queueConsoleMount } from '../shared/observability';
import { createLogger, jobLog } from '../shared/logger';
import { startWebhookDispatcher } from '../shared/webhook-dispatcher';

/** A worker process: BullMQ consumers and schedulers over the same core. Run as many as needed. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  if (!config.redisUrl) throw new Error('npm run worker needs REDIS_URL (without it, npm start runs the jobs in-process)');
  const infra = await openInfrastructure({ ...config, publicBaseUrl: publicBaseUrlOf(config), migrate: false });
  const app = buildApplication(infra.ports);
  const metrics = processMetrics('worker', infra, app, { runsJobs: true });
  const { consumer } = infra.jobs;
  consumer.observe(jobLog(logger));
  await consumer.start(jobHandlers(app), SCHEDULES);
  const dispatcher = setInterval(
    () => void app.jobs.dispatchOutbox.execute().catch((err) => logger.warn({ err }, 'outbox dispatch failed')),
    OUTBOX_DISPATCH_EVERY_MS,
  ).unref();
  const webhooks = startWebhookDispatcher(app, {
    everyMs: config.webhookDispatchEveryMs,
    onError: (err) => logger.warn({ err }, 'webhook dispatch failed'),
  });
  const queueConsole = queueConsoleMount(config, infra);
  if (queueConsole.why) logger.warn(queueConsole.why);
  const metricsServer = config.metricsPort === null ? null : await startMetricsServer(metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken, mount: queueConsole.mount });
  logger.info({ prefix: config.queuePrefix, concurrency: config.workerConcurrency, metricsPort: metricsServer?.port ?? null, queueConsole: queueConsole.mode }, 'worker ready');
  // Stop fetching jobs and wait for the active ones, then close the queues and pools.
  onShutdown(
    logger,
    [
      { name: 'outbox dispatcher', run: async () => clearInterval(dispatcher) },
      { name: 'webhook dispatcher', run: () => webhooks.stop() },
      // A status sweep working through a backlog ends after its chunk in flight; the next run takes the rest.
      {
        name: 'workers',
        run: () => {
          infra.ports.jobPace.stop();
          return consumer.close();
        },
      },
      { name: 'infrastructure', run: () => infra.close() },
      { name: 'metrics', run: async () => metricsServer?.close() },
    ],
    config.shutdownTimeoutMs,
  );
}

main().catch((error) => {
  process.stderr.write(`worker failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
