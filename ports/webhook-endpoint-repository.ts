import type { Page, PageRequest } from '../internal/shared/page';
import type { EnabledEvents, WebhookEndpoint } from '../internal/webhooks/webhook-endpoint';

export type NewWebhookEndpoint = Omit<WebhookEndpoint, 'id' | 'deletedAt'>;

export interface WebhookEndpointChanges {
  url?: string;
  enabledEvents?: EnabledEvents;
  enabled?: boolean;
  description?: string | null;
  /** A rotation: the new secret, and the previous one with the end of its grace period (or nulls). */
  secret?: string;
  previousSecret?: string | null;
  previousSecretExpiresAt?: Date | null;
  updatedAt: Date;
}

/**
 * Webhook endpoints of a company. Reads by code or list never return deleted endpoints. The
 * signing secrets (`secret`, `previousSecret`) go in and come out in plaintext; a database
 * adapter keeps them encrypted (SecretBox).
 */
export interface WebhookEndpointRepository {
  insert(endpoint: NewWebhookEndpoint): Promise<WebhookEndpoint>;
  findByCode(companyId: number, code: string): Promise<WebhookEndpoint | null>;
  /** Reads the endpoint and locks it until the transaction ends. */
  lockByCode(companyId: number, code: string): Promise<WebhookEndpoint | null>;
  /** By internal id, deleted ones included (what deliveries refer to). */
  findByIds(ids: number[]): Promise<WebhookEndpoint[]>;
  update(companyId: number, id: number, changes: WebhookEndpointChanges): Promise<WebhookEndpoint>;
  markDeleted(companyId: number, id: number, at: Date): Promise<void>;
  /** Newest first. */
  list(companyId: number, page: PageRequest): Promise<Page<WebhookEndpoint>>;
  countLive(companyId: number): Promise<number>;
  /** True when any company has an enabled, live endpoint (else the fan-out has nothing to do). */
  anyEnabled(): Promise<boolean>;
  /** The enabled, live endpoints of these companies (the fan-out's targets). */
  enabledOfCompanies(companyIds: number[]): Promise<WebhookEndpoint[]>;
}
