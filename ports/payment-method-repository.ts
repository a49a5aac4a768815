import type { PaymentMethodReference } from '../internal/direct-debit/payment-method';

export type NewPaymentMethod = Omit<PaymentMethodReference, 'id'>;

/** Payment method references per user (externalClientId) and company. */
export interface PaymentMethodRepository {
  /**
   * @throws ConflictError when `isDefault` and the user already has a default method (one default
   * per user is a unique key); the transaction it ran in goes on (RegisterPaymentMethod then
   * inserts the method as not the default).
   */
  insert(method: NewPaymentMethod): Promise<PaymentMethodReference>;
  /** The user's default method stops being the default (no-op when there is none). */
  clearDefault(companyId: number, externalClientId: string): Promise<void>;
  /** Oldest first. */
  listOfClient(companyId: number, externalClientId: string): Promise<PaymentMethodReference[]>;
  findDefault(companyId: number, externalClientId: string): Promise<PaymentMethodReference | null>;
  /** One query for many users (a batch evaluates each user once). */
  findDefaults(companyId: number, externalClientIds: string[]): Promise<PaymentMethodReference[]>;
  findById(companyId: number, id: number): Promise<PaymentMethodReference | null>;
  /** The method becomes INACTIVE and stops being the default (its account was closed). */
  deactivate(companyId: number, id: number): Promise<PaymentMethodReference>;
}
