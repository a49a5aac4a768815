import { Metrics, type ProcessKind } from '../../adapters/metrics/metrics';
import { knexPoolState } from '../../adapters/persistence/knex/pool-state';
import { QUEUE_NAME } from '../../adapters/queue/bullmq/queue-names';
import type { Infrastructure } from './infrastructure';

/** BullMQ states reported as queue depth (completed ones are history, not depth). */
const QUEUE_STATES = ['waiting', 'active', 'delayed', 'prioritized', 'waiting-children', 'failed'] as const;

/**
 * The metrics of an api or worker process over its infrastructure: process metrics, the
 * database pool, the queue's depth, and the jobs the in-process queue runs. Job attempts on
 * BullMQ workers are reported by the worker pool (its `observer` option).
 */
export function processMetrics(kind: ProcessKind, infra: Infrastructure): Metrics {
  const metrics = new Metrics(kind);
  const { db, bullmqQueue, inProcessQueue } = infra;
  if (db) metrics.watchPool('main', () => knexPoolState(db));
  if (bullmqQueue) metrics.watchQueue(QUEUE_NAME, () => bullmqQueue.queue.getJobCounts(...QUEUE_STATES));
  if (inProcessQueue) {
    metrics.watchQueue(QUEUE_NAME, async () => inProcessQueue.counts());
    inProcessQueue.observe(metrics);
  }
  return metrics;
}
