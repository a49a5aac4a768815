import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startMetricsServer } from '../../adapters/metrics/metrics-server';
import { loadConfig, metricsOnApiPort } from '../shared/config';
import { apiProcessConfig, startApiProcess } from '../shared/api-process';
import { demoBanner } from '../shared/demo-banner';
import { drainOnClose, onShutdown } from '../shared/lifecycle';
import { queueConsoleMount } from '../shared/observability';
import { createLogger } from '../shared/logger';

/**
 * The API process (composed in cmd/shared/api-process.ts). Without REDIS_URL the jobs run in
 * this process too (the embedded default); with it, `npm run worker` processes run them (or this
 * one, with RUN_WORKERS=true).
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const logger = createLogger(config.logLevel, 'api');
  const api = await startApiProcess(apiProcessConfig(config), { logger, demoTenant: true });
  const { infra, metrics, demo } = api;

  const server = http.createServer();
  api.serve(server);
  server.listen(config.port, config.host);
  const drainHttp = drainOnClose(server);
  await once(server, 'listening');
  const queueConsole = queueConsoleMount(config, infra);
  if (queueConsole.why) logger.warn(queueConsole.why);
  const metricsServer = config.metricsPort === null ? null : await startMetricsServer(metrics, { port: config.metricsPort, host: config.host, token: config.metricsToken, mount: queueConsole.mount });
  const { port } = server.address() as AddressInfo;
  const baseUrl = config.publicBaseUrl ?? `http://localhost:${port}`;
  if (demo) process.stdout.write(demoBanner(demo, baseUrl) + '\n');
  else if (config.appEnv !== 'production') {
    process.stdout.write(`\n  Database already has tenants. More credentials: npm run admin -- create-client --organization <name> --username <u> --password <p>\n  API reference: ${baseUrl}/docs\n\n`);
  }
  if (!metricsOnApiPort(config) && !metricsServer) {
    logger.warn('GET /metrics is not served: in production it needs METRICS_TOKEN on the API port, or METRICS_PORT (docs/security.md)');
  }
  logger.info(
    { port, metricsPort: metricsServer?.port ?? null, queueConsole: queueConsole.mode, metricsOnApiPort: metricsOnApiPort(config), trustProxyHops: config.trustProxyHops, shutdownDelayMs: config.shutdownDelayMs, appEnv: config.appEnv, database: config.databaseUrl.split(':')[0], readReplica: config.databaseReadUrl ? infra.replica!.replicaState().usable : null, queue: config.redisUrl ? 'bullmq' : 'in-process' },
    `listening on ${baseUrl}`,
  );

  // Answer not-ready and keep serving for SHUTDOWN_DELAY_MS (the load balancer takes this process
  // out), then stop taking requests and let the in-flight ones finish, then the timers, the
  // webhook dispatcher, the jobs (BullMQ workers or the in-process queue), then the queues, Redis
  // and database pools.
  onShutdown(
    logger,
    [api.readiness.step(server, config.shutdownDelayMs), { name: 'http', run: drainHttp }, ...api.shutdownSteps, { name: 'metrics', run: async () => metricsServer?.close() }],
    config.shutdownTimeoutMs,
  );
}

main().catch((error) => {
  process.stderr.write(`api failed to start: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
