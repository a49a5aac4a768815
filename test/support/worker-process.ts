import { isAlive, startProcess, waitFor } from './child-process';

export interface WorkerProcess {
  output(): string;
  /** Throws with the process output when the worker is gone. */
  assertAlive(): void;
  stop(): Promise<void>;
}

/** The real worker entrypoint (cmd/worker/main.ts) as a child process; resolves once it is ready. */
export async function startWorkerProcess(env: Record<string, string>): Promise<WorkerProcess> {
  const proc = startProcess('cmd/worker/main.ts', { LOG_LEVEL: 'info', ...env });
  const { child } = proc;
  const alive = (): boolean => isAlive(proc);
  await waitFor(() => proc.output().includes('"worker ready"'), '"worker ready"', { proc, timeoutMs: 30_000 });
  return {
    output: proc.output,
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
  };
}
