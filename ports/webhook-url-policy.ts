/**
 * Where webhooks may go, beyond the url's shape (checked by the core): a host that resolves
 * only to public addresses, in every environment unless WEBHOOK_ALLOW_PRIVATE_URLS=true. Returns null when the url is acceptable, else why not.
 */
export interface WebhookUrlPolicy {
  check(url: string): Promise<string | null>;
}
