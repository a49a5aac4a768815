import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { isAlive, type Proc, waitFor } from './child-process';
import { freePort, ping } from './private-redis';

/**
 * A Redis Cluster of the test's own on loopback: three primaries (Debian's redis-server in cluster
 * mode, no replicas, no persistence), slots spread by `redis-cli --cluster create`, each node in a
 * directory under /tmp; `stop` ends them by their PIDs and removes the directory.
 */
export interface PrivateRedisCluster {
  /** The target the service takes: `redis-cluster://127.0.0.1:p1,127.0.0.1:p2,127.0.0.1:p3`. */
  url: string;
  /** The REDIS_CLUSTER_NODES value. */
  nodes: string;
  ports: number[];
  stop(): Promise<void>;
}

export async function startPrivateRedisCluster(size = 3): Promise<PrivateRedisCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-redis-cluster-'));
  const ports: number[] = [];
  for (let i = 0; i < size; i++) ports.push(await freePort());
  const procs: Proc[] = ports.map((port) => {
    const nodeDir = path.join(dir, String(port));
    fs.mkdirSync(nodeDir);
    const child = spawn(
      'redis-server',
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', nodeDir, '--cluster-enabled', 'yes', '--cluster-config-file', 'nodes.conf', '--cluster-node-timeout', '2000', '--save', '', '--appendonly', 'no'],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    return { child, output: () => output, logs: () => [], exited: new Promise((resolve) => child.once('exit', (code) => resolve(code))) };
  });
  const stop = async () => {
    for (const proc of procs) {
      if (isAlive(proc)) {
        proc.child.kill('SIGKILL');
        await proc.exited;
      }
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const [i, port] of ports.entries()) await waitFor(() => ping(`redis://127.0.0.1:${port}`), `redis-server ${port}`, { proc: procs[i] });
    const create = spawnSync('redis-cli', ['--cluster', 'create', ...ports.map((p) => `127.0.0.1:${p}`), '--cluster-replicas', '0', '--cluster-yes'], { encoding: 'utf8', timeout: 30_000 });
    if (create.status !== 0) throw new Error(`redis-cli --cluster create failed:\n${create.stdout}${create.stderr}`);
    await waitFor(async () => (await clusterState(ports)).every((state) => state === 'ok'), 'cluster_state:ok on every node', { timeoutMs: 20_000, everyMs: 100 });
  } catch (error) {
    await stop();
    throw error;
  }
  const nodes = ports.map((p) => `127.0.0.1:${p}`).join(',');
  return { url: `redis-cluster://${nodes}`, nodes, ports, stop };
}

async function clusterState(ports: number[]): Promise<string[]> {
  return Promise.all(
    ports.map(async (port) => {
      const redis = new Redis(port, '127.0.0.1', { maxRetriesPerRequest: 0, retryStrategy: () => null });
      redis.on('error', () => undefined);
      try {
        return /cluster_state:(\w+)/.exec(String(await redis.cluster('INFO')))?.[1] ?? 'unknown';
      } catch {
        return 'down';
      } finally {
        redis.disconnect();
      }
    }),
  );
}
