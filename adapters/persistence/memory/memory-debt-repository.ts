import { type AutopayReason, type Debt, effectiveStatus } from '../../../internal/debts/debt';
import { ConflictError } from '../../../internal/shared/errors';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { DebitScope, DebtChanges, DebtFilter, DebtRepository, DebtView, ListedDebt, NewDebt } from '../../../ports/debt-repository';
import { copy, debtorContactId, type MemoryStore } from './memory-store';

export class MemoryDebtRepository implements DebtRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): Debt[] {
    return this.store.tables.debts;
  }

  async insert(debt: NewDebt): Promise<Debt> {
    if (this.find(debt.companyId, debt.externalRequestId)) throw new ConflictError('Debt already exists');
    const stored: Debt = { ...copy(debt), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async insertAll(debts: NewDebt[]): Promise<Debt[]> {
    const keys = new Set<string>();
    for (const debt of debts) {
      const key = `${debt.companyId}\u0000${debt.externalRequestId}`;
      if (keys.has(key) || this.find(debt.companyId, debt.externalRequestId)) throw new ConflictError('Debt already exists');
      keys.add(key);
    }
    const stored = debts.map((debt): Debt => ({ ...copy(debt), id: this.store.nextId() }));
    this.rows.push(...stored);
    return stored.map((d) => copy(d));
  }

  async insertMissing(debts: NewDebt[]): Promise<number> {
    let inserted = 0;
    for (const debt of debts) {
      if (this.find(debt.companyId, debt.externalRequestId)) continue;
      this.rows.push({ ...copy(debt), id: this.store.nextId() });
      inserted++;
    }
    return inserted;
  }

  async idsByExternalRequestId(companyId: number, externalRequestIds: string[]): Promise<Map<string, number>> {
    const wanted = new Set(externalRequestIds);
    return new Map(this.rows.filter((d) => d.companyId === companyId && wanted.has(d.externalRequestId)).map((d) => [d.externalRequestId, d.id]));
  }

  async findByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null> {
    const debt = this.find(companyId, externalRequestId);
    return debt ? this.view(debt) : null;
  }

  async findById(companyId: number, id: number): Promise<DebtView | null> {
    const debt = this.rows.find((d) => d.companyId === companyId && d.id === id);
    return debt ? this.view(debt) : null;
  }

  async findByExternalRequestIds(companyId: number, externalRequestIds: string[]): Promise<DebtView[]> {
    const wanted = new Set(externalRequestIds);
    return this.rows.filter((d) => d.companyId === companyId && wanted.has(d.externalRequestId)).map((d) => this.view(d));
  }

  lockByExternalRequestId(companyId: number, externalRequestId: string): Promise<DebtView | null> {
    // Memory units of work run one at a time: reading inside one is already exclusive.
    return this.findByExternalRequestId(companyId, externalRequestId);
  }

  lockById(companyId: number, id: number): Promise<DebtView | null> {
    return this.findById(companyId, id);
  }

  async update(companyId: number, id: number, changes: DebtChanges): Promise<DebtView> {
    const debt = this.rows.find((d) => d.companyId === companyId && d.id === id);
    if (!debt) throw new Error(`debt ${id} vanished`);
    if (changes.amountCents !== undefined) debt.amountCents = changes.amountCents;
    if (changes.dueDate !== undefined) debt.dueDate = changes.dueDate;
    if (changes.status !== undefined) debt.status = changes.status;
    if (changes.amountPaidCents !== undefined) debt.amountPaidCents = changes.amountPaidCents;
    debt.updatedAt = changes.updatedAt;
    return this.view(debt);
  }

  async recordPayment(debtId: number, amountCents: number, source: string, at: Date): Promise<void> {
    this.store.tables.debtPayments.push({ debtId, amountCents, source, createdAt: at });
  }

  async list(companyId: number, filter: DebtFilter, page: PageRequest): Promise<Page<ListedDebt>> {
    const contactId = debtorContactId(this.store.tables, filter.debtor);
    const matches = this.rows
      .filter((d) => d.companyId === companyId && d.status !== 'CANCELLED' && matchesFilter(d, filter) && (contactId === undefined || d.contactId === contactId))
      .sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return { items: matches.slice(start, start + page.limit).map((d) => listed(this.view(d))), total: matches.length, capped: false };
  }

  async cancelUnpaidOfSubscription(subscriptionId: number, at: Date): Promise<DebtView[]> {
    const unpaid = this.rows
      .filter((d) => d.subscriptionId === subscriptionId && (d.status === 'PENDING' || d.status === 'OVERDUE'))
      .sort((a, b) => a.id - b.id);
    for (const debt of unpaid) {
      debt.status = 'CANCELLED';
      debt.updatedAt = at;
    }
    return unpaid.map((d) => this.view(d));
  }

  async liveDueDatesOfSubscription(subscriptionId: number): Promise<string[]> {
    return [...new Set(this.rows.filter((d) => d.subscriptionId === subscriptionId && d.status !== 'CANCELLED').map((d) => d.dueDate))];
  }

  async openOfSubscription(subscriptionId: number): Promise<DebtView[]> {
    return this.rows
      .filter((d) => d.subscriptionId === subscriptionId && d.status !== 'PAID' && d.status !== 'CANCELLED')
      .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id))
      .map((d) => this.view(d));
  }

  async dueForDebit(scope: DebitScope, limit: number): Promise<DebtView[]> {
    const { tables } = this.store;
    return this.rows
      .filter((d) => {
        if (d.organizationId !== scope.organizationId || !d.autopay || d.dueDate > scope.today) return false;
        if (!['PENDING', 'OVERDUE', 'PARTIALLY_PAID'].includes(d.status)) return false;
        const attempts = tables.debitAttempts.filter((a) => a.debtId === d.id);
        if (attempts.length > 0 && !attempts.some((a) => a.retryOn !== null && a.retryOn <= scope.today)) return false;
        const user = tables.contacts.find((c) => c.id === d.contactId)?.externalClientId;
        const only = scope.only;
        if (only && (d.companyId !== only.companyId || user !== only.externalClientId || d.productId !== only.productId)) return false;
        return tables.adhesions.some(
          (a) => a.companyId === d.companyId && a.externalClientId === user && a.productId === d.productId && a.status === 'ACTIVE',
        );
      })
      .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id))
      .slice(0, limit)
      .map((d) => this.view(d));
  }

  async withdrawAutopay(companyId: number, ids: number[], reason: AutopayReason, at: Date): Promise<void> {
    for (const debt of this.rows) {
      if (debt.companyId !== companyId || !ids.includes(debt.id)) continue;
      Object.assign(debt, { autopay: false, autopayReason: reason, autopayPaymentMethodId: null, updatedAt: at });
    }
  }

  async markOverdue(organizationId: number, today: string, at: Date, limit: number): Promise<DebtView[]> {
    const due = this.rows
      .filter((d) => d.organizationId === organizationId && d.status === 'PENDING' && d.dueDate < today)
      .sort((a, b) => (a.dueDate < b.dueDate ? -1 : a.dueDate > b.dueDate ? 1 : a.id - b.id))
      .slice(0, limit);
    for (const debt of due) {
      debt.status = 'OVERDUE';
      debt.updatedAt = at;
    }
    return due.sort((a, b) => a.id - b.id).map((d) => this.view(d));
  }

  private find(companyId: number, externalRequestId: string): Debt | undefined {
    return this.rows.find((d) => d.companyId === companyId && d.externalRequestId === externalRequestId);
  }

  private view(debt: Debt): DebtView {
    const contact = debt.contactId === null ? undefined : this.store.tables.contacts.find((c) => c.id === debt.contactId);
    const product = debt.productId === null ? undefined : this.store.tables.products.find((p) => p.id === debt.productId);
    return copy({
      ...debt,
      contact: contact ? { code: contact.code, externalClientId: contact.externalClientId } : null,
      product: product ? { id: product.id, name: product.name, active: product.active } : null,
      autopayInstrument: this.store.tables.paymentMethods.find((m) => m.id === debt.autopayPaymentMethodId) ?? null,
    });
  }
}

function matchesFilter(d: Debt, f: DebtFilter): boolean {
  const createdAt = d.createdAt.getTime();
  return (
    (f.status === undefined || effectiveStatus(d, f.today) === f.status) &&
    (f.createdFrom === undefined || createdAt >= f.createdFrom) &&
    (f.createdTo === undefined || createdAt <= f.createdTo) &&
    (f.minAmountCents === undefined || d.amountCents >= f.minAmountCents) &&
    (f.maxAmountCents === undefined || d.amountCents <= f.maxAmountCents) &&
    (f.batchId === undefined || d.batchId === f.batchId) &&
    (f.paymentLinkId === undefined || d.paymentLinkId === f.paymentLinkId) &&
    (f.subscriptionId === undefined || d.subscriptionId === f.subscriptionId)
  );
}

/** What a page of debts holds of a view (ListedDebt), as the SQL adapters read it. */
function listed(view: DebtView): ListedDebt {
  const { organizationId: _o, updatedAt: _u, paymentLinkId: _l, subscriptionId: _s, autopay: _a, autopayReason: _r, autopayPaymentMethodId: _m, autopayInstrument: _i, ...rest } = view;
  return rest;
}
