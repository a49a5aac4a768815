import type { PaymentInstruction } from '../../../internal/payment-instructions/payment-instruction';
import { ConflictError } from '../../../internal/shared/errors';
import type {
  NewPaymentInstruction, PaymentInstructionChanges, PaymentInstructionRepository, PaymentInstructionView,
} from '../../../ports/payment-instruction-repository';
import { copy, type MemoryStore } from './memory-store';

/** Transactions run one at a time here, so a lock is the transaction itself. */
export class MemoryPaymentInstructionRepository implements PaymentInstructionRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): PaymentInstruction[] {
    return this.store.tables.paymentInstructions;
  }

  async insert(instruction: NewPaymentInstruction): Promise<PaymentInstructionView> {
    const taken = this.rows.some(
      (i) =>
        i.code === instruction.code ||
        (i.provider === instruction.provider && i.providerReference === instruction.providerReference) ||
        (instruction.status === 'PENDING' && i.status === 'PENDING' && i.debtId === instruction.debtId && i.method === instruction.method),
    );
    if (taken) throw new ConflictError('Payment instruction already exists');
    const stored = { ...copy(instruction), id: this.store.nextId() };
    this.rows.push(stored);
    return this.view(stored);
  }

  async findByCode(companyId: number, code: string): Promise<PaymentInstructionView | null> {
    const found = this.rows.find((i) => i.companyId === companyId && i.code === code);
    return found ? this.view(found) : null;
  }

  async findByProviderReference(provider: string, providerReference: string): Promise<PaymentInstructionView | null> {
    const found = this.rows.find((i) => i.provider === provider && i.providerReference === providerReference);
    return found ? this.view(found) : null;
  }

  async lockById(id: number): Promise<PaymentInstructionView | null> {
    const found = this.rows.find((i) => i.id === id);
    return found ? this.view(found) : null;
  }

  async listOfDebt(companyId: number, debtId: number): Promise<PaymentInstructionView[]> {
    return this.rows.filter((i) => i.companyId === companyId && i.debtId === debtId).sort((a, b) => b.id - a.id).map((i) => this.view(i));
  }

  async listPendingOfDebts(companyId: number, debtIds: number[]): Promise<PaymentInstructionView[]> {
    return this.rows
      .filter((i) => i.companyId === companyId && i.status === 'PENDING' && debtIds.includes(i.debtId))
      .sort((a, b) => b.id - a.id)
      .map((i) => this.view(i));
  }

  async update(id: number, changes: PaymentInstructionChanges): Promise<PaymentInstructionView> {
    const row = this.rows.find((i) => i.id === id);
    if (!row) throw new Error(`payment instruction ${id} not found`);
    for (const [key, value] of Object.entries(changes)) if (value !== undefined) (row as unknown as Record<string, unknown>)[key] = copy(value);
    return this.view(row);
  }

  async cancelPendingOfDebts(debtIds: number[], at: Date, keep?: number): Promise<PaymentInstructionView[]> {
    return this.transition((i) => debtIds.includes(i.debtId) && i.status === 'PENDING' && i.id !== keep, 'CANCELLED', at);
  }

  async markExpired(organizationId: number, now: Date, at: Date, limit: number): Promise<PaymentInstructionView[]> {
    const due = this.rows
      .filter((i) => i.organizationId === organizationId && i.status === 'PENDING' && i.expiresAt.getTime() <= now.getTime())
      .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime() || a.id - b.id)
      .slice(0, limit)
      .map((i) => i.id);
    return this.transition((i) => due.includes(i.id), 'EXPIRED', at);
  }

  private transition(match: (i: PaymentInstruction) => boolean, status: 'CANCELLED' | 'EXPIRED', at: Date): PaymentInstructionView[] {
    const moved = this.rows.filter(match).sort((a, b) => a.id - b.id);
    for (const row of moved) Object.assign(row, { status, updatedAt: new Date(at.getTime()) });
    return moved.map((i) => this.view(i));
  }

  private view(i: PaymentInstruction): PaymentInstructionView {
    const debt = this.store.tables.debts.find((d) => d.id === i.debtId);
    return { ...copy(i), debtExternalRequestId: debt?.externalRequestId ?? '' };
  }
}
