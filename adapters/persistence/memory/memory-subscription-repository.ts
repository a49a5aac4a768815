import { ConflictError } from '../../../internal/shared/errors';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import { effectiveSubscriptionStatus, type Subscription } from '../../../internal/subscriptions/subscription';
import type {
  NewSubscription, SubscriptionChanges, SubscriptionFilter, SubscriptionRepository, SubscriptionView,
} from '../../../ports/subscription-repository';
import { copy, debtorContactId, type MemoryStore } from './memory-store';

export class MemorySubscriptionRepository implements SubscriptionRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): Subscription[] {
    return this.store.tables.subscriptions;
  }

  async insert(subscription: NewSubscription): Promise<Subscription> {
    const taken = this.rows.some((s) => s.organizationId === subscription.organizationId && s.externalSubscriptionId === subscription.externalSubscriptionId);
    if (taken || this.rows.some((s) => s.code === subscription.code)) {
      throw new ConflictError('Subscription already exists');
    }
    const stored = { ...copy(subscription), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async findByCode(companyId: number, code: string): Promise<SubscriptionView | null> {
    return this.view(this.rows.find((s) => s.companyId === companyId && s.code === code));
  }

  async findById(id: number): Promise<SubscriptionView | null> {
    return this.view(this.rows.find((s) => s.id === id));
  }

  async findByExternalSubscriptionId(organizationId: number, externalSubscriptionId: string): Promise<SubscriptionView | null> {
    return this.view(this.rows.find((s) => s.organizationId === organizationId && s.externalSubscriptionId === externalSubscriptionId));
  }

  lockByCode(companyId: number, code: string): Promise<SubscriptionView | null> {
    return this.findByCode(companyId, code);
  }

  async update(companyId: number, id: number, changes: SubscriptionChanges): Promise<SubscriptionView> {
    const s = this.rows.find((r) => r.companyId === companyId && r.id === id);
    if (!s) throw new Error(`subscription ${id} vanished`);
    const { updatedAt, paymentMethods, ...rest } = changes;
    for (const [key, value] of Object.entries(rest)) if (value !== undefined) Object.assign(s, { [key]: copy(value) });
    if (paymentMethods !== undefined) s.paymentMethods = copy(paymentMethods) as Subscription['paymentMethods'];
    s.updatedAt = updatedAt;
    return this.view(s)!;
  }

  async markEnded(organizationId: number, today: string, at: Date, limit: number): Promise<SubscriptionView[]> {
    const ended = this.rows
      .filter((s) => s.organizationId === organizationId && s.status === 'ACTIVE' && effectiveSubscriptionStatus(s, today) === 'ENDED')
      .sort((a, b) => (a.lastDueDate! < b.lastDueDate! ? -1 : a.lastDueDate! > b.lastDueDate! ? 1 : a.id - b.id))
      .slice(0, limit);
    for (const s of ended) {
      s.status = 'ENDED';
      s.updatedAt = at;
    }
    return ended.sort((a, b) => a.id - b.id).map((s) => this.view(s)!);
  }

  async list(companyId: number, filter: SubscriptionFilter, page: PageRequest): Promise<Page<SubscriptionView>> {
    const contactId = debtorContactId(this.store.tables, filter.debtor);
    const matches = this.rows
      .filter(
        (s) =>
          s.companyId === companyId &&
          (filter.status === undefined || effectiveSubscriptionStatus(s, filter.today) === filter.status) &&
          (contactId === undefined || s.contactId === contactId),
      )
      .sort((a, b) => (a.externalSubscriptionId < b.externalSubscriptionId ? 1 : a.externalSubscriptionId > b.externalSubscriptionId ? -1 : 0));
    const start = offsetOf(page);
    return { items: matches.slice(start, start + page.limit).map((s) => this.view(s)!), total: matches.length, capped: false };
  }

  private view(s: Subscription | undefined): SubscriptionView | null {
    if (!s) return null;
    const contact = this.store.tables.contacts.find((c) => c.id === s.contactId)!;
    const product = this.store.tables.products.find((p) => p.id === s.productId)!;
    return copy({
      ...s,
      contact: { code: contact.code, externalClientId: contact.externalClientId },
      product: { id: product.id, name: product.name, active: product.active },
    });
  }
}
