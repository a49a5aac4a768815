import type { Resolution, UnappliedPayment, UnappliedStatus } from '../../../internal/payment-instructions/unapplied-payment';
import { ConflictError } from '../../../internal/shared/errors';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type {
  NewUnappliedPayment, OpenUnappliedTotals, UnappliedPaymentRepository, UnappliedPaymentView,
} from '../../../ports/unapplied-payment-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryUnappliedPaymentRepository implements UnappliedPaymentRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): UnappliedPayment[] {
    return this.store.tables.unappliedPayments;
  }

  async insert(payment: NewUnappliedPayment): Promise<UnappliedPaymentView> {
    if (this.rows.some((u) => u.code === payment.code)) throw new ConflictError('Unapplied payment already exists');
    const stored = { ...copy(payment), id: this.store.nextId() };
    this.rows.push(stored);
    return this.view(stored);
  }

  async findByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null> {
    const found = this.rows.find((u) => u.companyId === companyId && u.code === code);
    return found ? this.view(found) : null;
  }

  lockByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null> {
    return this.findByCode(companyId, code);
  }

  async list(companyId: number, filter: { status?: UnappliedStatus }, page: PageRequest): Promise<Page<UnappliedPaymentView>> {
    const matching = this.rows
      .filter((u) => u.companyId === companyId && (!filter.status || u.status === filter.status))
      .sort((a, b) => b.receivedAt.getTime() - a.receivedAt.getTime() || b.id - a.id);
    const offset = offsetOf(page);
    return { items: matching.slice(offset, offset + page.limit).map((u) => this.view(u)), total: matching.length, capped: false };
  }

  async resolve(id: number, resolution: Resolution, at: Date): Promise<UnappliedPaymentView> {
    const row = this.row(id);
    Object.assign(row, { status: 'RESOLVED', resolvedAt: new Date(at.getTime()), resolution: copy(resolution) });
    return this.view(row);
  }

  async setRefundRequested(id: number, at: Date | null): Promise<UnappliedPaymentView> {
    const row = this.row(id);
    row.refundRequestedAt = at ? new Date(at.getTime()) : null;
    return this.view(row);
  }

  async openTotals(): Promise<OpenUnappliedTotals[]> {
    const totals = new Map<string, OpenUnappliedTotals>();
    for (const u of this.rows.filter((r) => r.status === 'OPEN')) {
      const t = totals.get(u.currency) ?? { currency: u.currency, count: 0, amountCents: 0 };
      t.count += 1;
      t.amountCents += u.amountCents;
      totals.set(u.currency, t);
    }
    return [...totals.values()].sort((a, b) => (a.currency < b.currency ? -1 : 1));
  }

  private row(id: number): UnappliedPayment {
    const row = this.rows.find((u) => u.id === id);
    if (!row) throw new Error(`unapplied payment ${id} not found`);
    return row;
  }

  private view(u: UnappliedPayment): UnappliedPaymentView {
    const { debts, paymentInstructions } = this.store.tables;
    const externalId = (id: number | null) => (id === null ? null : (debts.find((d) => d.id === id)?.externalRequestId ?? null));
    return {
      ...copy(u),
      paymentInstructionCode: paymentInstructions.find((i) => i.id === u.paymentInstructionId)?.code ?? '',
      debtExternalRequestId: externalId(u.debtId) ?? '',
      resolutionDebtExternalRequestId: externalId(u.resolution?.debtId ?? null),
    };
  }
}
