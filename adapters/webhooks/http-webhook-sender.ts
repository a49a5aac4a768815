import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { performance } from 'node:perf_hooks';
import type { TransportError } from '../../internal/webhooks/attempt-error';
import type { WebhookRequest, WebhookResponse, WebhookSender } from '../../ports/webhook-sender';
import { hostOf, isPrivateAddress } from './private-address';
import { SIGNATURE_HEADER, signatureHeader } from './signature';

/** decisions.md section 6: a 2xx within 10 s is a delivery. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
export const USER_AGENT = 'CollectionsFacade-Webhooks/1';

export interface HttpWebhookSenderOptions {
  timeoutMs?: number;
  /**
   * Refuse to connect to a private address (private-address.ts), whatever DNS says now: every
   * environment, unless WEBHOOK_ALLOW_PRIVATE_URLS=true.
   */
  blockPrivateAddresses: boolean;
}

/**
 * POSTs the signed event with node:http(s): no redirects followed (a 3xx is a failed attempt),
 * one connection per attempt, the whole attempt (connect, send, status line) bounded by the
 * timeout. Only the status matters; the answer's body is read and discarded. A failure is
 * reported as its class (attempt-error.ts), never with the transport's message: that names
 * addresses and ports, and attempts are readable by the integrator.
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
        return finish({ statusCode: null, error: 'connection_error' });
      }
      if (this.options.blockPrivateAddresses && net.isIP(hostOf(url)) && isPrivateAddress(hostOf(url))) {
        return finish({ statusCode: null, error: 'blocked_address' });
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
          [SIGNATURE_HEADER]: signatureHeader(request.secrets, request.timestamp, request.body),
          'X-Event-Id': request.eventId,
        },
      });
      timer = setTimeout(() => {
        finish({ statusCode: null, error: 'timeout' });
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
      req.on('error', (error: NodeJS.ErrnoException) => finish({ statusCode: null, error: errorClassOf(error) }));
      req.end(body);
    });
  }
}

/** Error codes of a failed name lookup (getaddrinfo, and c-ares' own). */
const DNS_CODES = new Set(['ENOTFOUND', 'EAI_AGAIN', 'EAI_FAIL', 'EAI_NODATA', 'EAI_NONAME', 'ENODATA', 'ESERVFAIL', 'EREFUSED', 'ENONAME']);

/** The class of a transport error: what the attempt records instead of the message. */
export function errorClassOf(error: NodeJS.ErrnoException & { errors?: unknown[] }): TransportError {
  // Happy Eyeballs (several addresses tried) reports an AggregateError: judge by its first cause.
  const cause = !error.code && Array.isArray(error.errors) && error.errors[0] instanceof Error ? (error.errors[0] as NodeJS.ErrnoException) : error;
  const code = cause.code ?? '';
  if (code === BLOCKED_CODE) return 'blocked_address';
  if (code === 'ECONNREFUSED') return 'connection_refused';
  if (code === 'ETIMEDOUT') return 'timeout';
  if (DNS_CODES.has(code) || cause.syscall === 'getaddrinfo' || cause.syscall === 'queryA' || cause.syscall === 'queryAaaa') return 'dns_error';
  if (code === 'EPROTO' || /CERT|SSL|TLS/.test(code) || (cause as { library?: string }).library === 'SSL routines') return 'tls_error';
  return 'connection_error';
}

/** The code publicLookup fails with when a name resolves to a private address. */
const BLOCKED_CODE = 'EBLOCKEDADDRESS';

/** dns.lookup that fails for private addresses, in both its single and `all` forms. */
function publicLookup(hostname: string, options: dns.LookupOptions, callback: (...args: any[]) => void): void {
  dns.lookup(hostname, { ...options }, (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => {
    if (error) return callback(error);
    const all = Array.isArray(address) ? address.map((a) => a.address) : [address];
    if (all.some(isPrivateAddress)) return callback(Object.assign(new Error('refused: the host resolves to a private address'), { code: BLOCKED_CODE }));
    return Array.isArray(address) ? callback(null, address) : callback(null, address, family);
  });
}
