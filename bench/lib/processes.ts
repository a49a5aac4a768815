import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';

/**
 * A process the bench started (API, baseline, later a worker). `pid` is the process spawned;
 * `tsx` runs the script in a child of its own, so `serverPid` is the deepest descendant: the
 * process that actually serves requests and whose memory is reported.
 */
export interface Service {
  name: string;
  pid: number;
  serverPid: number;
  port: number;
  /** Everything written to stdout so far (the API banner holds the demo credentials). */
  stdout(): string;
  stop(): Promise<void>;
}

export interface ServiceSpec {
  name: string;
  command: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  cwd: string;
  /** Ready when this returns true for the stdout seen so far (the port must be known too, unless `listens` is false). */
  ready?: (stdout: string) => boolean;
  /** false for a process without a port (a worker): ready on `ready` alone; its `port` stays 0. */
  listens?: boolean;
  startTimeoutMs?: number;
}

const started = new Set<Service>();

/** Every service still running; `stopAll` ends each by its own pid. */
export async function stopAll(): Promise<void> {
  await Promise.allSettled([...started].map((s) => s.stop()));
}

export async function startService(spec: ServiceSpec): Promise<Service> {
  const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`${spec.name}: spawn failed`);
  let out = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    out = keepTail(out + chunk);
  });
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    err = keepTail(err + chunk);
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // pid -> start time (/proc/<pid>/stat field 22): a pid is only signalled while it is still ours.
  const pids = new Map<number, string | null>([[child.pid, startTime(child.pid)]]);
  let stopping: Promise<void> | null = null;
  const service: Service = {
    name: spec.name,
    pid: child.pid,
    serverPid: child.pid,
    port: 0,
    stdout: () => out,
    stop: () => (stopping ??= stop(child, pids, exited).finally(() => started.delete(service))),
  };
  started.add(service);

  const deadline = Date.now() + (spec.startTimeoutMs ?? 60_000);
  try {
    for (;;) {
      const port = spec.listens === false ? 0 : portFrom(out);
      if ((port || spec.listens === false) && (spec.ready?.(out) ?? true)) {
        service.port = port ?? 0;
        break;
      }
      if (child.exitCode !== null || child.signalCode !== null) {
        throw new Error(`${spec.name} exited (${child.exitCode ?? child.signalCode}) before it was ready.\nstdout:\n${out}\nstderr:\n${err}`);
      }
      if (Date.now() > deadline) throw new Error(`${spec.name} not ready after ${spec.startTimeoutMs ?? 60_000} ms.\nstdout:\n${out}\nstderr:\n${err}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    for (const pid of descendants(child.pid)) pids.set(pid, startTime(pid));
    service.serverPid = [...pids.keys()].at(-1)!;
    return service;
  } catch (error) {
    await service.stop();
    throw error;
  }
}

/** SIGTERM to the spawned process (tsx relays it), then SIGKILL to each known pid still alive. */
async function stop(child: ChildProcess, pids: Map<number, string | null>, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) {
    for (const pid of descendants(child.pid!)) if (!pids.has(pid)) pids.set(pid, startTime(pid));
    signal(child.pid!, 'SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000).unref())]);
  }
  for (const [pid, started] of pids) {
    if (started !== null && startTime(pid) === started) signal(pid, 'SIGKILL');
  }
}

/** Children, grandchildren… of pid, parents first (Linux /proc). */
export function descendants(pid: number): number[] {
  const result: number[] = [];
  let text = '';
  try {
    text = fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8');
  } catch {
    return result;
  }
  for (const child of text.split(/\s+/).filter(Boolean).map(Number)) {
    result.push(child, ...descendants(child));
  }
  return result;
}

/** Resident set size in MiB from /proc/<pid>/status (VmRSS), or null when unreadable. */
export function rssMiB(pid: number): number | null {
  try {
    const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match ? Math.round((Number(match[1]) / 1024) * 10) / 10 : null;
  } catch {
    return null;
  }
}

/** The port from a JSON log line (`"port":N`) or from the API banner (`http://localhost:N/docs`). */
export function portFrom(stdout: string): number | null {
  for (const line of stdout.split('\n')) {
    if (!line.startsWith('{')) continue;
    try {
      const parsed = JSON.parse(line) as { port?: unknown };
      if (typeof parsed.port === 'number' && parsed.port > 0) return parsed.port;
    } catch {
      // not a complete JSON line yet
    }
  }
  const banner = /API reference: https?:\/\/[^\s/:]+:(\d+)\//.exec(stdout);
  return banner ? Number(banner[1]) : null;
}

/** Start time in clock ticks since boot, or null once the process is gone. */
function startTime(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // the command name (field 2) may hold spaces: count fields after its closing parenthesis
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // already gone
  }
}

function keepTail(text: string): string {
  return text.length > 256_000 ? text.slice(-256_000) : text;
}
