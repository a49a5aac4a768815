import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { verifySignature } from '../../adapters/webhooks/signature';

/** One POST the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: Record<string, any>;
  /** The X-Signature verified against the secret the test gave (false without one). */
  signatureValid: boolean;
  /** The status the receiver answered. */
  answered: number;
  at: number;
}

/**
 * A real HTTP receiver on an ephemeral port, as an integrator would run one: it verifies the
 * X-Signature of every POST with the endpoint's secret and answers what the test scripts (per
 * path: a list of statuses used up in order, then 200).
 */
export interface WebhookReceiver {
  url(path?: string): string;
  /** The secret to verify `path`'s deliveries with (the creation answer's). */
  setSecret(path: string, secret: string): void;
  /** The next answers for `path`, in order (after them: 200). */
  script(path: string, statuses: number[]): void;
  /**
   * The next POST to `path` gets no answer at all (its sender waits, as on a receiver that hangs);
   * resolves once it arrived. It is logged with `answered: 0`.
   */
  hangNext(path: string): Promise<ReceivedWebhook>;
  received(path?: string): ReceivedWebhook[];
  /** Resolves when `predicate` holds for what `path` received; fails after `timeoutMs`. */
  waitFor(path: string, predicate: (received: ReceivedWebhook[]) => boolean, timeoutMs?: number): Promise<ReceivedWebhook[]>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const secrets = new Map<string, string>();
  const scripts = new Map<string, number[]>();
  const log: ReceivedWebhook[] = [];
  const waiters = new Set<() => void>();
  const hangs = new Map<string, (received: ReceivedWebhook) => void>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const secret = secrets.get(path);
      const signatureValid =
        secret !== undefined && verifySignature(req.headers['x-signature'] as string | undefined, secret, raw, { nowSeconds: Math.floor(Date.now() / 1000) });
      const hang = hangs.get(path);
      hangs.delete(path);
      const answered = hang ? 0 : (scripts.get(path)?.shift() ?? 200);
      let body: Record<string, any> = {};
      try {
        body = JSON.parse(raw);
      } catch {
        body = {};
      }
      const entry = { path, headers: req.headers, raw, body, signatureValid, answered, at: Date.now() };
      log.push(entry);
      if (hang) {
        hang(entry);
        for (const wake of waiters) wake();
        return;
      }
      res.writeHead(answered, { 'Content-Type': 'application/json' });
      res.end(JSON.stringify({ received: true }));
      for (const wake of waiters) wake();
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const received = (path?: string) => log.filter((r) => path === undefined || r.path === path);
  return {
    url: (path = '/') => `http://127.0.0.1:${port}${path}`,
    setSecret: (path, secret) => void secrets.set(path, secret),
    script: (path, statuses) => void scripts.set(path, [...statuses]),
    hangNext: (path) => new Promise((resolve) => void hangs.set(path, resolve)),
    received,
    waitFor(path, predicate, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const got = received(path);
          if (!predicate(got)) return;
          cleanup();
          resolve(got);
        };
        const timer = setTimeout(() => {
          cleanup();
          reject(new Error(`webhook receiver ${path}: condition not met after ${timeoutMs} ms; got ${JSON.stringify(received(path).map((r) => [r.body.type, r.body.eventId, r.answered]))}`));
        }, timeoutMs);
        const cleanup = () => {
          clearTimeout(timer);
          waiters.delete(check);
        };
        waiters.add(check);
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
