import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { MAX_GROUPS_IN_FLIGHT, MAX_TRANSACTION_GROUP, TransactionGroups } from '../../../internal/shared/group-commit';
import { MemoryContactRepository } from './memory-contact-repository';
import type { EventWriting } from '../../events/event-renderer';
import { MemoryAdhesionRepository } from './memory-adhesion-repository';
import { MemoryAuditLog } from './memory-audit-log';
import { MemoryDebitAttemptRepository } from './memory-debit-attempt-repository';
import { MemoryDebtRepository } from './memory-debt-repository';
import { MemoryEventLog } from './memory-event-log';
import { MemoryJobOutbox } from './memory-job-outbox';
import { MemoryPaymentLinkRepository } from './memory-payment-link-repository';
import { MemoryPaymentInstructionRepository } from './memory-payment-instruction-repository';
import { MemoryPaymentMethodRepository } from './memory-payment-method-repository';
import { MemoryPortalRepository } from './memory-portal-repository';
import { MemoryProviderNotificationRepository } from './memory-provider-notification-repository';
import { MemoryReminderRepository, MemorySandboxMessageLog } from './memory-reminder-repository';
import { MemorySubscriptionRepository } from './memory-subscription-repository';
import { MemoryProductRepository } from './memory-product-repository';
import type { MemoryStore } from './memory-store';
import { MemoryCredentialRepository } from './memory-credential-repository';
import { MemoryRefreshTokenRepository } from './memory-refresh-token-repository';
import { MemoryTenancyRepository } from './memory-tenancy-repository';
import { MemoryUnappliedPaymentRepository } from './memory-unapplied-payment-repository';
import { MemoryWebhookDeliveryRepository } from './memory-webhook-delivery-repository';
import { MemoryWebhookEndpointRepository } from './memory-webhook-endpoint-repository';

export function memoryRepositories(store: MemoryStore, events: EventWriting): Repositories {
  return {
    tenancy: new MemoryTenancyRepository(store),
    credentials: new MemoryCredentialRepository(store),
    refreshTokens: new MemoryRefreshTokenRepository(store),
    contacts: new MemoryContactRepository(store),
    products: new MemoryProductRepository(store),
    debts: new MemoryDebtRepository(store),
    paymentLinks: new MemoryPaymentLinkRepository(store),
    subscriptions: new MemorySubscriptionRepository(store),
    paymentMethods: new MemoryPaymentMethodRepository(store),
    adhesions: new MemoryAdhesionRepository(store),
    debitAttempts: new MemoryDebitAttemptRepository(store),
    paymentInstructions: new MemoryPaymentInstructionRepository(store),
    providerNotifications: new MemoryProviderNotificationRepository(store),
    unappliedPayments: new MemoryUnappliedPaymentRepository(store),
    outbox: new MemoryJobOutbox(store),
    events: new MemoryEventLog(store, events),
    webhookEndpoints: new MemoryWebhookEndpointRepository(store),
    webhookDeliveries: new MemoryWebhookDeliveryRepository(store),
    portal: new MemoryPortalRepository(store),
    audit: new MemoryAuditLog(store),
    reminders: new MemoryReminderRepository(store),
    sandboxMessages: new MemorySandboxMessageLog(store),
  };
}

/**
 * Units of work run one at a time (a single writer, like SQLite); a throw restores the snapshot
 * taken at the start, so nothing the work wrote survives.
 */
export class MemoryUnitOfWork implements UnitOfWork {
  private tail: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: MemoryStore,
    private readonly events: EventWriting,
  ) {}

  /** A group's works side by side, as on MySQL (see TransactionGroupsOptions.concurrent). */
  private readonly groups = new TransactionGroups((work) => this.run(work), { maxGroupSize: MAX_TRANSACTION_GROUP, maxInFlight: MAX_GROUPS_IN_FLIGHT, concurrent: true });

  runGrouped<T>(key: string | number, work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.groups.run(key, work);
  }

  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    const result = this.tail.then(async () => {
      const snapshot = this.store.snapshot();
      try {
        return await work(memoryRepositories(this.store, this.events));
      } catch (error) {
        this.store.restore(snapshot);
        throw error;
      }
    });
    this.tail = result.catch(() => undefined);
    return result;
  }
}
