import { isAlive, type LogLine, startProcess, waitFor } from './child-process';
import { crash } from './worker-crash';

export interface WorkerProcess {
  output(): string;
  /** The pino JSON lines of output(). */
  logs(): LogLine[];
  /** Throws with the process output when the worker is gone. */
  assertAlive(): void;
  /** Graceful: SIGTERM, then SIGKILL after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL now, mid-job if it is running one: no shutdown hook, no lock release. */
  crash(): Promise<void>;
}

/** The real worker entrypoint (cmd/worker/main.ts) as a child process; resolves once it is ready. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const proc = startProcess('cmd/worker/main.ts', { LOG_LEVEL: 'info', ...env });
  const { child } = proc;
  const alive = (): boolean => isAlive(proc);
  await waitFor(() => proc.output().includes('"worker ready"'), '"worker ready"', { proc, timeoutMs: 30_000 });
  return {
    output: proc.output,
    logs: proc.logs,
    assertAlive() {
      if (!alive()) throw new Error(`worker process exited:\n${proc.output()}`);
    },
    async stop() {
      if (!alive()) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => alive() && process.kill(-child.pid!, 'SIGKILL'), 10_000);
      await proc.exited;
      clearTimeout(timer);
    },
    async crash() {
      if (alive()) await crash(proc);
    },
  };
}
