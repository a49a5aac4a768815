import type { Knex } from 'knex';
import type { DebitAttempt, DebitAttemptStatus } from '../../../internal/direct-debit/debit-attempt';
import type { DebitAttemptRepository, NewDebitAttempt } from '../../../ports/debit-attempt-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { lockRowId } from './row-lock';
import { fromMillis, fromMillisOrNull, toMillis } from './rows/columns';

type Row = Record<string, any>;

export class KnexDebitAttemptRepository implements DebitAttemptRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(attempt: NewDebitAttempt): Promise<DebitAttempt> {
    const row = {
      organization_id: attempt.organizationId,
      company_id: attempt.companyId,
      code: attempt.code,
      debt_id: attempt.debtId,
      attempt_number: attempt.attemptNumber,
      payment_method_id: attempt.paymentMethodId,
      amount_cents: attempt.amountCents,
      status: attempt.status,
      failure_code: attempt.failureCode,
      retry_on: attempt.retryOn,
      created_at: toMillis(attempt.createdAt),
      completed_at: attempt.completedAt ? toMillis(attempt.completedAt) : null,
    };
    const id = await insertedIdOrConflict(this.db, 'Debit attempt', 'debit_attempts', row);
    return toAttempt({ ...row, id });
  }

  async complete(id: number, status: Exclude<DebitAttemptStatus, 'PENDING'>, failureCode: string | null, at: Date, retryOn: string | null = null): Promise<DebitAttempt> {
    await this.db('debit_attempts').where({ id }).update({ status, failure_code: failureCode, retry_on: retryOn, completed_at: toMillis(at) });
    return toAttempt(await this.db('debit_attempts').where({ id }).first());
  }

  async clearRetry(id: number): Promise<void> {
    await this.db('debit_attempts').where({ id }).update({ retry_on: null });
  }

  async listByDebt(debtId: number): Promise<DebitAttempt[]> {
    const rows = await this.db('debit_attempts').where({ debt_id: debtId }).orderBy('attempt_number');
    return rows.map(toAttempt);
  }

  async lockPending(id: number): Promise<DebitAttempt | null> {
    const locked = await lockRowId(this.db, 'debit_attempts', { id, status: 'PENDING' });
    if (locked === null) return null;
    return toAttempt(await this.db('debit_attempts').where({ id }).first());
  }

  async stalePending(organizationId: number, before: Date, limit: number): Promise<DebitAttempt[]> {
    const rows = await this.db('debit_attempts')
      .where({ status: 'PENDING', organization_id: organizationId })
      .where('created_at', '<', toMillis(before))
      .orderBy('id')
      .limit(limit);
    return rows.map(toAttempt);
  }
}

function toAttempt(row: Row): DebitAttempt {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    debtId: Number(row.debt_id),
    attemptNumber: Number(row.attempt_number),
    paymentMethodId: Number(row.payment_method_id),
    amountCents: Number(row.amount_cents),
    status: row.status as DebitAttemptStatus,
    failureCode: row.failure_code ?? null,
    retryOn: row.retry_on ?? null,
    createdAt: fromMillis(row.created_at),
    completedAt: fromMillisOrNull(row.completed_at),
  };
}
