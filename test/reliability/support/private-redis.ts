/**
 * A Redis of the test's own (never the shared one): `redis-server` on a free port, without
 * persistence, that the test stops (SIGKILL, by its PID) and starts again on the same port.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { waitFor } from '../../support/child-process';
import { REQUIRE_SERVICES } from '../../support/databases';

export interface PrivateRedis {
  url: string;
  /** SIGKILL: Redis is gone at once, as in a crash; what it held is lost (no persistence). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port. */
  start(): Promise<void>;
}

/** True when redis-server can be run; under CI=true its absence is a failure. */
export function redisServerAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version']).status === 0;
  if (!found && REQUIRE_SERVICES) throw new Error('CI=true and redis-server is not installed');
  return found;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  let child: ChildProcess | null = null;
  const start = async () => {
    const proc = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: 'ignore' });
    child = proc;
    await waitFor(() => ping(port), `redis-server on port ${port}`, { timeoutMs: 10_000, everyMs: 50 });
    if (proc.exitCode !== null) throw new Error(`redis-server on port ${port} exited with ${proc.exitCode}`);
  };
  const stop = async () => {
    const proc = child;
    child = null;
    if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
    const exited = new Promise((resolve) => proc.once('exit', resolve));
    process.kill(proc.pid!, 'SIGKILL');
    await exited;
  };
  await start();
  return { url: `redis://127.0.0.1:${port}`, start, stop };
}

async function ping(port: number): Promise<boolean> {
  const redis = new Redis({ port, host: '127.0.0.1', lazyConnect: true, connectTimeout: 500, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
