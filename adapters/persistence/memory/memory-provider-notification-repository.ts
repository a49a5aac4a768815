import type { ProviderNotification } from '../../../internal/payment-instructions/provider-notification';
import { ConflictError } from '../../../internal/shared/errors';
import type {
  NewProviderNotification, NotificationOutcomeChanges, ProviderNotificationRepository,
} from '../../../ports/provider-notification-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryProviderNotificationRepository implements ProviderNotificationRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): ProviderNotification[] {
    return this.store.tables.providerNotifications;
  }

  async insert(notification: NewProviderNotification): Promise<ProviderNotification> {
    if (this.rows.some((n) => n.provider === notification.provider && n.transactionId === notification.transactionId)) {
      throw new ConflictError('Provider notification already exists');
    }
    const stored = { ...copy(notification), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async find(provider: string, transactionId: string): Promise<ProviderNotification | null> {
    return copy(this.rows.find((n) => n.provider === provider && n.transactionId === transactionId) ?? null);
  }

  async findById(id: number): Promise<ProviderNotification | null> {
    return copy(this.rows.find((n) => n.id === id) ?? null);
  }

  async recordOutcome(id: number, outcome: NotificationOutcomeChanges): Promise<ProviderNotification> {
    const row = this.rows.find((n) => n.id === id);
    if (!row) throw new Error(`provider notification ${id} not found`);
    Object.assign(row, copy(outcome));
    return copy(row);
  }
}
