import type { Knex } from 'knex';
import type {
  Resolution, ResolutionAction, UnappliedReason, UnappliedStatus,
} from '../../../internal/payment-instructions/unapplied-payment';
import type { Currency } from '../../../internal/shared/currency';
import { offsetOf, type Page, type PageRequest, totalFromPage } from '../../../internal/shared/page';
import type {
  NewUnappliedPayment, OpenUnappliedTotals, UnappliedPaymentRepository, UnappliedPaymentView,
} from '../../../ports/unapplied-payment-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { lockRowId } from './row-lock';
import { fromMillis, fromMillisOrNull, toMillis } from './rows/columns';

type Row = Record<string, any>;

const SELECT = [
  'u.*',
  'i.code as instruction_code',
  'd.external_request_id as debt_external_request_id',
  'rd.external_request_id as resolution_debt_external_request_id',
];

export class KnexUnappliedPaymentRepository implements UnappliedPaymentRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(payment: NewUnappliedPayment): Promise<UnappliedPaymentView> {
    const row = {
      organization_id: payment.organizationId,
      company_id: payment.companyId,
      code: payment.code,
      amount_cents: payment.amountCents,
      currency: payment.currency,
      payment_instruction_id: payment.paymentInstructionId,
      debt_id: payment.debtId,
      reason: payment.reason,
      status: payment.status,
      received_at: toMillis(payment.receivedAt),
      resolved_at: payment.resolvedAt ? toMillis(payment.resolvedAt) : null,
      ...resolutionColumns(payment.resolution),
      notification_id: payment.notificationId,
      refund_requested_at: payment.refundRequestedAt ? toMillis(payment.refundRequestedAt) : null,
    };
    const id = await insertedIdOrConflict(this.db, 'Unapplied payment', 'unapplied_payments', row);
    return (await this.first({ 'u.id': Number(id) }))!;
  }

  findByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null> {
    return this.first({ 'u.company_id': companyId, 'u.code': code });
  }

  async lockByCode(companyId: number, code: string): Promise<UnappliedPaymentView | null> {
    const id = await lockRowId(this.db, 'unapplied_payments', { company_id: companyId, code });
    return id === null ? null : this.first({ 'u.id': id });
  }

  async list(companyId: number, filter: { status?: UnappliedStatus }, page: PageRequest): Promise<Page<UnappliedPaymentView>> {
    const matching = () => {
      const q = this.db('unapplied_payments').where('company_id', companyId);
      if (filter.status) q.where('status', filter.status);
      return q;
    };
    // The page's ids from the index first, then only those rows.
    const idRows = await matching()
      .select('id')
      .orderBy([{ column: 'received_at', order: 'desc' }, { column: 'id', order: 'desc' }])
      .limit(page.limit)
      .offset(offsetOf(page));
    const ids = idRows.map((r: { id: number }) => Number(r.id));
    const rows = ids.length ? await this.select().whereIn('u.id', ids) : [];
    const byId = new Map(rows.map((r: Row) => [Number(r.id), toView(r)]));
    const items = ids.map((id: number) => byId.get(id)!);
    const total = totalFromPage(page, items.length) ?? Number((await matching().count({ n: '*' }).first())?.n ?? 0);
    return { items, total, capped: false };
  }

  async resolve(id: number, resolution: Resolution, at: Date): Promise<UnappliedPaymentView> {
    await this.db('unapplied_payments').where({ id }).update({ status: 'RESOLVED', resolved_at: toMillis(at), ...resolutionColumns(resolution) });
    return (await this.first({ 'u.id': id }))!;
  }

  async setRefundRequested(id: number, at: Date | null): Promise<UnappliedPaymentView> {
    await this.db('unapplied_payments').where({ id }).update({ refund_requested_at: at ? toMillis(at) : null });
    return (await this.first({ 'u.id': id }))!;
  }

  async openTotals(): Promise<OpenUnappliedTotals[]> {
    const rows: Row[] = await this.db('unapplied_payments')
      .where('status', 'OPEN')
      .groupBy('currency')
      .select('currency')
      .count({ n: '*' })
      .sum({ cents: 'amount_cents' })
      .orderBy('currency');
    return rows.map((r) => ({ currency: r.currency, count: Number(r.n), amountCents: Number(r.cents ?? 0) }));
  }

  private select() {
    return this.db('unapplied_payments as u')
      .join('payment_instructions as i', 'i.id', 'u.payment_instruction_id')
      .join('debts as d', 'd.id', 'u.debt_id')
      .leftJoin('debts as rd', 'rd.id', 'u.resolution_debt_id')
      .select(SELECT);
  }

  private async first(where: Row): Promise<UnappliedPaymentView | null> {
    const row = await this.select().where(where).first();
    return row ? toView(row) : null;
  }
}

function resolutionColumns(resolution: Resolution | null): Row {
  return {
    resolution_action: resolution?.action ?? null,
    resolution_debt_id: resolution?.debtId ?? null,
    resolution_reference: resolution?.reference ?? null,
  };
}

function toView(row: Row): UnappliedPaymentView {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    amountCents: Number(row.amount_cents),
    currency: row.currency as Currency,
    paymentInstructionId: Number(row.payment_instruction_id),
    debtId: Number(row.debt_id),
    reason: row.reason as UnappliedReason,
    status: row.status as UnappliedStatus,
    receivedAt: fromMillis(row.received_at),
    resolvedAt: fromMillisOrNull(row.resolved_at),
    resolution: row.resolution_action === null
      ? null
      : {
          action: row.resolution_action as ResolutionAction,
          debtId: row.resolution_debt_id === null ? null : Number(row.resolution_debt_id),
          reference: row.resolution_reference ?? null,
        },
    notificationId: Number(row.notification_id),
    refundRequestedAt: fromMillisOrNull(row.refund_requested_at),
    paymentInstructionCode: row.instruction_code,
    debtExternalRequestId: row.debt_external_request_id,
    resolutionDebtExternalRequestId: row.resolution_debt_external_request_id ?? null,
  };
}
