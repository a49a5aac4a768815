import { Gauge } from 'prom-client';
import type { MetricsCollector } from './metrics';

/** One read serves every gauge of a scrape (and the scrapes of a second). */
const READ_REUSE_MS = 1000;

/** The transactional outbox's entries not yet handed to the queue (deferred ones excluded). */
export interface OutboxBacklog {
  pending: number;
  /** created_at of the oldest pending entry, epoch ms; null when none is pending. */
  oldestCreatedAtMs: number | null;
}

/**
 * `cf_outbox_pending` and `cf_outbox_oldest_age_seconds` (0 when nothing is pending): jobs a
 * change wrote to job_outbox and the dispatcher (every process, every 2 s) has not handed to the
 * queue yet. A growing age means the queue does not take them (Redis away) or no dispatcher runs.
 * Read from the database at scrape time, so every process reports the same (aggregate with max).
 */
export function outboxMetrics(read: () => Promise<OutboxBacklog>, now: () => number = Date.now): MetricsCollector {
  const backlog = reused(read, now);
  return (registry) => {
    new Gauge({
      name: 'cf_outbox_pending',
      help: 'Transactional outbox entries not yet handed to the queue (deferred ones excluded), read at scrape time',
      registers: [registry],
      async collect() {
        const b = await backlog().catch(() => null);
        if (b) this.set(b.pending);
        else this.reset();
      },
    });
    new Gauge({
      name: 'cf_outbox_oldest_age_seconds',
      help: 'Age of the oldest transactional outbox entry not yet handed to the queue (0 when none), read at scrape time',
      registers: [registry],
      async collect() {
        const b = await backlog().catch(() => null);
        if (b) this.set(b.oldestCreatedAtMs === null ? 0 : Math.max(0, (now() - b.oldestCreatedAtMs) / 1000));
        else this.reset();
      },
    });
  };
}

/**
 * `cf_queue_oldest_waiting_seconds{queue}`: how long the oldest job waiting to start (not delayed,
 * not running) has been due; 0 when none waits. Depth says how much, this says how late: a few
 * jobs waiting for minutes mean no worker takes them. `read` returns the due time (epoch ms) of
 * the oldest waiting job, or null; absent while Redis does not answer.
 */
export function queueAgeMetrics(queue: string, read: () => Promise<number | null>, now: () => number = Date.now): MetricsCollector {
  return (registry) => {
    new Gauge({
      name: 'cf_queue_oldest_waiting_seconds',
      help: 'Time since the oldest waiting job of the queue became due (0 when none waits), read at scrape time',
      labelNames: ['queue'],
      registers: [registry],
      async collect() {
        this.reset();
        try {
          const dueAt = await read();
          this.set({ queue }, dueAt === null ? 0 : Math.max(0, (now() - dueAt) / 1000));
        } catch {
          // Redis away: no sample rather than a stale one (as cf_queue_jobs).
        }
      },
    });
  };
}

function reused<T>(read: () => Promise<T>, now: () => number): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | null = null;
  return () => {
    if (!last || now() - last.at >= READ_REUSE_MS) last = { at: now(), value: read() };
    return last.value;
  };
}
