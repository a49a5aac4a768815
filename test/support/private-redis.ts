import { spawn, spawnSync } from 'node:child_process';
import net from 'node:net';
import { Redis } from 'ioredis';
import { isAlive, type Proc, waitFor } from './child-process';
import { REQUIRE_SERVICES } from './databases';

/**
 * A Redis server of the test's own (never the shared one), for tests where Redis goes away:
 * no persistence, on a free port, ended by its PID.
 */
export interface PrivateRedis {
  port: number;
  url: string;
  /** SIGKILL: Redis is gone at once, as in a crash; what it held is lost (no persistence). */
  stop(): Promise<void>;
  /** Starts it again, empty, on the same port (after stop). */
  start(): Promise<void>;
  /** stop, then start. */
  restart(): Promise<void>;
}

/** True when redis-server can be run; under CI=true its absence is a failure. */
export function redisServerAvailable(): boolean {
  const found = spawnSync('redis-server', ['--version']).status === 0;
  if (!found && REQUIRE_SERVICES) throw new Error('CI=true and redis-server is not installed');
  return found;
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startPrivateRedis(): Promise<PrivateRedis> {
  const port = await freePort();
  const url = `redis://127.0.0.1:${port}`;
  let proc: Proc | null = null;
  const start = async () => {
    const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    proc = { child, output: () => output, logs: () => [], exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
    await waitFor(() => ping(url), `redis-server on port ${port}`, { proc });
  };
  const stop = async () => {
    if (isAlive(proc)) {
      proc.child.kill('SIGKILL');
      await proc.exited;
    }
  };
  await start();
  return { port, url, stop, start, restart: async () => (await stop(), await start()) };
}

/** True once the Redis at `url` answers PONG (one short-lived connection; a Redis loading its AOF answers LOADING, so false). */
export async function ping(url: string): Promise<boolean> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 500 });
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
