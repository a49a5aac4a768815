import type { GenerationReport } from './generation';

/** The API's RSS after one pass over its scenarios. */
export interface MemoryPass {
  pass: number;
  rssMiB: number | null;
}

/**
 * Memory across repeated runs: the API's RSS after each pass over the API scenarios, and each
 * worker's RSS after each of the repeated bulk generations with the same workers. Growth is
 * the last run against the first; a leak grows with every run, while garbage collection only
 * moves RSS up and down a little.
 */
export interface MemoryReport {
  api: MemoryPass[];
  /** Per repeated bulk run with the final worker count: each worker's RSS after it. */
  workers: (number | null)[][];
  apiGrowthPct: number | null;
  workerGrowthPct: number | null;
}

/** Growth allowed from the first run to the last before it counts as growth (GC noise). */
export const MEMORY_GROWTH_TOLERANCE_PCT = 10;

export function memoryReport(api: MemoryPass[], generation: GenerationReport | null): MemoryReport {
  const last = generation?.bulk.at(-1);
  const repeats = generation ? generation.bulk.filter((b) => b.workers === last?.workers) : [];
  const workers = repeats.map((b) => b.workerRssMiB);
  const total = (rss: (number | null)[]) => (rss.every((r) => r !== null) ? rss.reduce<number>((a, b) => a + (b ?? 0), 0) : null);
  return {
    api,
    workers,
    apiGrowthPct: growth(api[0]?.rssMiB ?? null, api.at(-1)?.rssMiB ?? null, api.length),
    workerGrowthPct: growth(workers[0] ? total(workers[0]) : null, workers.at(-1) ? total(workers.at(-1)!) : null, workers.length),
  };
}

function growth(first: number | null, last: number | null, runs: number): number | null {
  if (runs < 2 || first === null || last === null || first <= 0) return null;
  return Math.round(((last - first) / first) * 1000) / 10;
}
