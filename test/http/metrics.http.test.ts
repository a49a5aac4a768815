/**
 * GET /metrics after real traffic: the series of docs/operations.md exist with the right labels
 * (route patterns, never raw paths), queue depth and job latency, the database pool, process
 * metrics; and METRICS_TOKEN protects the endpoint.
 */
import { expect } from 'chai';
import { type ApiHarness, describeEachDatabase, startApi } from '../support/harness';
import { expectError, expectOk } from '../support/http-expect';
import { waitFor } from '../support/child-process';
import { parseSamples, samples, sampleValue } from '../support/prometheus';

const scrape = async (api: ApiHarness): Promise<string> => {
  const res = await api.http.get('/metrics');
  expect(res.status, res.text).to.equal(200);
  expect(res.headers['content-type']).to.equal('text/plain; version=0.0.4; charset=utf-8');
  return res.text;
};

describeEachDatabase(
  'metrics',
  ({ api }) => {
    it('counts and times requests by method, route pattern and status, and labels the process', async () => {
      const tenant = await api().newTenant();
      const before = await scrape(api());
      const count = (text: string, labels: Record<string, string>) =>
        samples(text, 'cf_http_request_duration_seconds_count', labels).reduce((sum, s) => sum + s.value, 0);

      const created = expectOk(await api().http.post('/contacts').set(tenant.headers).send({ externalClientId: 'm-1', name: 'Metric', email: 'm@example.com' }), 201);
      expectOk(await api().http.get(`/contacts/${created.contactId}`).set(tenant.headers));
      expectOk(await api().http.get(`/contacts/${created.contactId}`).set(tenant.headers));
      expectError(await api().http.get('/contacts/con_missing').set(tenant.headers), 404, 'RESOURCE_NOT_FOUND');
      expectError(await api().http.get(`/no/such/path/${created.contactId}`), 404, 'RESOURCE_NOT_FOUND');
      const text = await scrape(api());

      expect(count(text, { method: 'POST', route: '/contacts', status: '201', process: 'api' }) - count(before, { method: 'POST', route: '/contacts', status: '201' })).to.equal(1);
      expect(count(text, { method: 'GET', route: '/contacts/:id', status: '200' }) - count(before, { method: 'GET', route: '/contacts/:id', status: '200' })).to.equal(2);
      expect(count(text, { method: 'GET', route: '/contacts/:id', status: '404' }) - count(before, { method: 'GET', route: '/contacts/:id', status: '404' })).to.equal(1);
      expect(count(text, { method: 'GET', route: 'unmatched', status: '404' }) - count(before, { method: 'GET', route: 'unmatched', status: '404' })).to.equal(1);
      // Histogram buckets for the same series, and no raw path anywhere in the labels.
      expect(samples(text, 'cf_http_request_duration_seconds_bucket', { route: '/contacts/:id', status: '200', le: '+Inf' })).to.have.length(1);
      const routes = new Set(samples(text, 'cf_http_request_duration_seconds_count').map((s) => s.labels.route));
      expect([...routes].filter((r) => r!.includes('con_'))).to.deep.equal([]);
      // The scrape itself is the request in flight while it renders.
      expect(sampleValue(text, 'cf_http_requests_in_flight')).to.equal(1);
    });

    it('counts 429 answers', async () => {
      const tenant = await api().newTenant();
      await api().app.commands.setRateLimit.execute(String(tenant.organizationId), { capacity: 1, refillPerSecond: 0.01 }, { type: 'operator', name: 'test' });
      const before = sampleValue(await scrape(api()), 'cf_rate_limited_requests_total');
      await api().http.get('/contacts').set(tenant.headers);
      expectError(await api().http.get('/contacts').set(tenant.headers), 429, 'RATE_LIMITED');
      const text = await scrape(api());
      expect(sampleValue(text, 'cf_rate_limited_requests_total') - before).to.equal(1);
      expect(samples(text, 'cf_http_request_duration_seconds_count', { route: '/contacts', status: '429' })).to.have.length(1);
      expect(sampleValue(text, 'cf_rate_limiter_failures_total')).to.equal(0);
    });

    it('reports the database pool, the queue depth, job latency and the process', async () => {
      const tenant = await api().newTenant();
      const created = await api().http.post('/subscriptions').set(tenant.headers).send({
        externalSubscriptionId: 'metrics-sub',
        contactData: { externalClientId: 'metrics-debtor', name: 'Debtor', email: 'debtor@example.com' },
        amount: 10, intervalUnit: 'month', intervalCount: 1, startDate: '2030-01-15', totalCycles: 3, productName: 'Plan',
      });
      expectOk(created, 201);
      await api().drainJobs();
      const text = await scrape(api());

      for (const state of ['used', 'free', 'pending_acquires', 'pending_creates', 'max']) {
        expect(sampleValue(text, 'cf_db_pool_connections', { pool: 'main', state }), state).to.be.at.least(0);
      }
      expect(sampleValue(text, 'cf_db_pool_connections', { pool: 'main', state: 'max' })).to.equal(api().kind === 'sqlite' ? 1 : 10);

      const queueStates = samples(text, 'cf_queue_jobs', { queue: 'collections' }).map((s) => s.labels.state).sort();
      if (api().infra.jobs.inProcess) {
        expect(queueStates).to.deep.equal(['active', 'waiting']);
        // The in-process queue ran the generation here; the BullMQ leg's worker process reports its own.
        const runs = samples(text, 'cf_job_duration_seconds_count', { queue: 'collections', job: 'subscriptions.generate-cycles', outcome: 'completed' });
        expect(runs).to.have.length(1);
        expect(runs[0]!.value).to.be.at.least(1);
        expect(sampleValue(text, 'cf_job_wait_seconds_count', { queue: 'collections', job: 'subscriptions.generate-cycles' })).to.be.at.least(1);
      } else {
        expect(queueStates).to.deep.equal(['active', 'delayed', 'failed', 'prioritized', 'waiting', 'waiting-children']);
        expect(sampleValue(text, 'cf_queue_jobs', { queue: 'collections', state: 'waiting' })).to.equal(0);
      }

      for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
        expect(samples(text, name, { process: 'api' }), name).to.have.length.of.at.least(1);
      }
      expect(parseSamples(text).every((s) => s.labels.process === 'api'), 'every series carries process="api"').to.equal(true);
    });

    it('reports webhook delivery outcomes from the processes that deliver them (here the API runs its own jobs)', async () => {
      const tenant = await api().newTenant();
      if (api().withWorker) {
        // The worker process delivers and reports them; this API only enqueues.
        expect(samples(await scrape(api()), 'cf_webhook_deliveries')).to.have.length(0);
        return;
      }
      expectOk(
        await api().http.post('/webhook-endpoints').set(tenant.headers).send({ url: 'http://127.0.0.1:9/unreachable', enabledEvents: ['contact.created'] }),
        201,
      );
      const before = await scrape(api());
      expectOk(await api().http.post('/contacts').set(tenant.headers).send({ externalClientId: 'hooked', name: 'Hooked', email: 'h@example.com' }), 201);
      await api().app.jobs.dispatchWebhooks.execute();
      await api().drainJobs();
      // One read of the counts serves the scrapes of the next second; poll until a fresh one.
      let text = '';
      const delta = (name: string, labels: Record<string, string>) => sampleValue(text, name, labels) - sampleValue(before, name, labels);
      await waitFor(async () => {
        text = await scrape(api());
        return delta('cf_webhook_delivery_attempts', { outcome: 'failed' }) > 0;
      }, 'a scrape that reads the new delivery attempt', { timeoutMs: 5000, everyMs: 100 }).catch(() => undefined);
      expect(delta('cf_webhook_deliveries', { status: 'PENDING', process: 'api' })).to.equal(1);
      expect(delta('cf_webhook_delivery_attempts', { outcome: 'failed' })).to.equal(1);
      expect(samples(text, 'cf_webhook_deliveries').map((s) => s.labels.status).sort()).to.deep.equal(['CANCELLED', 'FAILED', 'PENDING', 'SUCCEEDED']);
    });

    it('serves /metrics without facade credentials and outside the OpenAPI document', async () => {
      const res = await api().http.get('/metrics');
      expect(res.status).to.equal(200);
      expect(res.headers).to.not.have.property('ratelimit-limit');
      const openapi = (await api().http.get('/openapi.json')).body;
      expect(Object.keys(openapi.paths)).to.not.include('/metrics');
    });
  },
  { withWorker: true },
);

describe('GET /metrics with METRICS_TOKEN [sqlite]', function () {
  this.timeout(30_000);
  let api: ApiHarness | null = null;
  before(async () => {
    api = await startApi('sqlite', { metricsToken: 'scrape-secret-123' });
  });
  after(async () => {
    await api?.close();
  });

  it('answers 401 AUTHENTICATION_FAILED in the envelope without the bearer token or with another one', async () => {
    for (const authorization of [undefined, 'Bearer wrong', 'scrape-secret-123', 'Basic c2NyYXBlOnNlY3JldA==']) {
      const req = api!.http.get('/metrics');
      const res = authorization ? await req.set('authorization', authorization) : await req;
      expectError(res, 401, 'AUTHENTICATION_FAILED');
      expect(res.headers['www-authenticate']).to.equal('Bearer');
    }
  });

  it('answers the metrics with Authorization: Bearer <METRICS_TOKEN>', async () => {
    const res = await api!.http.get('/metrics').set('authorization', 'Bearer scrape-secret-123');
    expect(res.status).to.equal(200);
    expect(samples(res.text, 'cf_http_request_duration_seconds_count', { route: '/metrics', status: '401' })).to.have.length(1);
  });
});

describe('GET /metrics in production [sqlite]', function () {
  this.timeout(30_000);
  const apis: ApiHarness[] = [];
  after(async () => {
    for (const api of apis) await api.close();
  });

  it('is not mounted on the API port without METRICS_TOKEN: the 404 of any unknown path', async () => {
    const api = await startApi('sqlite', { appEnv: 'production' });
    apis.push(api);
    const res = await api.http.get('/metrics');
    expectError(res, 404, 'RESOURCE_NOT_FOUND');
    expect(res.text).to.not.include('nodejs_');
  });

  it('wants the bearer token with METRICS_TOKEN', async () => {
    const api = await startApi('sqlite', { appEnv: 'production', metricsToken: 'production-scrape-token' });
    apis.push(api);
    expectError(await api.http.get('/metrics'), 401, 'AUTHENTICATION_FAILED');
    expect((await api.http.get('/metrics').set('authorization', 'Bearer production-scrape-token')).status).to.equal(200);
  });
});
