import type { Knex } from 'knex';
import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { EnabledEvents, WebhookEndpoint } from '../../../internal/webhooks/webhook-endpoint';
import type { SecretBox } from '../../../ports/secret-box';
import type { NewWebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import { insertedId } from './shared-transaction';
import { lockRowId } from './row-lock';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, any>;

/**
 * Webhook endpoints, their signing secrets sealed by the SecretBox (AES-256-GCM under
 * SECRETS_KEY): `secret` and `previous_secret` never hold a plaintext written by this version.
 * A row written before encryption (a bare `whsec_…`) still reads, until resealWebhookSecrets
 * (run after every migration) encrypts it.
 */
export class KnexWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(
    private readonly db: Knex | Knex.Transaction,
    private readonly secrets: SecretBox,
  ) {}

  async insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const id = await insertedId(this.db, 'webhook_endpoints', {
      organization_id: endpoint.organizationId,
      company_id: endpoint.companyId,
      code: endpoint.code,
      url: endpoint.url,
      enabled_events: JSON.stringify(endpoint.enabledEvents),
      enabled: endpoint.enabled,
      description: endpoint.description,
      secret: this.secrets.seal(endpoint.secret, secretContext(endpoint.code)),
      previous_secret: endpoint.previousSecret === null ? null : this.secrets.seal(endpoint.previousSecret, secretContext(endpoint.code)),
      previous_secret_expires_at: toMillisOrNull(endpoint.previousSecretExpiresAt),
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
    return rows.map((row: Row) => this.toEndpoint(row));
  }

  async update(companyId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
    const patch: Row = { updated_at: toMillis(changes.updatedAt) };
    if (changes.url !== undefined) patch.url = changes.url;
    if (changes.enabledEvents !== undefined) patch.enabled_events = JSON.stringify(changes.enabledEvents);
    if (changes.enabled !== undefined) patch.enabled = changes.enabled;
    if (changes.description !== undefined) patch.description = changes.description;
    if (changes.secret !== undefined || changes.previousSecret !== undefined) {
      const [{ code }] = await this.db('webhook_endpoints').select('code').where({ company_id: companyId, id });
      if (changes.secret !== undefined) patch.secret = this.secrets.seal(changes.secret, secretContext(code));
      if (changes.previousSecret !== undefined) patch.previous_secret = changes.previousSecret === null ? null : this.secrets.seal(changes.previousSecret, secretContext(code));
    }
    if (changes.previousSecretExpiresAt !== undefined) patch.previous_secret_expires_at = toMillisOrNull(changes.previousSecretExpiresAt);
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
    return { items: rows.map((row: Row) => this.toEndpoint(row)), total: Number(count?.n ?? 0), capped: false };
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
    return rows.map((row: Row) => this.toEndpoint(row));
  }

  /** `deleted_at: null` in `where` reads as IS NULL. */
  private async first(where: Row): Promise<WebhookEndpoint | null> {
    const row = await this.db('webhook_endpoints').where(where).first();
    return row ? this.toEndpoint(row) : null;
  }

  private toEndpoint(row: Row): WebhookEndpoint {
    return {
      id: Number(row.id),
      organizationId: Number(row.organization_id),
      companyId: Number(row.company_id),
      code: row.code,
      url: row.url,
      enabledEvents: JSON.parse(row.enabled_events) as EnabledEvents,
      enabled: bool(row.enabled),
      description: row.description ?? null,
      secret: openSecret(this.secrets, row.secret, row.code),
      previousSecret: row.previous_secret == null ? null : openSecret(this.secrets, row.previous_secret, row.code),
      previousSecretExpiresAt: fromMillisOrNull(row.previous_secret_expires_at),
      sinceEventRowId: Number(row.since_event_row_id),
      createdAt: fromMillis(row.created_at),
      updatedAt: fromMillis(row.updated_at),
      deletedAt: fromMillisOrNull(row.deleted_at),
    };
  }
}

/** What a sealed secret is bound to: its endpoint (a sealed value copied to another row does not open). */
function secretContext(code: string): string {
  return `webhook_endpoints:${code}`;
}

/** A secret stored before encryption: exactly what creation made, nothing else passes as plaintext. */
const LEGACY_PLAINTEXT = /^whsec_[A-Za-z0-9]{32}$/;

function openSecret(secrets: SecretBox, stored: string, code: string): string {
  if (secrets.isSealed(stored)) return secrets.open(stored, secretContext(code));
  if (LEGACY_PLAINTEXT.test(stored)) return stored;
  throw new Error(`webhook endpoint ${code} has a stored secret that is neither sealed nor a secret from before encryption`);
}

/** Rows looked at per read while resealing. */
const RESEAL_BATCH = 500;

/**
 * Encrypts every secret still stored in plaintext (rows from before encryption) and seals again
 * under the current key every secret sealed with an older one (after SECRETS_KEY gained a new
 * first key), deleted endpoints included. Runs after migrations (`npm run migrate`, `npm start`
 * with MIGRATE_ON_START, the admin CLI); each value is replaced only if the row still holds what
 * was read, so processes doing it at once, or writing meanwhile, lose nothing. A value sealed with
 * a key that is not loaded stops it (SECRETS_KEY lost a key still in use: fail before serving);
 * one that does not authenticate (altered) is left as is and fails where it is used. Returns the
 * secrets sealed.
 */
export async function resealWebhookSecrets(db: Knex, secrets: SecretBox): Promise<number> {
  let sealed = 0;
  for (let after = 0; ; ) {
    const rows: Row[] = await db('webhook_endpoints').select('id', 'code', 'secret', 'previous_secret').where('id', '>', after).orderBy('id').limit(RESEAL_BATCH);
    if (rows.length === 0) return sealed;
    after = Number(rows[rows.length - 1]!.id);
    for (const row of rows) {
      for (const column of ['secret', 'previous_secret'] as const) {
        const value: string | null = row[column] ?? null;
        if (value === null) continue;
        let plaintext: string;
        if (!secrets.isSealed(value)) {
          if (!LEGACY_PLAINTEXT.test(value)) continue; // not a secret this service wrote: fails where it is read
          plaintext = value;
        } else {
          const key = secrets.keyOf(value);
          if (key === 'current') continue;
          if (key === 'unknown') throw new Error(`webhook endpoint ${row.code}: ${column} is sealed with a key SECRETS_KEY no longer holds; add it back (after the current key)`);
          try {
            plaintext = secrets.open(value, secretContext(row.code));
          } catch {
            continue; // altered: fails where it is read
          }
        }
        const resealed = secrets.seal(plaintext, secretContext(row.code));
        sealed += await db('webhook_endpoints').where({ id: row.id, [column]: value }).update({ [column]: resealed });
      }
    }
  }
}
