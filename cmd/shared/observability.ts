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

/** BullMQ states reported as queue depth (completed ones are history, not depth). */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * The metrics of an api or worker process over its infrastructure: process metrics, the
 * database pool, the queue's depth, and the jobs the in-process queue runs. Job attempts on
 * BullMQ workers are reported by the worker pool (its `observer` option). Processes that run
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
  const { db, bullmqQueue, inProcessQueue, replica } = infra;
  if (replica) {
    const routing = readRoutingMetrics({ state: () => replica.replicaState() });
    metrics.register(routing.collector);
    replica.observe({ read: routing.read, replicaChanged: (state) => options.onReplicaChange?.(state) });
  }
  if (db) metrics.watchPool('main', () => knexPoolState(db));
  if (bullmqQueue) {
    metrics.watchQueue(QUEUE_NAME, () => bullmqQueue.queue.getJobCounts(...QUEUE_STATES));
    metrics.register(queueAgeMetrics(QUEUE_NAME, () => bullmqQueue.oldestWaitingDueAt()));
  }
  if (inProcessQueue) {
    metrics.watchQueue(QUEUE_NAME, async () => inProcessQueue.counts());
    inProcessQueue.observe(metrics);
  }
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
  infra: Pick<Infrastructure, 'bullmqQueue'>,
): { mount?: { prefix: string; handler: ReturnType<typeof queueConsole> }; mode: 'read-only' | 'read-write' | null; why?: string } {
  if (config.metricsPort === null) return { mode: null };
  if (!infra.bullmqQueue) return { mode: null };
  if (!config.metricsToken) return { mode: null, why: 'the queue console at /queues needs METRICS_TOKEN; not served' };
  const handler = queueConsole([infra.bullmqQueue.queue], { token: config.metricsToken, writable: config.queueConsoleWrite });
  return { mount: { prefix: QUEUE_CONSOLE_PATH, handler }, mode: config.queueConsoleWrite ? 'read-write' : 'read-only' };
}
