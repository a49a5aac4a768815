import type { Knex } from 'knex';
import type { PaymentMethodReference, PaymentMethodStatus, PaymentMethodType } from '../../../internal/direct-debit/payment-method';
import type { NewPaymentMethod, PaymentMethodRepository } from '../../../ports/payment-method-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

/** The columns a payment method is read from (the debts repository joins them too). */
export const PAYMENT_METHOD_COLUMNS = [
  'id', 'organization_id', 'company_id', 'code', 'external_client_id', 'type', 'status', 'masked_reference', 'default_of', 'created_at',
] as const;

export class KnexPaymentMethodRepository implements PaymentMethodRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(method: NewPaymentMethod): Promise<PaymentMethodReference> {
    const row = {
      organization_id: method.organizationId,
      company_id: method.companyId,
      code: method.code,
      external_client_id: method.externalClientId,
      type: method.type,
      status: method.status,
      masked_reference: method.maskedReference,
      default_of: method.isDefault ? method.externalClientId : null,
      created_at: toMillis(method.createdAt),
    };
    const id = await insertedIdOrConflict(this.db, 'Default payment method', 'payment_methods', row);
    return toPaymentMethod({ ...row, id });
  }

  async clearDefault(companyId: number, externalClientId: string): Promise<void> {
    await this.db('payment_methods').where({ company_id: companyId, default_of: externalClientId }).update({ default_of: null });
  }

  async listOfClient(companyId: number, externalClientId: string): Promise<PaymentMethodReference[]> {
    const rows = await this.db('payment_methods').where({ company_id: companyId, external_client_id: externalClientId }).orderBy('id');
    return rows.map(toPaymentMethod);
  }

  async findDefault(companyId: number, externalClientId: string): Promise<PaymentMethodReference | null> {
    const row = await this.db('payment_methods').where({ company_id: companyId, default_of: externalClientId }).first();
    return row ? toPaymentMethod(row) : null;
  }

  async findDefaults(companyId: number, externalClientIds: string[]): Promise<PaymentMethodReference[]> {
    if (externalClientIds.length === 0) return [];
    const rows = await this.db('payment_methods').where('company_id', companyId).whereIn('default_of', externalClientIds);
    return rows.map(toPaymentMethod);
  }

  async findById(companyId: number, id: number): Promise<PaymentMethodReference | null> {
    const row = await this.db('payment_methods').where({ company_id: companyId, id }).first();
    return row ? toPaymentMethod(row) : null;
  }

  async deactivate(companyId: number, id: number): Promise<PaymentMethodReference> {
    await this.db('payment_methods').where({ company_id: companyId, id }).update({ status: 'INACTIVE', default_of: null });
    return toPaymentMethod(await this.db('payment_methods').where({ company_id: companyId, id }).first());
  }
}

export function toPaymentMethod(row: Row): PaymentMethodReference {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    externalClientId: row.external_client_id,
    type: row.type as PaymentMethodType,
    isDefault: row.default_of !== null && row.default_of !== undefined,
    status: row.status as PaymentMethodStatus,
    maskedReference: row.masked_reference ?? null,
    createdAt: fromMillis(row.created_at),
  };
}
