import type { AdhesionRepository } from './adhesion-repository';
import type { AuditLog } from './audit-log';
import type { ContactRepository } from './contact-repository';
import type { DebitAttemptRepository } from './debit-attempt-repository';
import type { DebtRepository } from './debt-repository';
import type { EventLog } from './event-log';
import type { JobOutbox } from './job-outbox';
import type { PaymentLinkRepository } from './payment-link-repository';
import type { PaymentInstructionRepository } from './payment-instruction-repository';
import type { PaymentMethodRepository } from './payment-method-repository';
import type { PortalRepository } from './portal-repository';
import type { ProviderNotificationRepository } from './provider-notification-repository';
import type { ReminderRepository } from './reminder-repository';
import type { SandboxMessageLog } from './sandbox-message-log';
import type { SubscriptionRepository } from './subscription-repository';
import type { ProductRepository } from './product-repository';
import type { CredentialRepository } from './credential-repository';
import type { RefreshTokenRepository } from './refresh-token-repository';
import type { TenancyRepository } from './tenancy-repository';
import type { UnappliedPaymentRepository } from './unapplied-payment-repository';
import type { WebhookDeliveryRepository } from './webhook-delivery-repository';
import type { WebhookEndpointRepository } from './webhook-endpoint-repository';

/** The repositories, all bound to one transaction (or to none, for plain reads). */
export interface Repositories {
  tenancy: TenancyRepository;
  credentials: CredentialRepository;
  refreshTokens: RefreshTokenRepository;
  contacts: ContactRepository;
  products: ProductRepository;
  debts: DebtRepository;
  paymentLinks: PaymentLinkRepository;
  subscriptions: SubscriptionRepository;
  paymentMethods: PaymentMethodRepository;
  adhesions: AdhesionRepository;
  debitAttempts: DebitAttemptRepository;
  /** Cash and transfer payments: instructions, provider notifications, unapplied money. */
  paymentInstructions: PaymentInstructionRepository;
  providerNotifications: ProviderNotificationRepository;
  unappliedPayments: UnappliedPaymentRepository;
  outbox: JobOutbox;
  events: EventLog;
  webhookEndpoints: WebhookEndpointRepository;
  webhookDeliveries: WebhookDeliveryRepository;
  /** Receipts and enrollments of the hosted pages. */
  portal: PortalRepository;
  audit: AuditLog;
  /** Payment reminders: policies, templates, contact preferences, the reminders (docs/reminders.md). */
  reminders: ReminderRepository;
  /** What the sandbox message sender delivered (GET /test-helpers/messages). */
  sandboxMessages: SandboxMessageLog;
}

export interface UnitOfWork {
  /**
   * Runs `work` in one transaction: everything it wrote commits together, or nothing does when
   * it throws (the error is rethrown).
   */
  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T>;
  /**
   * `run` with group commit, for a short work that reads and writes only through `repos` (a
   * create, a reminder's claim): the works of one `key` (an organization) that arrive in the same turn of the event loop share one
   * transaction, and each caller still gets its own result or its own error. When any work of a
   * group throws, the group rolls back and each of its works runs again alone: a work may run
   * twice (only one run commits), so it must keep every effect inside the transaction. Where the
   * adapter allows, a group's works run side by side (their like statements then become one), so
   * a work must not count on seeing what another work of its group writes, nor on their order.
   * Under load a key's next group waits for the one being written, so a work must never wait
   * for another `runGrouped` of its own key (it would wait for itself). See
   * internal/shared/group-commit.ts.
   */
  runGrouped<T>(key: string | number, work: (repos: Repositories) => Promise<T>): Promise<T>;
}
