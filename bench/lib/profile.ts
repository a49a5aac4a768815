import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Where a request's CPU goes: the API's V8 sampling profile over one run of a scenario, read by
 * bench/lib/cpu-probe.cjs inside the API (preloaded only in the bench) and summarized there.
 */
export interface ScenarioProfile {
  id: string;
  label: string;
  /** The API's CPU per request in the profiled run (the profiler itself adds a little). */
  cpuMsPerRequest: number | null;
  /** Share of the busy samples, in %, per part of a request (authentication, JWT, SQL, …). */
  parts: Record<string, number>;
  /** The functions with the most self time, with their share in %. */
  top: { fn: string; pct: number }[];
}

const CPU_PROBE = path.join(__dirname, 'cpu-probe.cjs');
let probeDir: string | null = null;

/** The preload's --require and its directory, for a process started by the bench. */
export function cpuProbeEnv(): { require: string; env: Record<string, string> } {
  probeDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
  return { require: `--require ${JSON.stringify(CPU_PROBE)}`, env: { BENCH_CPU_PROBE_DIR: probeDir } };
}

/** Sends `command` to the probe of `pid` and waits for its answer (10 s at most). */
async function ask(pid: number, command: string, name: string): Promise<Record<string, unknown>> {
  if (!probeDir) throw new Error('cpuProbeEnv() was not used for this process');
  const answer = path.join(probeDir, `${pid}-${name}.json`);
  fs.rmSync(answer, { force: true });
  fs.writeFileSync(path.join(probeDir, `${pid}.cmd`), `${command} ${name}`);
  process.kill(pid, 'SIGWINCH');
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(answer)) {
    if (Date.now() > deadline) throw new Error(`the CPU probe of ${pid} did not answer ${command}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  const result = JSON.parse(fs.readFileSync(answer, 'utf8')) as Record<string, unknown>;
  if (typeof result.error === 'string') throw new Error(`CPU probe: ${result.error}`);
  return result;
}

/** Runs `run` with the API's profiler on, and returns what the profile says. */
export async function profiled(
  pid: number,
  scenario: { id: string; label: string },
  run: () => Promise<{ serverCpuMsPerRequest: number | null }>,
): Promise<ScenarioProfile> {
  await ask(pid, 'start', `${scenario.id}.start`);
  const row = await run().catch(async (error: unknown) => {
    await ask(pid, 'stop', scenario.id).catch(() => undefined);
    throw error;
  });
  const summary = await ask(pid, 'stop', scenario.id);
  return {
    id: scenario.id,
    label: scenario.label,
    cpuMsPerRequest: row.serverCpuMsPerRequest,
    parts: summary.parts as Record<string, number>,
    top: summary.top as { fn: string; pct: number }[],
  };
}

/** One statement as Knex hands it to the driver: `?` placeholders and their bindings. */
export interface RecordedStatement {
  sql: string;
  bindings: unknown[];
}

/** The statements the API process `pid` sends while `run` runs (the probe records them). */
export async function recordedStatements(pid: number, name: string, run: () => Promise<unknown>): Promise<RecordedStatement[]> {
  await ask(pid, 'statements-start', `${name}.statements-start`);
  const failed = await run().then(() => null, (error: unknown) => ({ error }));
  const recorded = await ask(pid, 'statements-stop', `${name}.statements`);
  if (failed) throw failed.error;
  return recorded.statements as RecordedStatement[];
}
