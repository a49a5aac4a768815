import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GenerationReport } from './generation';

/** The API's memory after one pass over its scenarios. */
export interface MemoryPass extends ProcessMemory {
  pass: number;
}

/** One process's memory after a run. */
export interface ProcessMemory {
  rssMiB: number | null;
  /** Right after a full garbage collection (afterFullGc): the JS heap used, and the memory of Buffers and other native objects held by JS. */
  liveHeapMiB: number | null;
  externalMiB: number | null;
}

/**
 * Memory across repeated runs: the API's after each pass over the API scenarios, and each
 * worker's after each of the repeated bulk generations with the same workers. Growth is the
 * live memory (JS heap used and native memory held by JS, after a full garbage collection) of
 * the last run against the first: a leak grows it with every run. RSS is shown beside it; it also moves with when the collector
 * last ran and how much of the heap V8 keeps reserved, so it is not what the target reads.
 */
export interface MemoryReport {
  api: MemoryPass[];
  /** Per repeated bulk run with the final worker count: each worker's memory after it. */
  workers: ProcessMemory[][];
  apiGrowthPct: number | null;
  workerGrowthPct: number | null;
}

/** Growth allowed from the first run to the last before it counts as growth (noise). */
export const MEMORY_GROWTH_TOLERANCE_PCT = 10;

export function memoryReport(api: MemoryPass[], generation: GenerationReport | null): MemoryReport {
  const last = generation?.bulk.at(-1);
  const repeats = generation ? generation.bulk.filter((b) => b.workers === last?.workers) : [];
  const workers = repeats.map((b) => b.workerMemory);
  const total = (run: ProcessMemory[] | undefined) =>
    run && run.every((w) => live(w) !== null) ? run.reduce((sum, w) => sum + live(w)!, 0) : null;
  return {
    api,
    workers,
    apiGrowthPct: growth(api[0] ? live(api[0]) : null, api.at(-1) ? live(api.at(-1)!) : null, api.length),
    workerGrowthPct: growth(total(workers[0]), total(workers.at(-1)), workers.length),
  };
}

/** What a leak grows: the live heap and the native memory JS holds, after a full GC. */
export function live(m: ProcessMemory): number | null {
  return m.liveHeapMiB === null || m.externalMiB === null ? null : Math.round((m.liveHeapMiB + m.externalMiB) * 10) / 10;
}

function growth(first: number | null, last: number | null, runs: number): number | null {
  if (runs < 2 || first === null || last === null || first <= 0) return null;
  return Math.round(((last - first) / first) * 1000) / 10;
}

const GC_PROBE = path.join(__dirname, 'gc-probe.cjs');
let probeDir: string | null = null;

/** Environment that makes a Node process answer liveHeapMiB (bench/lib/gc-probe.cjs). */
export function gcProbeEnv(): Record<string, string> {
  probeDir ??= fs.mkdtempSync(path.join(os.tmpdir(), 'bench-gc-'));
  return { NODE_OPTIONS: `--require ${JSON.stringify(GC_PROBE)}`, BENCH_GC_PROBE_DIR: probeDir };
}

/**
 * The memory of a process started with gcProbeEnv() right after a full garbage collection it
 * runs on SIGUSR2, with its RSS; the probe's figures are null when it does not answer in 10 s.
 */
export async function afterFullGc(pid: number, rssMiB: (pid: number) => number | null): Promise<ProcessMemory> {
  const mib = (bytes: number) => Math.round((bytes / 1024 / 1024) * 10) / 10;
  const file = probeDir ? path.join(probeDir, `${pid}.json`) : null;
  if (file) {
    fs.rmSync(file, { force: true });
    try {
      process.kill(pid, 'SIGUSR2');
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        if (fs.existsSync(file)) {
          const usage = JSON.parse(fs.readFileSync(file, 'utf8')) as { rss: number; heapUsed: number; external: number };
          return { rssMiB: mib(usage.rss), liveHeapMiB: mib(usage.heapUsed), externalMiB: mib(usage.external) };
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    } catch {
      // the process is gone: no figures
    }
  }
  return { rssMiB: rssMiB(pid), liveHeapMiB: null, externalMiB: null };
}
