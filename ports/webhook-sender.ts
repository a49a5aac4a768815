/** One signed POST of an event to an endpoint. */
export interface WebhookRequest {
  url: string;
  /** The event object as JSON: the exact bytes that are signed and sent. */
  body: string;
  secret: string;
  /** Unix seconds, signed with the body (`t=` of X-Signature). */
  timestamp: number;
  eventId: string;
}

/** What came back: a status code, or the error that stopped the request. Never throws. */
export interface WebhookResponse {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Sends webhooks over HTTP (adapters/webhooks/http-webhook-sender.ts); tests inject failures. */
export interface WebhookSender {
  send(request: WebhookRequest): Promise<WebhookResponse>;
}
