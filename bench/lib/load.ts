import autocannon from 'autocannon';

/** One load run: a single request shape, optionally varied per request (unique ids, rotating paths). */
export interface LoadSpec {
  baseUrl: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Called before every request: returns the parts that change (body, path, extra headers). */
  vary?: () => { body?: string; path?: string; headers?: Record<string, string> };
  connections: number;
  durationSec: number;
  /** Seconds of the same load run by `warmUp` before `measure`. */
  warmupSec: number;
  /** The status whose answers are timed (default: every 2xx), for a scenario of refused requests. */
  timedStatus?: number;
}

export interface LoadResult {
  /** Mean of autocannon's per-second samples of completed requests. */
  requestsPerSec: number;
  /** Latency of 2xx answers (or of LoadSpec.timedStatus), in ms, from each response's own timing (sub-ms resolution). */
  p50Ms: number;
  p99Ms: number;
  meanMs: number;
  requests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  durationSec: number;
}

/** The same load for `warmupSec`, results discarded: JIT, connection pools and caches warm. */
export async function warmUp(spec: LoadSpec): Promise<void> {
  if (spec.warmupSec > 0) await once(spec, spec.warmupSec, null);
}

/** The measured run (call `warmUp` first). */
export async function measure(spec: LoadSpec): Promise<LoadResult> {
  const latencies: number[] = [];
  const result = await once(spec, spec.durationSec, latencies);
  latencies.sort((a, b) => a - b);
  const statusCodes: Record<string, number> = {};
  for (const [code, stat] of Object.entries(result.statusCodeStats ?? {})) statusCodes[code] = stat.count ?? 0;
  return {
    requestsPerSec: round(result.requests.average, 1),
    p50Ms: round(percentile(latencies, 0.5), 2),
    p99Ms: round(percentile(latencies, 0.99), 2),
    meanMs: round(latencies.reduce((sum, v) => sum + v, 0) / Math.max(latencies.length, 1), 2),
    requests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
    durationSec: result.duration,
  };
}

function once(spec: LoadSpec, durationSec: number, latencies: number[] | null): Promise<autocannon.Result> {
  const vary = spec.vary;
  return new Promise((resolve, reject) => {
    const instance = autocannon(
      {
        url: spec.baseUrl,
        connections: spec.connections,
        duration: durationSec,
        method: spec.method,
        headers: spec.headers,
        requests: [
          {
            method: spec.method,
            path: spec.path,
            ...(spec.body !== undefined ? { body: spec.body } : {}),
            ...(vary ? { setupRequest: (request: autocannon.Request) => varied(request, vary()) } : {}),
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    if (latencies) {
      const timed = spec.timedStatus;
      instance.on('response', (_client, statusCode, _bytes, responseTime) => {
        if (timed === undefined ? statusCode >= 200 && statusCode < 300 : statusCode === timed) latencies.push(responseTime);
      });
    }
  });
}

/** The request with the varied parts; varied headers are added to the scenario's (autocannon merges them per request). */
function varied(request: autocannon.Request, parts: { body?: string; path?: string; headers?: Record<string, string> }): autocannon.Request {
  const { headers, ...rest } = parts;
  return { ...request, ...rest, ...(headers ? { headers: { ...request.headers, ...headers } } : {}) };
}

/** Nearest-rank percentile of sorted values. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}

export function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}
