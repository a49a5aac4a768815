import type { DebitAttempt, DebitAttemptStatus } from '../../../internal/direct-debit/debit-attempt';
import { ConflictError } from '../../../internal/shared/errors';
import type { DebitAttemptRepository, NewDebitAttempt } from '../../../ports/debit-attempt-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryDebitAttemptRepository implements DebitAttemptRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): DebitAttempt[] {
    return this.store.tables.debitAttempts;
  }

  async insert(attempt: NewDebitAttempt): Promise<DebitAttempt> {
    if (this.rows.some((a) => a.debtId === attempt.debtId)) throw new ConflictError('Debit attempt already exists');
    const stored = { ...copy(attempt), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async complete(id: number, status: Exclude<DebitAttemptStatus, 'PENDING'>, failureCode: string | null, at: Date): Promise<DebitAttempt> {
    const row = this.rows.find((a) => a.id === id);
    if (!row) throw new Error(`debit attempt ${id} vanished`);
    Object.assign(row, { status, failureCode, completedAt: at });
    return copy(row);
  }

  async findByDebt(debtId: number): Promise<DebitAttempt | null> {
    return copy(this.rows.find((a) => a.debtId === debtId) ?? null);
  }

  async lockPending(id: number): Promise<DebitAttempt | null> {
    // Memory units of work run one at a time: reading inside one is already exclusive.
    return copy(this.rows.find((a) => a.id === id && a.status === 'PENDING') ?? null);
  }

  async stalePending(before: Date, limit: number): Promise<DebitAttempt[]> {
    return copy(this.rows.filter((a) => a.status === 'PENDING' && a.createdAt.getTime() < before.getTime()).slice(0, limit));
  }
}
