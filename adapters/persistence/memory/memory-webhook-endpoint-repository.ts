import { offsetOf, type Page, type PageRequest } from '../../../internal/shared/page';
import type { WebhookEndpoint } from '../../../internal/webhooks/webhook-endpoint';
import type { NewWebhookEndpoint, WebhookEndpointChanges, WebhookEndpointRepository } from '../../../ports/webhook-endpoint-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryWebhookEndpointRepository implements WebhookEndpointRepository {
  constructor(private readonly store: MemoryStore) {}

  private get rows(): WebhookEndpoint[] {
    return this.store.tables.webhookEndpoints;
  }

  async insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint> {
    const stored: WebhookEndpoint = { ...copy(endpoint), id: this.store.nextId(), deletedAt: null };
    this.rows.push(stored);
    return copy(stored);
  }

  async findByCode(companyId: number, code: string): Promise<WebhookEndpoint | null> {
    const found = this.rows.find((e) => e.companyId === companyId && e.code === code && e.deletedAt === null);
    return found ? copy(found) : null;
  }

  lockByCode(companyId: number, code: string): Promise<WebhookEndpoint | null> {
    // Memory units of work run one at a time: reading inside one is already exclusive.
    return this.findByCode(companyId, code);
  }

  async findByIds(ids: number[]): Promise<WebhookEndpoint[]> {
    const wanted = new Set(ids);
    return copy(this.rows.filter((e) => wanted.has(e.id)).sort((a, b) => a.id - b.id));
  }

  async update(companyId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint> {
    const endpoint = this.rows.find((e) => e.companyId === companyId && e.id === id);
    if (!endpoint) throw new Error(`webhook endpoint ${id} vanished`);
    if (changes.url !== undefined) endpoint.url = changes.url;
    if (changes.enabledEvents !== undefined) endpoint.enabledEvents = copy(changes.enabledEvents);
    if (changes.enabled !== undefined) endpoint.enabled = changes.enabled;
    if (changes.description !== undefined) endpoint.description = changes.description;
    // Memory is not at rest: the secrets stay in plaintext here.
    if (changes.secret !== undefined) endpoint.secret = changes.secret;
    if (changes.previousSecret !== undefined) endpoint.previousSecret = changes.previousSecret;
    if (changes.previousSecretExpiresAt !== undefined) endpoint.previousSecretExpiresAt = changes.previousSecretExpiresAt;
    endpoint.updatedAt = changes.updatedAt;
    return copy(endpoint);
  }

  async markDeleted(companyId: number, id: number, at: Date): Promise<void> {
    const endpoint = this.rows.find((e) => e.companyId === companyId && e.id === id);
    if (endpoint) {
      endpoint.deletedAt = at;
      endpoint.updatedAt = at;
    }
  }

  async list(companyId: number, page: PageRequest): Promise<Page<WebhookEndpoint>> {
    const live = this.rows.filter((e) => e.companyId === companyId && e.deletedAt === null).sort((a, b) => b.id - a.id);
    const start = offsetOf(page);
    return { items: copy(live.slice(start, start + page.limit)), total: live.length, capped: false };
  }

  async countLive(companyId: number): Promise<number> {
    return this.rows.filter((e) => e.companyId === companyId && e.deletedAt === null).length;
  }

  async anyEnabled(): Promise<boolean> {
    return this.rows.some((e) => e.deletedAt === null && e.enabled);
  }

  async enabledOfCompanies(companyIds: number[]): Promise<WebhookEndpoint[]> {
    const wanted = new Set(companyIds);
    return copy(this.rows.filter((e) => wanted.has(e.companyId) && e.deletedAt === null && e.enabled).sort((a, b) => a.id - b.id));
  }
}
