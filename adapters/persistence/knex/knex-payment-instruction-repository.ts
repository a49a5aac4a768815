import type { Knex } from 'knex';
import type {
  InstructionMethod, InstructionStatus, PaymentInstruction, TransferAccountType,
} from '../../../internal/payment-instructions/payment-instruction';
import type { Currency } from '../../../internal/shared/currency';
import type {
  NewPaymentInstruction, PaymentInstructionChanges, PaymentInstructionRepository, PaymentInstructionView,
} from '../../../ports/payment-instruction-repository';
import { sqlDialect } from './dialect';
import { insertedIdOrConflict } from './shared-transaction';
import { lockRowId } from './row-lock';
import { fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, any>;

const SELECT = ['i.*', 'd.external_request_id as debt_external_request_id'];
/** The (debt_id, pending_method) unique index (migration 20261127100000): a debt's instructions. */
const BY_DEBT_INDEX = 'payment_instructions_debt_id_pending_method_unique';

export class KnexPaymentInstructionRepository implements PaymentInstructionRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(instruction: NewPaymentInstruction): Promise<PaymentInstructionView> {
    const id = await insertedIdOrConflict(this.db, 'Payment instruction', 'payment_instructions', toRow(instruction));
    return (await this.first({ 'i.id': Number(id) }))!;
  }

  findByCode(companyId: number, code: string): Promise<PaymentInstructionView | null> {
    return this.first({ 'i.company_id': companyId, 'i.code': code });
  }

  findByProviderReference(provider: string, providerReference: string): Promise<PaymentInstructionView | null> {
    return this.first({ 'i.provider': provider, 'i.provider_reference': providerReference });
  }

  async lockById(id: number): Promise<PaymentInstructionView | null> {
    const locked = await lockRowId(this.db, 'payment_instructions', { id });
    return locked === null ? null : this.first({ 'i.id': locked });
  }

  async listOfDebt(companyId: number, debtId: number): Promise<PaymentInstructionView[]> {
    const rows = await this.select().where({ 'i.company_id': companyId, 'i.debt_id': debtId }).orderBy('i.id', 'desc');
    return rows.map(toView);
  }

  async listPendingOfDebts(companyId: number, debtIds: number[]): Promise<PaymentInstructionView[]> {
    if (debtIds.length === 0) return [];
    const rows = await this.select().where({ 'i.company_id': companyId, 'i.status': 'PENDING' }).whereIn('i.debt_id', debtIds).orderBy('i.id', 'desc');
    return rows.map(toView);
  }

  async update(id: number, changes: PaymentInstructionChanges): Promise<PaymentInstructionView> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.status !== undefined) Object.assign(patch, statusColumns(changes.status));
    if (changes.amountReceivedCents !== undefined) patch.amount_received_cents = changes.amountReceivedCents;
    if (changes.amountAppliedCents !== undefined) patch.amount_applied_cents = changes.amountAppliedCents;
    if (changes.paidAt !== undefined) patch.paid_at = toMillisOrNull(changes.paidAt);
    await this.db('payment_instructions').where({ id }).update(patch);
    const view = await this.first({ 'i.id': id });
    if (!view) throw new Error(`payment instruction ${id} vanished during update`);
    return view;
  }

  async cancelPendingOfDebts(debtIds: number[], at: Date, keep?: number): Promise<PaymentInstructionView[]> {
    if (debtIds.length === 0) return [];
    // Along the debts' own index entries. A locking read on MariaDB/MySQL locks every row it reads
    // on the way, matching or not, and on a small table the planner read the primary key in id
    // order instead: a payment that held its own debt's instruction then waited for every other
    // debt's, so two payments of different debts at once deadlocked (the reliability suite's
    // notifications delivered twice at once answered 500 once the unit of work's retries ran out).
    const dialect = sqlDialect(this.db);
    const query = this.db
      .from(dialect.alongIndex(this.db, 'payment_instructions', 'p', BY_DEBT_INDEX))
      .whereIn('p.debt_id', debtIds)
      .where('p.status', 'PENDING')
      .select('p.id')
      .orderBy('p.id');
    if (keep !== undefined) query.whereNot('p.id', keep);
    dialect.lockRows(query);
    const ids = (await query).map((r: { id: number }) => Number(r.id));
    return this.transition(ids, { ...statusColumns('CANCELLED'), updated_at: toMillis(at) });
  }

  async markExpired(organizationId: number, now: Date, at: Date, limit: number): Promise<PaymentInstructionView[]> {
    const query = this.db('payment_instructions')
      .where({ organization_id: organizationId, status: 'PENDING' })
      .where('expires_at', '<=', toMillis(now))
      .select('id')
      .orderBy('expires_at')
      .orderBy('id')
      .limit(limit);
    sqlDialect(this.db).lockRows(query);
    const ids = (await query).map((r: { id: number }) => Number(r.id));
    return this.transition(ids, { ...statusColumns('EXPIRED'), updated_at: toMillis(at) });
  }

  private async transition(ids: number[], patch: Row): Promise<PaymentInstructionView[]> {
    if (ids.length === 0) return [];
    await this.db('payment_instructions').whereIn('id', ids).update(patch);
    const rows = await this.select().whereIn('i.id', ids).orderBy('i.id');
    return rows.map(toView);
  }

  private select() {
    return this.db('payment_instructions as i').join('debts as d', 'd.id', 'i.debt_id').select(SELECT);
  }

  private async first(where: Row): Promise<PaymentInstructionView | null> {
    const row = await this.select().where(where).first();
    return row ? toView(row) : null;
  }
}

/** The status, and the column that keeps one PENDING instruction per debt and method. */
function statusColumns(status: InstructionStatus, method?: InstructionMethod): Row {
  if (status !== 'PENDING') return { status, pending_method: null };
  return method === undefined ? { status } : { status, pending_method: method };
}

function toRow(i: NewPaymentInstruction): Row {
  return {
    organization_id: i.organizationId,
    company_id: i.companyId,
    debt_id: i.debtId,
    code: i.code,
    method: i.method,
    ...statusColumns(i.status, i.method),
    amount_cents: i.amountCents,
    amount_received_cents: i.amountReceivedCents,
    amount_applied_cents: i.amountAppliedCents,
    currency: i.currency,
    reference: i.reference,
    provider: i.provider,
    provider_reference: i.providerReference,
    account_type: i.transfer?.accountType ?? null,
    account_number: i.transfer?.accountNumber ?? null,
    bank_name: i.transfer?.bankName ?? null,
    beneficiary: i.transfer?.beneficiary ?? null,
    barcode_value: i.cash?.barcodeValue ?? null,
    networks: i.cash ? JSON.stringify(i.cash.networks) : null,
    expires_at: toMillis(i.expiresAt),
    created_at: toMillis(i.createdAt),
    paid_at: toMillisOrNull(i.paidAt),
    updated_at: toMillis(i.updatedAt),
  };
}

function toView(row: Row): PaymentInstructionView {
  const instruction: PaymentInstruction = {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    debtId: Number(row.debt_id),
    code: row.code,
    method: row.method as InstructionMethod,
    status: row.status as InstructionStatus,
    amountCents: Number(row.amount_cents),
    amountReceivedCents: Number(row.amount_received_cents),
    amountAppliedCents: Number(row.amount_applied_cents),
    currency: row.currency as Currency,
    reference: row.reference,
    provider: row.provider,
    providerReference: row.provider_reference,
    transfer: row.account_number === null
      ? null
      : { accountType: row.account_type as TransferAccountType, accountNumber: row.account_number, bankName: row.bank_name, beneficiary: row.beneficiary },
    cash: row.barcode_value === null ? null : { barcodeValue: row.barcode_value, networks: JSON.parse(row.networks) as string[] },
    expiresAt: fromMillis(row.expires_at),
    createdAt: fromMillis(row.created_at),
    paidAt: fromMillisOrNull(row.paid_at),
    updatedAt: fromMillis(row.updated_at),
  };
  return { ...instruction, debtExternalRequestId: row.debt_external_request_id };
}
