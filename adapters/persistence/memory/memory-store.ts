import type { Contact } from '../../../internal/contacts/contact';
import type { Debt } from '../../../internal/debts/debt';
import type { Adhesion } from '../../../internal/direct-debit/adhesion';
import type { DebitAttempt } from '../../../internal/direct-debit/debit-attempt';
import type { PaymentMethodReference } from '../../../internal/direct-debit/payment-method';
import type { PaymentLink } from '../../../internal/payment-links/payment-link';
import type { PageEnrollment } from '../../../internal/direct-debit/page-enrollment';
import type { PortalPayment } from '../../../internal/portal/portal-payment';
import type { PaymentInstruction } from '../../../internal/payment-instructions/payment-instruction';
import type { ProviderNotification } from '../../../internal/payment-instructions/provider-notification';
import type { UnappliedPayment } from '../../../internal/payment-instructions/unapplied-payment';
import type { Subscription } from '../../../internal/subscriptions/subscription';
import type { Reminder } from '../../../internal/reminders/reminder';
import type { StoredReminderPolicy } from '../../../internal/reminders/reminder-policy';
import type { ReminderTemplate } from '../../../internal/reminders/template';
import type { CommunicationPreferences } from '../../../ports/reminder-repository';
import type { SandboxMessage } from '../../../ports/sandbox-message-log';
import type { AuditEntry } from '../../../internal/audit/audit-entry';
import type { LoggedEvent } from '../../../ports/event-log';
import type { OutboxEntry } from '../../../ports/job-outbox';
import type { Product } from '../../../internal/products/product';
import type { Company } from '../../../internal/tenancy/company';
import type { ApiKeyRecord, ClientUser } from '../../../internal/tenancy/credentials';
import type { Organization } from '../../../internal/tenancy/organization';
import type { DeliveryAttempt, WebhookDelivery } from '../../../internal/webhooks/delivery';
import type { FanOutCursor } from '../../../internal/webhooks/fan-out-cursor';
import type { WebhookEndpoint } from '../../../internal/webhooks/webhook-endpoint';
import type { DebtorKey } from '../../../ports/contact-repository';

export interface StoredApiKey extends ApiKeyRecord {
  revokedAt: Date | null;
}

export interface StoredRefreshToken {
  clientUserId: number;
  tokenHash: string;
  expiresAt: Date;
  usedAt: Date | null;
  familyId: number | null;
}

export interface StoredRefreshTokenFamily {
  id: number;
  clientUserId: number;
  createdAt: Date;
  revokedAt: Date | null;
}

/** Every "table" of the in-memory adapter set, as plain data so a transaction can snapshot it. */
export interface MemoryTables {
  sequence: number;
  organizations: Organization[];
  companies: Company[];
  clientUsers: ClientUser[];
  clientUserCompanies: { clientUserId: number; companyId: number }[];
  apiKeys: StoredApiKey[];
  refreshTokens: StoredRefreshToken[];
  refreshTokenFamilies: StoredRefreshTokenFamily[];
  contacts: Contact[];
  products: Product[];
  debts: Debt[];
  debtPayments: { debtId: number; amountCents: number; source: string; createdAt: Date }[];
  paymentLinks: PaymentLink[];
  subscriptions: Subscription[];
  paymentMethods: PaymentMethodReference[];
  adhesions: Adhesion[];
  debitAttempts: DebitAttempt[];
  paymentInstructions: PaymentInstruction[];
  providerNotifications: ProviderNotification[];
  unappliedPayments: UnappliedPayment[];
  outbox: (OutboxEntry & { createdAt: Date; dispatchedAt: Date | null; group: string | null; deferred: boolean })[];
  events: LoggedEvent[];
  webhookEndpoints: WebhookEndpoint[];
  webhookDeliveries: WebhookDelivery[];
  webhookDeliveryAttempts: DeliveryAttempt[];
  webhookCursor: FanOutCursor;
  portalPayments: PortalPayment[];
  portalEnrollments: PageEnrollment[];
  auditLog: (AuditEntry & { id: number })[];
  reminderPolicies: StoredReminderPolicy[];
  reminderTemplates: ReminderTemplate[];
  contactPreferences: (CommunicationPreferences & { contactId: number })[];
  reminders: Reminder[];
  sandboxMessages: SandboxMessage[];
}


export class MemoryStore {
  tables: MemoryTables = {
    sequence: 0,
    organizations: [],
    companies: [],
    clientUsers: [],
    clientUserCompanies: [],
    apiKeys: [],
    refreshTokens: [],
    refreshTokenFamilies: [],
    contacts: [],
    products: [],
    debts: [],
    debtPayments: [],
    paymentLinks: [],
    subscriptions: [],
    paymentMethods: [],
    adhesions: [],
    debitAttempts: [],
    paymentInstructions: [],
    providerNotifications: [],
    unappliedPayments: [],
    outbox: [],
    events: [],
    webhookEndpoints: [],
    webhookDeliveries: [],
    webhookDeliveryAttempts: [],
    webhookCursor: { lastRowId: 0, gaps: [] },
    portalPayments: [],
    portalEnrollments: [],
    auditLog: [],
    reminderPolicies: [],
    reminderTemplates: [],
    contactPreferences: [],
    reminders: [],
    sandboxMessages: [],
  };

  nextId(): number {
    return ++this.tables.sequence;
  }

  snapshot(): MemoryTables {
    return structuredClone(this.tables);
  }

  restore(snapshot: MemoryTables): void {
    this.tables = snapshot;
  }
}

/** The id of the contact a list's debtor filter names; undefined for no filter, null when there is no such contact (nothing matches). */
export function debtorContactId(tables: MemoryTables, debtor: DebtorKey | undefined): number | null | undefined {
  if (debtor === undefined) return undefined;
  return tables.contacts.find((c) => c.organizationId === debtor.organizationId && c.externalClientId === debtor.externalClientId)?.id ?? null;
}

/** Copies leave the store: callers never hold a reference into a table. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
