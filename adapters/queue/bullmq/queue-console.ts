import type { IncomingMessage, ServerResponse } from 'node:http';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { KoaAdapter } from '@bull-board/koa';
import type { Queue } from 'bullmq';
import Koa from 'koa';
import { tokenMatches } from '../../metrics/bearer-token';

/** Where the console answers on the metrics listener. */
export const QUEUE_CONSOLE_PATH = '/queues';

export interface QueueConsoleOptions {
  /** METRICS_TOKEN: `Authorization: Bearer <it>`, or Basic with it as the password. Required. */
  token: string;
  /** QUEUE_CONSOLE_WRITE=true: retry, promote, clean, pause... allowed; otherwise every write is refused. */
  writable: boolean;
}

/**
 * The operators' queue console: bull-board over the BullMQ queue, as an HTTP handler for the
 * metrics listener (never the public API port). Without the token: 401. Read-only (the default):
 * the board shows no write actions (bull-board's readOnlyMode) and, in front of it, any request
 * other than GET/HEAD is answered 403 here, so no route of the board, present or future, can
 * change a job.
 */
export function queueConsole(queues: Queue[], options: QueueConsoleOptions): (req: IncomingMessage, res: ServerResponse) => void {
  const serverAdapter = new KoaAdapter();
  serverAdapter.setBasePath(QUEUE_CONSOLE_PATH);
  createBullBoard({
    queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !options.writable })),
    // Two copies of @bull-board/api's typings (the koa adapter brings its own): same shape.
    serverAdapter: serverAdapter as unknown as Parameters<typeof createBullBoard>[0]['serverAdapter'],
    options: { uiConfig: { boardTitle: options.writable ? 'Collections queues' : 'Collections queues (read-only)' } },
  });
  const app = new Koa();
  app.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set('X-Frame-Options', 'DENY');
    if (!tokenMatches(ctx.get('authorization') || undefined, options.token)) {
      ctx.status = 401;
      ctx.set('WWW-Authenticate', 'Basic realm="queue console", charset="UTF-8"');
      ctx.body = { error: { code: 'AUTHENTICATION_FAILED', message: 'The queue console wants METRICS_TOKEN: Authorization: Bearer <token>, or Basic with it as the password' } };
      return;
    }
    if (!options.writable && ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.status = 403;
      ctx.body = { error: { code: 'FORBIDDEN', message: 'The queue console is read-only (QUEUE_CONSOLE_WRITE=true allows changes)' } };
      return;
    }
    await next();
  });
  app.use(serverAdapter.registerPlugin());
  // Errors of the board are answered by it; the rest are not ours to log here.
  app.silent = true;
  return app.callback();
}
