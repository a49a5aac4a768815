import { Metrics, type ProcessKind } from '../../adapters/metrics/metrics';
import { webhookDeliveryMetrics } from '../../adapters/metrics/webhook-delivery-metrics';
import { unappliedPaymentMetrics } from '../../adapters/metrics/payment-instruction-metrics';
import { reminderMetrics } from '../../adapters/metrics/reminder-metrics';
import type { Application } from '../../internal/application';
import { knexPoolState } from '../../adapters/persistence/knex/pool-state';
import { outboxBacklog } from '../../adapters/persistence/knex/knex-job-outbox';
import { outboxMetrics, queueAgeMetrics } from '../../adapters/metrics/backlog-metrics';
import { readRoutingMetrics } from '../../adapters/metrics/read-routing-metrics';
import type { ReplicaState } from '../../adapters/persistence/knex/read-routing';
import { QUEUE_NAME } from '../../adapters/queue/bullmq/queue-names';
import { QUEUE_CONSOLE_PATH, queueConsole } from '../../adapters/queue/bullmq/queue-console';
import type { Config } from './config';
import type { Infrastructure } from './infrastructure';

/**
 * The metrics of an api or worker process over its infrastructure: process metrics, the
 * database pool, the queue's depth (JobConsumer.counts) and age (BullMQ), and every job attempt
 * the consumer runs in this process (none until it is started). Processes that run
 * jobs (`runsJobs`: workers, the API without Redis or with RUN_WORKERS) deliver the webhooks and
 * report their outcomes.
 */
export function processMetrics(
  kind: ProcessKind,
  infra: Infrastructure,
  app: Application,
  options: { runsJobs: boolean; onReplicaChange?: (state: ReplicaState) => void },
): Metrics {
  const metrics = new Metrics(kind);
  const { db, jobs, replica } = infra;
  if (replica) {
    const routing = readRoutingMetrics({ state: () => replica.replicaState() });
    metrics.register(routing.collector);
    replica.observe({ read: routing.read, replicaChanged: (state) => options.onReplicaChange?.(state) });
  }
  if (db) metrics.watchPool('main', () => knexPoolState(db));
  metrics.watchQueue(QUEUE_NAME, () => jobs.consumer.counts());
  jobs.consumer.observe(metrics);
  const bullmq = jobs.bullmq;
  if (bullmq) metrics.register(queueAgeMetrics(QUEUE_NAME, () => bullmq.oldestWaitingDueAt()));
  // The outbox is written by the API and dispatched by every process: each reports it (max rule).
  if (db) metrics.register(outboxMetrics(() => outboxBacklog(db)));
  if (options.runsJobs) metrics.register(webhookDeliveryMetrics(() => app.queries.webhookDeliveryStats.execute()));
  if (options.runsJobs) metrics.register(unappliedPaymentMetrics(() => app.queries.unappliedPaymentTotals.execute()));
  if (options.runsJobs) metrics.register(reminderMetrics(() => app.queries.reminderCounts.execute()));
  return metrics;
}

/**
 * The queue console for the metrics listener (METRICS_PORT): bull-board over the BullMQ queue at
 * /queues, behind METRICS_TOKEN, read-only unless QUEUE_CONSOLE_WRITE=true. Only with REDIS_URL
 * (the in-process queue has nothing to show) and a token (job data names tenants' records: never
 * open); otherwise undefined, and `why` says what is missing.
 */
export function queueConsoleMount(
  config: Pick<Config, 'metricsToken' | 'metricsPort' | 'queueConsoleWrite'>,
  infra: Pick<Infrastructure, 'jobs'>,
): { mount?: { prefix: string; handler: ReturnType<typeof queueConsole> }; mode: 'read-only' | 'read-write' | null; why?: string } {
  if (config.metricsPort === null) return { mode: null };
  if (!infra.jobs.bullmq) return { mode: null };
  if (!config.metricsToken) return { mode: null, why: 'the queue console at /queues needs METRICS_TOKEN; not served' };
  const handler = queueConsole([infra.jobs.bullmq.queue], { token: config.metricsToken, writable: config.queueConsoleWrite });
  return { mount: { prefix: QUEUE_CONSOLE_PATH, handler }, mode: config.queueConsoleWrite ? 'read-write' : 'read-only' };
}
