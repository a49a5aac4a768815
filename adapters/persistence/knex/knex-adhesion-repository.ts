import type { Knex } from 'knex';
import type { Adhesion, AdhesionStatus } from '../../../internal/direct-debit/adhesion';
import type { AdhesionRepository, AdhesionView, NewAdhesion } from '../../../ports/adhesion-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { lockRowId } from './row-lock';
import { bool, fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

export class KnexAdhesionRepository implements AdhesionRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(adhesion: NewAdhesion): Promise<Adhesion> {
    const id = await insertedIdOrConflict(this.db, 'Adhesion', 'adhesions', {
      organization_id: adhesion.organizationId,
      company_id: adhesion.companyId,
      code: adhesion.code,
      external_client_id: adhesion.externalClientId,
      product_id: adhesion.productId,
      status: adhesion.status,
      created_at: toMillis(adhesion.createdAt),
      updated_at: toMillis(adhesion.updatedAt),
    });
    return { ...adhesion, id: Number(id) };
  }

  find(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null> {
    return this.first({ 'a.company_id': companyId, 'a.external_client_id': externalClientId, 'a.product_id': productId });
  }

  async lock(companyId: number, externalClientId: string, productId: number): Promise<AdhesionView | null> {
    const id = await lockRowId(this.db, 'adhesions', { company_id: companyId, external_client_id: externalClientId, product_id: productId });
    return id === null ? null : this.first({ 'a.id': id });
  }

  async setStatus(companyId: number, id: number, status: AdhesionStatus, at: Date): Promise<AdhesionView> {
    await this.db('adhesions').where({ company_id: companyId, id }).update({ status, updated_at: toMillis(at) });
    const view = await this.first({ 'a.id': id });
    if (!view) throw new Error(`adhesion ${id} vanished`);
    return view;
  }

  private async first(where: Row): Promise<AdhesionView | null> {
    const row = await this.db('adhesions as a')
      .join('products as p', 'p.id', 'a.product_id')
      .where(where)
      .select('a.*', 'p.name as product_name', 'p.active as product_active')
      .first();
    return row ? toAdhesion(row) : null;
  }
}

function toAdhesion(row: Row): AdhesionView {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    externalClientId: row.external_client_id,
    productId: Number(row.product_id),
    status: row.status as AdhesionStatus,
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
    product: { id: Number(row.product_id), name: row.product_name, active: bool(row.product_active) },
  };
}
