import type { AddressInfo } from 'node:net';
import Koa from 'koa';

/**
 * Baseline 1: bare Koa answering a small JSON object on GET. The ceiling for any read of the
 * API on this machine and runtime (same Node, same tsx loader).
 */
const app = new Koa();
app.use((ctx) => {
  if (ctx.method !== 'GET') {
    ctx.status = 405;
    return;
  }
  ctx.body = { data: { id: 'con_baseline', name: 'Ana López', email: 'ana@example.com' }, requestId: 'req_baseline' };
});

const server = app.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? '127.0.0.1', () => {
  process.stdout.write(JSON.stringify({ service: 'koa-json', port: (server.address() as AddressInfo).port }) + '\n');
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => server.close(() => process.exit(0)));
