import type { TransportError } from '../internal/webhooks/attempt-error';

/** One signed POST of an event to an endpoint. */
export interface WebhookRequest {
  url: string;
  /** The event object as JSON: the exact bytes that are signed and sent. */
  body: string;
  /**
   * The secrets to sign with, the current one first: one `v1=` signature each in the header
   * (two while a rotated secret's grace period runs).
   */
  secrets: readonly string[];
  /** Unix seconds, signed with the body (`t=` of X-Signature). */
  timestamp: number;
  eventId: string;
}

/**
 * What came back: a status code, or the class of the error that stopped the request (never the
 * transport's message, which names addresses). Never throws.
 */
export interface WebhookResponse {
  statusCode: number | null;
  error: TransportError | null;
  durationMs: number;
}

/** Sends webhooks over HTTP (adapters/webhooks/http-webhook-sender.ts); tests inject failures. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
