/**
 * A real entrypoint (cmd/…/main.ts) run by tsx as a child process, for the system tests and the
 * harness's worker: its combined stdout/stderr (plain text such as the demo banner, and pino JSON
 * lines), its exit, and polling with a deadline.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

/** One pino JSON line of the child's output. */
export interface LogLine {
  msg?: string;
  [field: string]: unknown;
}

export interface Proc {
  child: ChildProcess;
  /** Everything written to stdout and stderr so far. */
  output(): string;
  /** The lines of output() that parse as JSON objects. */
  logs(): LogLine[];
  /** Resolves with the exit code (null when ended by a signal). */
  exited: Promise<number | null>;
}

/** Settings the child must not inherit from the test runner's environment. */
export const CONFIG_KEYS = ['PORT', 'HOST', 'DATABASE_URL', 'REDIS_URL', 'RUN_WORKERS', 'APP_ENV', 'PUBLIC_BASE_URL', 'JWT_SECRET', 'JWT_SECRET_FILE', 'LOG_LEVEL', 'MIGRATE_ON_START', 'QUEUE_PREFIX', 'WORKER_CONCURRENCY', 'DATA_DIR', 'CREDENTIAL_CACHE_MS', 'RATE_LIMIT_CAPACITY', 'RATE_LIMIT_REFILL_PER_SECOND', 'METRICS_TOKEN', 'METRICS_PORT', 'SHUTDOWN_TIMEOUT_MS', 'SHUTDOWN_DELAY_MS', 'ADMIN_OPERATOR', 'WEBHOOK_ALLOW_PRIVATE_URLS', 'WEBHOOK_RETRY_DELAYS', 'WEBHOOK_DISPATCH_EVERY_MS', 'SECRETS_KEY', 'SECRETS_KEY_FILE', 'TRUST_PROXY_HOPS', 'QUEUE_CONSOLE_WRITE', 'REDIS_CLUSTER_NODES', 'DATABASE_READ_URL', 'REPLICA_MAX_LAG_SECONDS', 'READ_YOUR_WRITES_MS'];

/** Starts `entry` (relative to the repository root) with the runner's environment minus CONFIG_KEYS, plus `env`. */
export function startProcess(entry: string, env: Record<string, string>): Proc {
  const base = { ...process.env };
  for (const key of CONFIG_KEYS) delete base[key];
  // Node itself with tsx as its loader, as `npm start` and `npm run worker` run: no wrapper
  // process between a signal and the entrypoint's handlers. Its own process group, so a kill of
  // -pid ends anything it started too.
  const child = spawn(process.execPath, ['--import', 'tsx', entry], { cwd: ROOT, env: { ...base, ...env }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    output: () => output,
    logs: () =>
      output.split('\n').flatMap((line) => {
        if (!line.startsWith('{')) return [];
        try {
          return [JSON.parse(line) as LogLine];
        } catch {
          return [];
        }
      }),
  };
}

/**
 * Polls `probe` every `everyMs` (default 50) until it returns something truthy, for at most
 * `timeoutMs` (default 15 s). With `proc`, fails as soon as that process has exited; the error
 * carries its output.
 */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, options: { timeoutMs?: number; everyMs?: number; proc?: Proc } = {}): Promise<NonNullable<T>> {
  const timeoutMs = options.timeoutMs ?? 15_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (options.proc && options.proc.child.exitCode !== null) {
      throw new Error(`process exited (${options.proc.child.exitCode}) while waiting for ${what}:\n${options.proc.output()}`);
    }
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}${options.proc ? `:\n${options.proc.output()}` : ''}`);
    await new Promise((resolve) => setTimeout(resolve, options.everyMs ?? 50));
  }
}

/** The exit code, or 'timeout' when the process is still running after `ms`. */
export async function exitCodeWithin(proc: Proc, ms: number): Promise<number | null | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), ms)));
  try {
    return await Promise.race([proc.exited, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

export function isAlive(proc: Proc | null): proc is Proc {
  return !!proc && proc.child.exitCode === null && proc.child.signalCode === null && !!proc.child.pid;
}

/** SIGKILL to the process group of `proc` when it is still running. */
export function killIfAlive(proc: Proc | null): void {
  if (isAlive(proc)) {
    try {
      process.kill(-proc.child.pid!, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
