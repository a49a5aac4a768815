import type { Knex } from 'knex';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { EnabledEvents, WebhookEndpoint } from '../../../internal/webhooks/webhook-endpoint';
import type { NewWebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import { lockRowId } from './row-lock';
import { bool, fromMillis, fromMillisOrNull, toMillis } from './rows/columns';

type Row = Record<string, any>;

export class KnexWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const [id] = await this.db('webhook_endpoints').insert({
      organization_id: endpoint.organizationId,
      company_id: endpoint.companyId,
      code: endpoint.code,
      url: endpoint.url,
      enabled_events: JSON.stringify(endpoint.enabledEvents),
      enabled: endpoint.enabled,
      description: endpoint.description,
      secret: endpoint.secret,
      since_event_row_id: endpoint.sinceEventRowId,
      created_at: toMillis(endpoint.createdAt),
      updated_at: toMillis(endpoint.updatedAt),
      deleted_at: null,
    });
    return { ...endpoint, id: Number(id), deletedAt: null };
  }

  findByCode(companyId: number, code: string): Promise<WebhookEndpoint | null> {
    return this.first({ company_id: companyId, code, deleted_at: null });
  }

  async lockByCode(companyId: number, code: string): Promise<WebhookEndpoint | null> {
    const id = await lockRowId(this.db, 'webhook_endpoints', { company_id: companyId, code, deleted_at: null });
    return id === null ? null : this.first({ id });
  }

  async findByIds(ids: number[]): Promise<WebhookEndpoint[]> {
    if (ids.length === 0) return [];
    const rows = await this.db('webhook_endpoints').whereIn('id', [...new Set(ids)]).orderBy('id');
    return rows.map(toEndpoint);
  }

  async update(companyId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.url !== undefined) patch.url = changes.url;
    if (changes.enabledEvents !== undefined) patch.enabled_events = JSON.stringify(changes.enabledEvents);
    if (changes.enabled !== undefined) patch.enabled = changes.enabled;
    if (changes.description !== undefined) patch.description = changes.description;
    await this.db('webhook_endpoints').where({ company_id: companyId, id }).update(patch);
    const updated = await this.first({ company_id: companyId, id });
    if (!updated) throw new Error(`webhook endpoint ${id} vanished`);
    return updated;
  }

  async markDeleted(companyId: number, id: number, at: Date): Promise<void> {
    await this.db('webhook_endpoints').where({ company_id: companyId, id }).update({ deleted_at: toMillis(at), updated_at: toMillis(at) });
  }

  async list(companyId: number, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const query = this.db('webhook_endpoints').where({ company_id: companyId }).whereNull('deleted_at');
    const [rows, [count]] = await Promise.all([
      query.clone().select('*').orderBy('id', 'desc').limit(page.limit).offset(offsetOf(page)),
      query.clone().count<{ n: number }[]>({ n: '*' }),
    ]);
    return { items: rows.map(toEndpoint), total: Number(count?.n ?? 0), capped: false };
  }

  async countLive(companyId: number): Promise<number> {
    const [count] = await this.db('webhook_endpoints').where({ company_id: companyId }).whereNull('deleted_at').count<{ n: number }[]>({ n: '*' });
    return Number(count?.n ?? 0);
  }

  async anyEnabled(): Promise<boolean> {
    return (await this.db('webhook_endpoints').select('id').whereNull('deleted_at').where('enabled', true).first()) !== undefined;
  }

  async enabledOfCompanies(companyIds: number[]): Promise<WebhookEndpoint[]> {
    if (companyIds.length === 0) return [];
    const rows = await this.db('webhook_endpoints').whereIn('company_id', companyIds).whereNull('deleted_at').where('enabled', true).orderBy('id');
    return rows.map(toEndpoint);
  }

  /** `deleted_at: null` in `where` reads as IS NULL. */
  private async first(where: Row): Promise<WebhookEndpoint | null> {
    const row = await this.db('webhook_endpoints').where(where).first();
    return row ? toEndpoint(row) : null;
  }
}

function toEndpoint(row: Row): WebhookEndpoint {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    code: row.code,
    url: row.url,
    enabledEvents: JSON.parse(row.enabled_events) as EnabledEvents,
    enabled: bool(row.enabled),
    description: row.description ?? null,
    secret: row.secret,
    sinceEventRowId: Number(row.since_event_row_id),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
    deletedAt: fromMillisOrNull(row.deleted_at),
  };
}
