import { Metrics, type ProcessKind } from '../../adapters/metrics/metrics';
import { webhookDeliveryMetrics } from '../../adapters/metrics/webhook-delivery-metrics';
import { unappliedPaymentMetrics } from '../../adapters/metrics/payment-instruction-metrics';
import type { Application } from '../../internal/application';
import { knexPoolState } from '../../adapters/persistence/knex/pool-state';
import { outboxBacklog } from '../../adapters/persistence/knex/knex-job-outbox';
import { outboxMetrics, queueAgeMetrics } from '../../adapters/metrics/backlog-metrics';
import { QUEUE_NAME } from '../../adapters/queue/bullmq/queue-names';
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
export function processMetrics(kind: ProcessKind, infra: Infrastructure, app: Application, options: { runsJobs: boolean }): Metrics {
  const metrics = new Metrics(kind);
  const { db, bullmqQueue, inProcessQueue } = infra;
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
  return metrics;
}
