/**
 * Where webhooks may go, beyond the url's shape (checked by the core): in production, a host
 * that resolves only to public addresses. Returns null when the url is acceptable, else why not.
 */
export interface WebhookUrlPolicy {
  check(url: string): Promise<string | null>;
}
