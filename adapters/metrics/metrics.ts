import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FinishedJob, JobObserver } from '../../ports/job-consumer';

export type ProcessKind = 'api' | 'worker';

/**
 * The hook for metrics this file does not define: an adapter (webhook deliveries, say) gets the
 * registry and creates its counters and histograms on it (`registers: [registry]`), or gauges
 * with a `collect` callback read at each scrape. See docs/operations.md.
 */
export type MetricsCollector = (registry: Registry) => void;

/** Job counts by state (waiting, active, delayed, failed...), read when Prometheus scrapes. */
export type QueueCounts = () => Promise<Record<string, number>>;

/** A database pool's state at scrape time (Knex's tarn pool: numUsed, numFree, ...). */
export interface PoolState {
  used: number;
  free: number;
  pendingAcquires: number;
  pendingCreates: number;
  max: number;
}

const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_BUCKETS = [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900];

/**
 * One Prometheus registry per process (never prom-client's global one, so several servers can
 * live in one test process), labelled `process="api"|"worker"`. Metric catalogue:
 * docs/operations.md.
 */
export class Metrics implements JobObserver {
  readonly registry = new Registry();
  private readonly httpDuration: Histogram<'method' | 'route' | 'status'>;
  private readonly httpChildren = new Map<string, { observe(value: number): void }>();
  private readonly httpInFlight: Gauge;
  private readonly jobDuration: Histogram<'queue' | 'job' | 'outcome'>;
  private readonly jobWait: Histogram<'queue' | 'job'>;
  private readonly rateLimited: Counter;
  private readonly rateLimiterFailures: Counter;
  private readonly queues = new Map<string, QueueCounts>();
  private readonly pools = new Map<string, () => PoolState>();

  constructor(process: ProcessKind) {
    this.registry.setDefaultLabels({ process });
    collectDefaultMetrics({ register: this.registry });
    const registers = [this.registry];
    this.httpDuration = new Histogram({
      name: 'cf_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status: latency, and through _count the request rate',
      labelNames: ['method', 'route', 'status'],
      buckets: LATENCY_BUCKETS,
      registers,
    });
    this.httpInFlight = new Gauge({ name: 'cf_http_requests_in_flight', help: 'HTTP requests being answered now', registers });
    this.jobDuration = new Histogram({
      name: 'cf_job_duration_seconds',
      help: 'Job attempts by queue, job name and outcome (completed or failed): run time, and through _count the rate',
      labelNames: ['queue', 'job', 'outcome'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.jobWait = new Histogram({
      name: 'cf_job_wait_seconds',
      help: 'Time a job waited in its queue before its first attempt started',
      labelNames: ['queue', 'job'],
      buckets: JOB_BUCKETS,
      registers,
    });
    this.rateLimited = new Counter({ name: 'cf_rate_limited_requests_total', help: 'Requests refused with 429 RATE_LIMITED', registers });
    this.rateLimiterFailures = new Counter({
      name: 'cf_rate_limiter_failures_total',
      help: 'Requests let through unlimited because the rate limiter store (Redis) did not answer (fail open)',
      registers,
    });
    const queues = this.queues;
    new Gauge({
      name: 'cf_queue_jobs',
      help: 'Jobs in each queue by state, read at scrape time (the BullMQ counts are the same from every process)',
      labelNames: ['queue', 'state'],
      registers,
      async collect() {
        this.reset();
        await Promise.all(
          [...queues].map(async ([queue, counts]) => {
            try {
              for (const [state, n] of Object.entries(await counts())) this.set({ queue, state }, n);
            } catch {
              // Redis away: no sample rather than a stale one (alert on absent(cf_queue_jobs)).
            }
          }),
        );
      },
    });
    const pools = this.pools;
    new Gauge({
      name: 'cf_db_pool_connections',
      help: 'Database pool connections by state: used, free, pending_acquires (requests waiting for one), pending_creates, max',
      labelNames: ['pool', 'state'],
      registers,
      collect() {
        this.reset();
        for (const [pool, read] of pools) {
          const s = read();
          this.set({ pool, state: 'used' }, s.used);
          this.set({ pool, state: 'free' }, s.free);
          this.set({ pool, state: 'pending_acquires' }, s.pendingAcquires);
          this.set({ pool, state: 'pending_creates' }, s.pendingCreates);
          this.set({ pool, state: 'max' }, s.max);
        }
      },
    });
  }

  /** Hook for other adapters' metrics (see MetricsCollector). */
  register(collector: MetricsCollector): void {
    collector(this.registry);
  }

  /** Reports the queue's counts by state at each scrape (cf_queue_jobs). */
  watchQueue(queue: string, counts: QueueCounts): void {
    this.queues.set(queue, counts);
  }

  /** Reports the pool's connections at each scrape (cf_db_pool_connections). */
  watchPool(pool: string, read: () => PoolState): void {
    this.pools.set(pool, read);
  }

  requestStarted(): void {
    this.httpInFlight.inc();
  }

  /** One HTTP answer; `route` is the route pattern (`/debts/:id`), never the raw path. */
  observeRequest(method: string, route: string, status: number, seconds: number): void {
    this.httpInFlight.dec();
    // Children cached by label values: the label hashing happens once per combination.
    const key = `${method} ${route} ${status}`;
    let child = this.httpChildren.get(key);
    if (!child) {
      child = this.httpDuration.labels(method, route, String(status));
      this.httpChildren.set(key, child);
    }
    child.observe(seconds);
  }

  jobFinished(job: FinishedJob): void {
    this.jobDuration.observe({ queue: job.queue, job: job.name, outcome: job.outcome }, job.runSeconds);
    if (job.waitSeconds !== null) this.jobWait.observe({ queue: job.queue, job: job.name }, job.waitSeconds);
  }

  requestRateLimited(): void {
    this.rateLimited.inc();
  }

  rateLimiterFailed(): void {
    this.rateLimiterFailures.inc();
  }

  /** The exposition text and its content type. */
  async render(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
