import type { ProviderNotification } from '../internal/payment-instructions/provider-notification';

export type NewProviderNotification = Omit<ProviderNotification, 'id'>;

export type NotificationOutcomeChanges = Pick<
  ProviderNotification,
  'organizationId' | 'companyId' | 'paymentInstructionId' | 'outcome' | 'appliedCents' | 'unappliedCents'
>;

export interface ProviderNotificationRepository {
  /** @throws ConflictError when (provider, transactionId) is already recorded. */
  insert(notification: NewProviderNotification): Promise<ProviderNotification>;
  find(provider: string, transactionId: string): Promise<ProviderNotification | null>;
  findById(id: number): Promise<ProviderNotification | null>;
  recordOutcome(id: number, outcome: NotificationOutcomeChanges): Promise<ProviderNotification>;
}
