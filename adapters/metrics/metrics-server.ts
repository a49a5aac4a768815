import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { bearerMatches } from './bearer-token';
import type { Metrics } from './metrics';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

/**
 * A bare HTTP listener answering GET /metrics, for processes without an API (workers), or to
 * keep metrics off the public port. With `token`, it wants `Authorization: Bearer <token>`.
 */
export async function startMetricsServer(
  metrics: Metrics,
  options: {
    port: number;
    host: string;
    token: string | null;
    /** Another handler under a path prefix (the queue console at /queues), with its own checks. */
    mount?: { prefix: string; handler: (req: http.IncomingMessage, res: http.ServerResponse) => void };
  },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    void answer(req, res).catch(() => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
      res.end('metrics unavailable\n');
    });
  });
  const answer = async (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    const mount = options.mount;
    if (mount && (path === mount.prefix || path.startsWith(`${mount.prefix}/`))) {
      mount.handler(req, res);
    } else if (req.method !== 'GET' || path !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
    } else if (options.token && !bearerMatches(req.headers.authorization, options.token)) {
      res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
    } else {
      const { contentType, body } = await metrics.render();
      res.writeHead(200, { 'content-type': contentType }).end(body);
    }
  };
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
