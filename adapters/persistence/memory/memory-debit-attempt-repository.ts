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
    if (this.rows.some((a) => a.debtId === attempt.debtId && a.attemptNumber === attempt.attemptNumber)) throw new ConflictError('Debit attempt already exists');
    const stored = { ...copy(attempt), id: this.store.nextId() };
    this.rows.push(stored);
    return copy(stored);
  }

  async complete(id: number, status: Exclude<DebitAttemptStatus, 'PENDING'>, failureCode: string | null, at: Date, retryOn: string | null = null): Promise<DebitAttempt> {
    const row = this.row(id);
    Object.assign(row, { status, failureCode, retryOn, completedAt: at });
    return copy(row);
  }

  async clearRetry(id: number): Promise<void> {
    this.row(id).retryOn = null;
  }

  async listByDebt(debtId: number): Promise<DebitAttempt[]> {
    return copy(this.rows.filter((a) => a.debtId === debtId).sort((a, b) => a.attemptNumber - b.attemptNumber));
  }

  async lockPending(id: number): Promise<DebitAttempt | null> {
    // Memory units of work run one at a time: reading inside one is already exclusive.
    return copy(this.rows.find((a) => a.id === id && a.status === 'PENDING') ?? null);
  }

  async stalePending(organizationId: number, before: Date, limit: number): Promise<DebitAttempt[]> {
    return copy(
      this.rows.filter((a) => a.organizationId === organizationId && a.status === 'PENDING' && a.createdAt.getTime() < before.getTime()).slice(0, limit),
    );
  }

  private row(id: number): DebitAttempt {
    const row = this.rows.find((a) => a.id === id);
    if (!row) throw new Error(`debit attempt ${id} vanished`);
    return row;
  }
}
