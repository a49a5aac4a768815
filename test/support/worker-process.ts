import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

export interface WorkerProcess {
  output(): string;
  /** Throws with the process output when the worker is gone. */
  assertAlive(): void;
  stop(): Promise<void>;
}

/** The real worker entrypoint (cmd/worker/main.ts) as a child process; resolves once it is ready. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const base = { ...process.env };
  for (const key of ['PORT', 'DATABASE_URL', 'REDIS_URL', 'RUN_WORKERS', 'APP_ENV', 'QUEUE_PREFIX', 'LOG_LEVEL']) delete base[key];
  const child: ChildProcess = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['cmd/worker/main.ts'], {
    cwd: ROOT,
    env: { ...base, LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const alive = () => child.exitCode === null && child.signalCode === null;
  const deadline = Date.now() + 30_000;
  while (!output.includes('"worker ready"')) {
    if (!alive()) throw new Error(`worker exited before it was ready:\n${output}`);
    if (Date.now() > deadline) throw new Error(`worker not ready after 30 s:\n${output}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    output: () => output,
    assertAlive() {
      if (!alive()) throw new Error(`worker process exited:\n${output}`);
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => alive() && child.pid && process.kill(-child.pid, 'SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
