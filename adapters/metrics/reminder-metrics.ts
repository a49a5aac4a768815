import { Gauge } from 'prom-client';
import { publicReminderStatus } from '../../internal/reminders/reminder';
import type { ReminderCount } from '../../ports/reminder-repository';
import type { MetricsCollector } from './metrics';

/** One read of the counts serves every scrape within this time. */
const READ_REUSE_MS = 1000;

/**
 * Payment reminders by channel and status, read from the database at scrape time (every process
 * reporting it agrees): `cf_reminders{channel,status}` with status SCHEDULED, SENT, FAILED or
 * SKIPPED. How long send jobs wait is the queue's own `cf_job_wait_seconds{name="reminders.send"}`.
 */
export function reminderMetrics(read: () => Promise<ReminderCount[]>, now: () => number = Date.now): MetricsCollector {
  let last: { at: number; counts: Promise<ReminderCount[]> } | null = null;
  const counts = () => {
    if (!last || now() - last.at >= READ_REUSE_MS) last = { at: now(), counts: read() };
    return last.counts;
  };
  return (registry) => {
    new Gauge({
      name: 'cf_reminders',
      help: 'Payment reminders by channel and status (SCHEDULED, SENT, FAILED, SKIPPED), read at scrape time',
      labelNames: ['channel', 'status'],
      registers: [registry],
      async collect() {
        this.reset();
        const read = await counts().catch(() => null);
        const totals = new Map<string, { channel: string; status: string; count: number }>();
        for (const c of read ?? []) {
          const status = publicReminderStatus(c.status);
          const key = `${c.channel}/${status}`;
          const entry = totals.get(key) ?? { channel: c.channel, status, count: 0 };
          entry.count += c.count;
          totals.set(key, entry);
        }
        for (const t of totals.values()) this.set({ channel: t.channel, status: t.status }, t.count);
      },
    });
  };
}
