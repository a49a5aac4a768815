import { BullmqWorkerPool } from '../../adapters/queue/bullmq/bullmq-worker-pool';
import { jobHandlers, OUTBOX_DISPATCH_EVERY_MS, SCHEDULES } from '../../adapters/queue/job-handlers';
import { buildApplication } from '../../internal/application';
import { loadConfig, publicBaseUrlOf } from '../shared/config';
import { openInfrastructure } from '../shared/infrastructure';
import { onShutdown } from '../shared/lifecycle';
import { createLogger } from '../shared/logger';
import { startWebhookDispatcher } from '../shared/webhook-dispatcher';

/** A worker process: BullMQ consumers and schedulers over the same core. Run as many as needed. */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'worker');
  if (!config.redisUrl) throw new Error('npm run worker needs REDIS_URL (without it, npm start runs the jobs in-process)');
  const infra = await openInfrastructure({ ...config, publicBaseUrl: publicBaseUrlOf(config), migrate: false });
  const app = buildApplication(infra.ports);
  const pool = new BullmqWorkerPool(jobHandlers(app), {
    redisUrl: config.redisUrl,
    prefix: config.queuePrefix,
    concurrency: config.workerConcurrency,
    schedules: SCHEDULES,
    onCompleted: (job, result) => logger.info({ jobId: job.id, name: job.name, result }, 'job completed'),
    onFailed: (job, error) => logger.warn({ jobId: job?.id, name: job?.name, attempts: job?.attemptsMade, err: error }, 'job failed'),
  });
  await pool.start();
  const dispatcher = setInterval(
    () => void app.jobs.dispatchOutbox.execute().catch((err) => logger.warn({ err }, 'outbox dispatch failed')),
    OUTBOX_DISPATCH_EVERY_MS,
  ).unref();
  const webhooks = startWebhookDispatcher(app, {
    everyMs: config.webhookDispatchEveryMs,
    onError: (err) => logger.warn({ err }, 'webhook dispatch failed'),
  });
  logger.info({ prefix: config.queuePrefix, concurrency: config.workerConcurrency }, 'worker ready');
  onShutdown(logger, [async () => clearInterval(dispatcher), () => webhooks.stop(), () => pool.close(), () => infra.close()]);
}

main().catch((error) => {
  process.stderr.write(`worker failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
