import { type DeliveryAttempt, type DeliveryStatus, type NewDelivery, newDelivery, type WebhookDelivery } from '../../../internal/webhooks/delivery';
import type { FanOutCursor } from '../../../internal/webhooks/fan-out-cursor';
import type { AttemptOutcome, DeliveryStats, WebhookDeliveryRepository } from '../../../ports/webhook-delivery-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryWebhookDeliveryRepository implements WebhookDeliveryRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): WebhookDelivery[] {
    return this.store.tables.webhookDeliveries;
  }

  async lockCursor(): Promise<FanOutCursor | null> {
    // Memory units of work run one at a time: the cursor is never held by another.
    return copy(this.store.tables.webhookCursor);
  }

  async saveCursor(cursor: FanOutCursor): Promise<void> {
    this.store.tables.webhookCursor = copy(cursor);
  }

  async insertMissing(deliveries: NewDelivery[]): Promise<void> {
    for (const d of deliveries) {
      if (this.rows.some((r) => r.eventRowId === d.eventRowId && r.endpointId === d.endpointId)) continue;
      this.rows.push({ ...copy(d), id: this.store.nextId(), leaseToken: null, lockedUntil: null });
    }
  }

  async claimDue(now: Date, leaseUntil: Date, token: string, limit: number): Promise<WebhookDelivery[]> {
    const due = this.rows
      .filter((d) => d.status === 'PENDING' && d.nextAttemptAt !== null && d.nextAttemptAt <= now && free(d, now) && this.isHead(d))
      .sort((a, b) => a.nextAttemptAt!.getTime() - b.nextAttemptAt!.getTime() || a.id - b.id)
      .slice(0, limit);
    return due.map((d) => this.claim(d, now, leaseUntil, token));
  }

  async claimNextOf(endpointId: number, resourceId: string, now: Date, leaseUntil: Date, token: string): Promise<WebhookDelivery | null> {
    const head = this.rows
      .filter((d) => d.endpointId === endpointId && d.resourceId === resourceId && d.status === 'PENDING')
      .sort((a, b) => a.eventRowId - b.eventRowId)[0];
    if (!head || head.nextAttemptAt === null || head.nextAttemptAt > now || !free(head, now)) return null;
    return this.claim(head, now, leaseUntil, token);
  }

  async findById(id: number): Promise<WebhookDelivery | null> {
    const found = this.rows.find((d) => d.id === id);
    return found ? copy(found) : null;
  }

  async recordAttempt(id: number, token: string, outcome: AttemptOutcome): Promise<boolean> {
    const d = this.rows.find((r) => r.id === id && r.leaseToken === token && r.status === 'PENDING');
    if (!d) return false;
    Object.assign(d, {
      status: outcome.status,
      attempts: outcome.attempt.attempt,
      roundAttempts: outcome.roundAttempts,
      nextAttemptAt: outcome.nextAttemptAt,
      leaseToken: null,
      lockedUntil: null,
      updatedAt: outcome.at,
    });
    this.store.tables.webhookDeliveryAttempts.push({ ...copy(outcome.attempt), deliveryId: id });
    return true;
  }

  async cancelClaimed(id: number, token: string, at: Date): Promise<boolean> {
    const d = this.rows.find((r) => r.id === id && r.leaseToken === token && r.status === 'PENDING');
    if (!d) return false;
    cancel(d, at);
    return true;
  }

  async cancelPendingOfEndpoint(endpointId: number, at: Date): Promise<void> {
    for (const d of this.rows) if (d.endpointId === endpointId && d.status === 'PENDING') cancel(d, at);
  }

  async ofEvent(eventRowId: number): Promise<{ delivery: WebhookDelivery; attempts: DeliveryAttempt[] }[]> {
    return this.rows
      .filter((d) => d.eventRowId === eventRowId)
      .sort((a, b) => a.id - b.id)
      .map((d) => ({
        delivery: copy(d),
        attempts: copy(this.store.tables.webhookDeliveryAttempts.filter((a) => a.deliveryId === d.id).sort((a, b) => a.attempt - b.attempt)),
      }));
  }

  async reopen(event: { rowId: number; companyId: number; resourceId: string }, endpointIds: number[], at: Date): Promise<void> {
    for (const endpointId of endpointIds) {
      const d = this.rows.find((r) => r.eventRowId === event.rowId && r.endpointId === endpointId);
      if (d) {
        Object.assign(d, { status: 'PENDING', roundAttempts: 0, nextAttemptAt: at, leaseToken: null, lockedUntil: null, updatedAt: at });
        continue;
      }
      await this.insertMissing([newDelivery(event, endpointId, at)]);
    }
  }

  async stats(): Promise<DeliveryStats> {
    const deliveries: Record<DeliveryStatus, number> = { PENDING: 0, SUCCEEDED: 0, FAILED: 0, CANCELLED: 0 };
    for (const d of this.rows) deliveries[d.status]++;
    const attempts = { succeeded: 0, failed: 0 };
    for (const a of this.store.tables.webhookDeliveryAttempts) attempts[a.succeeded ? 'succeeded' : 'failed']++;
    return { deliveries, attempts };
  }

  /** No earlier PENDING delivery of the same endpoint and resource. */
  private isHead(d: WebhookDelivery): boolean {
    return !this.rows.some((p) => p.endpointId === d.endpointId && p.resourceId === d.resourceId && p.status === 'PENDING' && p.eventRowId < d.eventRowId);
  }

  private claim(d: WebhookDelivery, now: Date, leaseUntil: Date, token: string): WebhookDelivery {
    d.leaseToken = token;
    d.lockedUntil = leaseUntil;
    d.updatedAt = now;
    return copy(d);
  }
}

function free(d: WebhookDelivery, now: Date): boolean {
  return d.lockedUntil === null || d.lockedUntil < now;
}

function cancel(d: WebhookDelivery, at: Date): void {
  Object.assign(d, { status: 'CANCELLED', nextAttemptAt: null, leaseToken: null, lockedUntil: null, updatedAt: at });
}
