import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Logger } from 'pino';
import { flushLogs } from './logger';

/** One thing to stop at shutdown, named in the logs. */
export interface ShutdownStep {
  name: string;
  run(): Promise<void>;
}

/**
 * SIGINT/SIGTERM: run the shutdown steps in order (stop HTTP, close workers, close queues and
 * pools), once, logging each; exit 0 when all are done. A second signal, a failing step, or a
 * step still running at the deadline exits 1 at once (a BullMQ job then still held goes back to
 * the queue when its lock expires, and runs again: jobs are idempotent).
 */
export function onShutdown(logger: Logger, steps: (ShutdownStep | (() => Promise<void>))[], deadlineMs = 25_000): void {
  let stopping = false;
  const named = steps.map((step, i) => (typeof step === 'function' ? { name: `step ${i + 1}`, run: step } : step));
  const stop = async (signal: string) => {
    if (stopping) {
      logger.warn({ signal }, 'second signal: exiting now');
      await flushLogs(logger);
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal, deadlineMs }, 'shutting down');
    const timer = setTimeout(() => {
      logger.error({ deadlineMs }, 'shutdown deadline passed; exiting');
      void flushLogs(logger).finally(() => process.exit(1));
    }, deadlineMs);
    timer.unref();
    try {
      for (const step of named) {
        const started = Date.now();
        await step.run();
        logger.info({ step: step.name, ms: Date.now() - started }, 'shutdown step done');
      }
      logger.info('stopped');
      await flushLogs(logger);
      process.exit(0);
    } catch (error) {
      logger.error({ err: error }, 'shutdown failed');
      await flushLogs(logger);
      process.exit(1);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

/**
 * The readiness drain of a process behind a load balancer. Its step, the first of the shutdown,
 * turns `shuttingDown()` true (GET /health/ready answers 503 at once), makes every answer from
 * then on carry `Connection: close` (the balancer's pooled connections to this process end one
 * by one instead of being cut later), and keeps serving for `delayMs` (SHUTDOWN_DELAY_MS), long
 * enough for the balancer's health checks to take the process out of rotation; only then does
 * the `http` step (drainOnClose) stop listening.
 */
export class ReadinessDrain {
  private draining = false;
  readonly shuttingDown = (): boolean => this.draining;

  step(server: Server, delayMs: number): ShutdownStep {
    return {
      name: 'readiness',
      run: async () => {
        this.draining = true;
        server.on('request', (_req, res: ServerResponse) => {
          if (!res.headersSent) res.setHeader('Connection', 'close');
        });
        if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      },
    };
  }
}

type ServerSocket = Socket & { _httpMessage?: ServerResponse };

/**
 * Tracks the server's connections (per connection, not per request) and returns the drain:
 * stop listening (new connections are refused), close idle keep-alive connections, and let each
 * in-flight request finish with `Connection: close`, so no client keeps a connection to a
 * stopping process. Resolves when the last connection has closed.
 */
export function drainOnClose(server: Server): () => Promise<void> {
  const sockets = new Set<ServerSocket>();
  server.on('connection', (socket: ServerSocket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  return () =>
    new Promise<void>((resolve, reject) => {
      server.close((error) => (error ? reject(error) : resolve()));
      // A request arriving now on a still-open connection is served, then that connection closes.
      server.on('request', (_req, res: ServerResponse) => {
        if (!res.headersSent) res.setHeader('Connection', 'close');
      });
      for (const socket of sockets) {
        const inFlight = socket._httpMessage;
        if (!inFlight) socket.destroy();
        else if (!inFlight.headersSent) inFlight.setHeader('Connection', 'close');
        else inFlight.once('finish', () => setImmediate(() => server.closeIdleConnections()));
      }
    });
}
