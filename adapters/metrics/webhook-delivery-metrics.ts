import { Gauge } from 'prom-client';
import type { DeliveryStats } from '../../ports/webhook-delivery-repository';
import type { MetricsCollector } from './metrics';

/** One read of the delivery counts serves every gauge of a scrape. */
const READ_REUSE_MS = 1000;

/**
 * Webhook delivery outcomes, read from the database when Prometheus scrapes (so every process
 * reporting them agrees): `cf_webhook_deliveries{status}` (PENDING is the backlog; SUCCEEDED,
 * FAILED, CANCELLED are final) and `cf_webhook_delivery_attempts{outcome}` (succeeded, failed:
 * their change over a window gives the attempts and the success rate of that window).
 */
export function webhookDeliveryMetrics(read: () => Promise<DeliveryStats>, now: () => number = Date.now): MetricsCollector {
  let last: { at: number; stats: Promise<DeliveryStats> } | null = null;
  const stats = () => {
    if (!last || now() - last.at >= READ_REUSE_MS) last = { at: now(), stats: read() };
    return last.stats;
  };
  return (registry) => {
    /** A gauge of one count table of the stats, one series per key, reset at every scrape. */
    const gauge = (name: string, help: string, label: string, counts: (s: DeliveryStats) => Record<string, number>) =>
      new Gauge({
        name,
        help,
        labelNames: [label],
        registers: [registry],
        async collect() {
          this.reset();
          const read = await stats().then(counts, () => null);
          for (const [value, n] of Object.entries(read ?? {})) this.set({ [label]: value }, n);
        },
      });
    gauge(
      'cf_webhook_deliveries',
      'Webhook deliveries by status (PENDING: waiting or retrying; SUCCEEDED, FAILED, CANCELLED: final), read at scrape time',
      'status',
      (s) => s.deliveries,
    );
    gauge(
      'cf_webhook_delivery_attempts',
      'Webhook delivery attempts by outcome (succeeded: a 2xx within 10 s; failed: anything else), read at scrape time',
      'outcome',
      (s) => s.attempts,
    );
  };
}
