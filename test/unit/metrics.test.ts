import { expect } from 'chai';
import { Counter, Gauge } from 'prom-client';
import { Metrics } from '../../adapters/metrics/metrics';
import { startMetricsServer } from '../../adapters/metrics/metrics-server';
import { InProcessJobQueue } from '../../adapters/queue/in-process/in-process-job-queue';
import type { FinishedJob } from '../../ports/job-consumer';
import { DomainError } from '../../internal/shared/errors';
import type { JobHandlers } from '../../ports/job-queue';
import { samples, sampleValue } from '../support/prometheus';

describe('Metrics (the per-process registry)', () => {
  it('lets another adapter register its own metrics through register() (the webhook delivery hook)', async () => {
    const metrics = new Metrics('worker');
    let deliveries: Counter<'outcome'> | null = null;
    metrics.register((registry) => {
      deliveries = new Counter({ name: 'cf_webhook_deliveries_total', help: 'test', labelNames: ['outcome'], registers: [registry] });
    });
    deliveries!.inc({ outcome: 'succeeded' }, 2);
    deliveries!.inc({ outcome: 'failed' });
    let scrapes = 0;
    metrics.register((registry) => new Gauge({ name: 'cf_test_scraped', help: 'test', registers: [registry], collect() { this.set(++scrapes); } }));
    const { body } = await metrics.render();
    expect(sampleValue(body, 'cf_webhook_deliveries_total', { outcome: 'succeeded', process: 'worker' })).to.equal(2);
    expect(sampleValue(body, 'cf_webhook_deliveries_total', { outcome: 'failed' })).to.equal(1);
    expect(sampleValue(body, 'cf_test_scraped')).to.equal(1);
  });

  it('keeps registries apart: two in one process do not collide', async () => {
    const a = new Metrics('api');
    const b = new Metrics('api');
    a.observeRequest('GET', '/x', 200, 0.01);
    expect(samples((await b.render()).body, 'cf_http_request_duration_seconds_count')).to.deep.equal([]);
    expect(sampleValue((await a.render()).body, 'cf_http_request_duration_seconds_count', { route: '/x' })).to.equal(1);
  });

  it('times job attempts by queue, name and outcome, and the wait of first attempts only', async () => {
    const metrics = new Metrics('worker');
    const job = (outcome: FinishedJob['outcome'], waitSeconds: number | null): FinishedJob => ({ queue: 'collections', name: 'debts.mark-overdue', jobId: null, outcome, attempts: 1, runSeconds: 0.2, waitSeconds });
    metrics.jobFinished(job('failed', 0.5));
    metrics.jobFinished(job('completed', null));
    const { body } = await metrics.render();
    expect(sampleValue(body, 'cf_job_duration_seconds_count', { job: 'debts.mark-overdue', outcome: 'failed' })).to.equal(1);
    expect(sampleValue(body, 'cf_job_duration_seconds_count', { job: 'debts.mark-overdue', outcome: 'completed' })).to.equal(1);
    expect(sampleValue(body, 'cf_job_wait_seconds_count', { job: 'debts.mark-overdue' })).to.equal(1);
    expect(sampleValue(body, 'cf_job_wait_seconds_sum', { job: 'debts.mark-overdue' })).to.equal(0.5);
  });

  it('reads queue counts at scrape time and drops a queue that cannot answer instead of showing stale numbers', async () => {
    const metrics = new Metrics('api');
    let fail = false;
    metrics.watchQueue('collections', async () => {
      if (fail) throw new Error('Redis away');
      return { waiting: 3, active: 1 };
    });
    expect(sampleValue((await metrics.render()).body, 'cf_queue_jobs', { queue: 'collections', state: 'waiting' })).to.equal(3);
    fail = true;
    expect(samples((await metrics.render()).body, 'cf_queue_jobs')).to.deep.equal([]);
  });

  it('serves /metrics on a listener of its own (workers), behind the bearer token when one is set', async () => {
    const metrics = new Metrics('worker');
    const server = await startMetricsServer(metrics, { port: 0, host: '127.0.0.1', token: 'tok' });
    try {
      const url = `http://127.0.0.1:${server.port}`;
      expect((await fetch(`${url}/metrics`)).status).to.equal(401);
      const ok = await fetch(`${url}/metrics`, { headers: { authorization: 'Bearer tok' } });
      expect(ok.status).to.equal(200);
      expect(ok.headers.get('content-type')).to.equal('text/plain; version=0.0.4; charset=utf-8');
      expect(samples(await ok.text(), 'process_cpu_seconds_total', { process: 'worker' })).to.have.length(1);
      expect((await fetch(`${url}/other`, { headers: { authorization: 'Bearer tok' } })).status).to.equal(404);
    } finally {
      await server.close();
    }
  });
});

describe('InProcessJobQueue observation', () => {
  it('reports every attempt (a retried failure, then success) with its wait on the first, and its counts', async () => {
    const seen: FinishedJob[] = [];
    const queue = new InProcessJobQueue({ attempts: 3 });
    let calls = 0;
    let release: () => void = () => undefined;
    const gate = new Promise<void>((resolve) => (release = resolve));
    await queue.start({
      'debts.mark-overdue': async () => {
        if (++calls === 1) throw new Error('transient');
        await gate;
      },
      'payment-links.mark-expired': async () => {
        throw new (class extends DomainError {
          readonly code = 'BUSINESS_RULE_VIOLATION';
        })('never');
      },
    } as unknown as JobHandlers, []);
    queue.observe({ jobFinished: (job) => seen.push(job) });
    await queue.enqueue({ name: 'debts.mark-overdue', data: {} });
    expect(await queue.counts()).to.deep.equal({ waiting: 1, active: 0 });
    while (calls < 2) await new Promise((resolve) => setImmediate(resolve));
    expect(await queue.counts()).to.deep.equal({ waiting: 0, active: 1 });
    release();
    await queue.enqueue({ name: 'payment-links.mark-expired', data: {} });
    await queue.drain();
    expect(await queue.counts()).to.deep.equal({ waiting: 0, active: 0 });
    expect(seen.map((j) => [j.name, j.outcome, j.waitSeconds === null])).to.deep.equal([
      ['debts.mark-overdue', 'failed', false],
      ['debts.mark-overdue', 'completed', true],
      ['payment-links.mark-expired', 'failed', false],
    ]);
    expect(seen.every((j) => j.queue === 'collections' && j.runSeconds >= 0)).to.equal(true);
  });
});
