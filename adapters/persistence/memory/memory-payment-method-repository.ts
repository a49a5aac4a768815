import type { PaymentMethodReference } from '../../../internal/direct-debit/payment-method';
import { ConflictError } from '../../../internal/shared/errors';
import type { NewPaymentMethod, PaymentMethodRepository } from '../../../ports/payment-method-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryPaymentMethodRepository implements PaymentMethodRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): PaymentMethodReference[] {
    return this.store.tables.paymentMethods;
  }

  async insert(method: NewPaymentMethod): Promise<PaymentMethodReference> {
    if (method.isDefault && this.defaultOf(method.companyId, method.externalClientId)) {
      throw new ConflictError('Default payment method already exists');
    }
    const stored = { ...copy(method), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async clearDefault(companyId: number, externalClientId: string): Promise<void> {
    const current = this.defaultOf(companyId, externalClientId);
    if (current) current.isDefault = false;
  }

  async listOfClient(companyId: number, externalClientId: string): Promise<PaymentMethodReference[]> {
    return copy(this.rows.filter((m) => m.companyId === companyId && m.externalClientId === externalClientId).sort((a, b) => a.id - b.id));
  }

  async findDefault(companyId: number, externalClientId: string): Promise<PaymentMethodReference | null> {
    return copy(this.defaultOf(companyId, externalClientId) ?? null);
  }

  async findDefaults(companyId: number, externalClientIds: string[]): Promise<PaymentMethodReference[]> {
    const wanted = new Set(externalClientIds);
    return copy(this.rows.filter((m) => m.companyId === companyId && m.isDefault && wanted.has(m.externalClientId)));
  }

  async findById(companyId: number, id: number): Promise<PaymentMethodReference | null> {
    return copy(this.rows.find((m) => m.companyId === companyId && m.id === id) ?? null);
  }

  async deactivate(companyId: number, id: number): Promise<PaymentMethodReference> {
    const method = this.rows.find((m) => m.companyId === companyId && m.id === id);
    if (!method) throw new Error(`payment method ${id} vanished`);
    Object.assign(method, { status: 'INACTIVE', isDefault: false });
    return copy(method);
  }

  private defaultOf(companyId: number, externalClientId: string): PaymentMethodReference | undefined {
    return this.rows.find((m) => m.companyId === companyId && m.externalClientId === externalClientId && m.isDefault);
  }
}
