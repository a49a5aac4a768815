import type { DeliveryStats, WebhookDeliveryRepository } from '../../../ports/webhook-delivery-repository';
import { requireDeps } from '../../shared/use-case-deps';

/**
 * Deliveries by status and attempts by outcome, over every tenant: what a Prometheus collector
 * reads at scrape time (e.g. a gauge per status). One grouped count per table.
 */
export class WebhookDeliveryStats {
  constructor(private readonly deps: { webhookDeliveries: WebhookDeliveryRepository }) {
    requireDeps('WebhookDeliveryStats', deps);
  }

  execute(): Promise<DeliveryStats> {
    return this.deps.webhookDeliveries.stats();
  }
}
