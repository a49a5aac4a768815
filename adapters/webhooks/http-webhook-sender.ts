import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../ports/webhook-sender';
import { hostOf, isPrivateAddress } from './private-address';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

/** decisions.md section 6: a 2xx within 10 s is a delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'CollectionsFacade-Webhooks/1';

export interface HttpWebhookSenderOptions {
  timeoutMs?: number;
  /** Production: refuse to connect to a private address, whatever DNS says now. */
  blockPrivateAddresses: boolean;
}

/**
 * POSTs the signed event with node:http(s): no redirects followed (a 3xx is a failed attempt),
 * one connection per attempt, the whole attempt (connect, send, status line) bounded by the
 * timeout. Only the status matters; the answer's body is read and discarded.
 */
export class HttpWebhookSender implements WebhookSender {
  private readonly timeoutMs: number;

  constructor(private readonly options: HttpWebhookSenderOptions) {
    this.timeoutMs = options.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  }

  send(request: WebhookRequest): Promise<WebhookResponse> {
    const started = performance.now();
    const elapsed = () => performance.now() - started;
    return new Promise<WebhookResponse>((resolve) => {
      let settled = false;
      let timer: NodeJS.Timeout | undefined;
      const finish = (response: Omit<WebhookResponse, 'durationMs'>) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        resolve({ ...response, durationMs: elapsed() });
      };
      let url: URL;
      try {
        url = new URL(request.url);
      } catch {
        return finish({ statusCode: null, error: 'invalid url' });
      }
      if (this.options.blockPrivateAddresses && net.isIP(hostOf(url)) && isPrivateAddress(hostOf(url))) {
        return finish({ statusCode: null, error: 'refused: private address' });
      }
      const body = Buffer.from(request.body, 'utf8');
      const transport = url.protocol === 'https:' ? https : http;
      const req = transport.request(url, {
        method: 'POST',
        agent: false,
        lookup: this.options.blockPrivateAddresses ? publicLookup : undefined,
        headers: {
          'Content-Type': 'application/json',
          'Content-Length': String(body.length),
          'User-Agent': USER_AGENT,
          [SIGNATURE_HEADER]: signatureHeader(request.secret, request.timestamp, request.body),
          'X-Event-Id': request.eventId,
        },
      });
      timer = setTimeout(() => {
        finish({ statusCode: null, error: `timed out after ${this.timeoutMs} ms` });
        req.destroy();
      }, this.timeoutMs);
      req.on('response', (res) => {
        finish({ statusCode: res.statusCode ?? null, error: null });
        res.on('error', () => undefined);
        res.resume();
        // The body is not needed: drop the connection when it ends, or when it takes too long.
        const drop = setTimeout(() => req.destroy(), this.timeoutMs).unref();
        res.on('end', () => {
          clearTimeout(drop);
          req.destroy();
        });
      });
      req.on('error', (error: NodeJS.ErrnoException) => finish({ statusCode: null, error: describe(error) }));
      req.end(body);
    });
  }
}

function describe(error: NodeJS.ErrnoException): string {
  const text = error.code && !error.message.includes(error.code) ? `${error.code}: ${error.message}` : error.message;
  return text.slice(0, 300);
}

/** dns.lookup that fails for private addresses, in both its single and `all` forms. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void): void {
  dns.lookup(hostname, { ...options }, (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
    if (error) return callback(error);
    const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
    if (all.some(isPrivateAddress)) return callback(Object.assign(new Error(`refused: ${hostname} resolves to a private address`), { code: 'EPRIVATE' }));
    return Array.isArray(address) ? callback(null, address) : callback(null, address, family);
  });
}
