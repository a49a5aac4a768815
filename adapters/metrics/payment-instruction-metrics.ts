import { Counter, Gauge, type Registry } from 'prom-client';
import type { NotificationReceipt } from '../../internal/payment-instructions/commands/receive-provider-notification';
import type { OpenUnappliedTotals } from '../../ports/unapplied-payment-repository';
import type { MetricsCollector } from './metrics';

/** One read of the open totals serves every gauge of a scrape. */
const READ_REUSE_MS = 1000;

/** What the notification endpoint reports of each notification it recorded. */
export interface MoneyReceivedObserver {
  notificationReceived(provider: string, receipt: NotificationReceipt): void;
}

/**
 * Counters of the process that records provider notifications (the API):
 * `cf_money_received_total{method,currency}` (money the providers notified, in currency units,
 * by instruction method: TRANSFER, CASH, or UNMATCHED when no instruction of ours was named) and
 * `cf_provider_notifications_total{provider,outcome}` (APPLIED, PARTIALLY_APPLIED, UNAPPLIED,
 * UNMATCHED, REPLAYED: a notification delivered again, which records nothing).
 */
export function moneyReceivedMetrics(registry: Registry): MoneyReceivedObserver {
  const registers = [registry];
  const money = new Counter({
    name: 'cf_money_received_total',
    help: 'Money the payment providers notified (transfers and cash), in currency units, by instruction method and currency; replays excluded',
    labelNames: ['method', 'currency'],
    registers,
  });
  const notifications = new Counter({
    name: 'cf_provider_notifications_total',
    help: 'Provider notifications by outcome: APPLIED, PARTIALLY_APPLIED, UNAPPLIED, UNMATCHED (no instruction of ours), REPLAYED (recorded before)',
    labelNames: ['provider', 'outcome'],
    registers,
  });
  return {
    notificationReceived(provider, receipt) {
      notifications.inc({ provider, outcome: receipt.replayed ? 'REPLAYED' : receipt.notification.outcome });
      if (receipt.replayed) return;
      money.inc({ method: receipt.method ?? 'UNMATCHED', currency: receipt.notification.currency }, receipt.notification.amountCents / 100);
    },
  };
}

/**
 * The money kept unapplied and still OPEN, read from the database at scrape time (every process
 * reporting it agrees): `cf_unapplied_payments_open_amount{currency}` in currency units and
 * `cf_unapplied_payments_open{currency}` (how many).
 */
export function unappliedPaymentMetrics(read: () => Promise<OpenUnappliedTotals[]>, now: () => number = Date.now): MetricsCollector {
  let last: { at: number; totals: Promise<OpenUnappliedTotals[]> } | null = null;
  const totals = () => {
    if (!last || now() - last.at >= READ_REUSE_MS) last = { at: now(), totals: read() };
    return last.totals;
  };
  return (registry) => {
    const gauge = (name: string, help: string, value: (t: OpenUnappliedTotals) => number) =>
      new Gauge({
        name,
        help,
        labelNames: ['currency'],
        registers: [registry],
        async collect() {
          this.reset();
          const read = await totals().catch(() => null);
          for (const t of read ?? []) this.set({ currency: t.currency }, value(t));
        },
      });
    gauge('cf_unapplied_payments_open_amount', 'Money received that no debt took and is still OPEN (to apply or refund), in currency units, read at scrape time', (t) => t.amountCents / 100);
    gauge('cf_unapplied_payments_open', 'Unapplied payments still OPEN, read at scrape time', (t) => t.count);
  };
}
