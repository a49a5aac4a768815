import { EVENT_TYPES, type EventType } from '../events/event-type';
import { InvalidRequestError } from '../shared/errors';

/** Every event type, or all of them (present and future) with `["*"]`. */
export type EnabledEvents = EventType[] | ['*'];

/** Where a company receives its events (decisions.md section 6). */
export interface WebhookEndpoint {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `whe_` prefix. */
  code: string;
  url: string;
  enabledEvents: EnabledEvents;
  enabled: boolean;
  description: string | null;
  /** Signs every delivery; shown only in the creation and rotation answers. Encrypted at rest. */
  secret: string;
  /**
   * The secret before the last rotation: it signs beside `secret` (a second `v1`) until
   * `previousSecretExpiresAt`, so receivers can switch without losing deliveries. Encrypted at rest.
   */
  previousSecret: string | null;
  /** Real time (like the signature's timestamp), not the sandbox clock; null without a previous secret. */
  previousSecretExpiresAt: Date | null;
  /** The event log's last row when the endpoint was created: older events are not sent to it. */
  sinceEventRowId: number;
  createdAt: Date;
  updatedAt: Date;
  /** Deleted endpoints are gone from the API but stay named by their past deliveries. */
  deletedAt: Date | null;
}

export const WEBHOOK_ENDPOINT_ID_PREFIX = 'whe_';
/**
 * The type of the event POST /webhook-endpoints/{id}/test sends. Not an event type of the log:
 * it cannot be subscribed to, is never written, listed or retried.
 */
export const WEBHOOK_TEST_EVENT_TYPE = 'webhook.test';
export const WEBHOOK_ENDPOINT_CODE_LENGTH = 24;
export const WEBHOOK_SECRET_PREFIX = 'whsec_';
export const WEBHOOK_SECRET_LENGTH = 32;
/** Endpoints a company may have at once (deleted ones do not count). */
export const MAX_ENDPOINTS_PER_COMPANY = 16;
export const MAX_URL_LENGTH = 2048;

export function webhookEndpointIdOf(endpoint: Pick<WebhookEndpoint, 'code'>): string {
  return WEBHOOK_ENDPOINT_ID_PREFIX + endpoint.code;
}

export function webhookEndpointCodeFromId(id: string): string | null {
  const code = id.startsWith(WEBHOOK_ENDPOINT_ID_PREFIX) ? id.slice(WEBHOOK_ENDPOINT_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9]{1,32}$/.test(code) ? code : null;
}

/** True when the endpoint wants events of this type. */
export function subscribes(endpoint: Pick<WebhookEndpoint, 'enabledEvents'>, type: EventType): boolean {
  const events = endpoint.enabledEvents as string[];
  return events.includes('*') || events.includes(type);
}

/** `["*"]` alone, or distinct event types; anything else is 400 on `enabledEvents`. */
export function parseEnabledEvents(value: readonly string[]): EnabledEvents {
  const problem = (issue: string) => InvalidRequestError.field('enabledEvents', issue);
  if (value.length === 0) throw problem('must list at least one event type, or be ["*"]');
  if (value.includes('*')) {
    if (value.length > 1) throw problem('"*" must be the only entry');
    return ['*'];
  }
  const unknown = value.find((v) => !(EVENT_TYPES as readonly string[]).includes(v));
  if (unknown !== undefined) throw problem(`${unknown} is not an event type`);
  if (new Set(value).size !== value.length) throw problem('must not repeat an event type');
  return [...value] as EventType[];
}

/**
 * The shape every environment requires of a webhook url: an absolute http(s) URL with a host,
 * without credentials (`https://user:pw@host`: they would travel in every delivery and show in
 * every read of the endpoint) and without a fragment; production also requires https. Where it
 * may point (a public address) is the WebhookUrlPolicy port's. Returns the url as sent; throws
 * 400 on `url`.
 */
export function parseWebhookUrl(text: string, requireHttps: boolean): string {
  const problem = (issue: string) => InvalidRequestError.field('url', issue);
  if (text.length > MAX_URL_LENGTH) throw problem(`must be at most ${MAX_URL_LENGTH} characters`);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw problem('must be an absolute http or https URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw problem('must be an http or https URL');
  if (requireHttps && url.protocol !== 'https:') throw problem('must be an https URL');
  if (!url.hostname) throw problem('must name a host');
  if (url.username || url.password) throw problem('must not contain credentials (user:password@)');
  if (url.hash) throw problem('must not have a fragment');
  return text;
}
