/**
 * SIGTERM with work in flight, on the real entrypoints as child processes: the API stops taking
 * connections, answers the request it was reading, and exits 0; the worker finishes the job it
 * was running (held up here by a row lock the test holds) and exits 0. No test hook in the
 * processes: the slow request is a slow client, the slow job a real lock wait.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import type { Knex } from 'knex';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { buildApplication } from '../../internal/application';
import { type Infrastructure, openInfrastructure } from '../../cmd/shared/infrastructure';
import { exitCodeWithin, killIfAlive, type Proc, startProcess, waitFor } from '../support/child-process';
import { createMigratedTestDatabase, mysqlAvailable, redisAvailable, type TestDatabase, TEST_REDIS_URL } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { samples, sampleValue } from '../support/prometheus';
import { TEST_SECRETS_KEY, TEST_SECRETS_KEYS } from '../support/secrets';

const started: Proc[] = [];

interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Record<string, any>;
}

/** A request whose body the test sends in two parts, as a slow client would. */
function slowRequest(port: number, route: string, headers: Record<string, string>, body: string) {
  const req = http.request({ host: '127.0.0.1', port, method: 'POST', path: route, agent: false, headers: { ...headers, 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)) } });
  const response = new Promise<RawResponse>((resolve, reject) => {
    req.on('error', reject);
    req.on('response', (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
  });
  const half = Math.floor(body.length / 2);
  req.flushHeaders();
  req.write(body.slice(0, half));
  return { response, finish: () => req.end(body.slice(half)) };
}

/** A GET on a connection of its own: status, headers and the JSON body. */
function rawGet(port: number, route: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: route, agent: false, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString()));
      res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text) }));
    });
    req.on('error', reject);
  });
}

/** The error code of a connection attempt, or 'connected'. */
function connectOutcome(port: number): Promise<string> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: '/health/live', agent: false }, (res) => {
      res.resume();
      resolve('connected');
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
  });
}

const logged = (proc: Proc, msg: string) => proc.logs().find((l) => l.msg === msg);

describe('graceful shutdown', function () {
  this.timeout(60_000);
  after(() => started.forEach(killIfAlive));

  describe('api process [embedded default: sqlite, in-process jobs]', () => {
    let dir = '';
    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-shutdown-'));
    });
    after(() => {
      started.forEach(killIfAlive);
      fs.rmSync(dir, { recursive: true, force: true });
    });

    /** The API on a SQLite file of `name` in `dir`, its port and the demo tenant's credential headers. */
    async function startDemoApi(name: string, env: Record<string, string> = {}) {
      const api = startProcess('cmd/api/main.ts', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', DATABASE_URL: `sqlite:${path.join(dir, `${name}.sqlite`)}`, DATA_DIR: dir, ...env });
      started.push(api);
      const listening = await waitFor(() => api.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc: api, timeoutMs: 30_000 });
      const port = listening.port as number;
      const banner = (label: string) => new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(api.output())![1]!;
      await waitFor(() => api.output().includes('loginApiKey'), 'the demo banner', { proc: api });
      const login = await fetch(`http://127.0.0.1:${port}/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': banner('loginApiKey') },
        body: JSON.stringify({ clientUsername: banner('clientUsername'), password: banner('password') }),
      });
      const { accessToken } = (await login.json()) as { accessToken: string };
      return { api, port, credentials: { 'x-api-key': banner('apiKey'), 'x-authorization-token': accessToken } };
    }

    it('refuses new connections at once, answers the request in flight, then exits 0', async () => {
      const { api, port, credentials } = await startDemoApi('db');

      const slow = slowRequest(port, '/contacts', credentials, JSON.stringify({ externalClientId: 'in-flight', name: 'Slow Client', email: 'slow@example.com' }));
      // In flight: the API has its headers and waits for the rest of the body (the scrape is the other one).
      await waitFor(async () => sampleValue(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text(), 'cf_http_requests_in_flight') >= 2, 'the request in flight', { proc: api });

      api.child.kill('SIGTERM');
      await waitFor(() => logged(api, 'shutting down'), '"shutting down"', { proc: api });
      expect(await connectOutcome(port)).to.equal('ECONNREFUSED');
      expect(await exitCodeWithin(api, 500), 'still waiting for the request in flight').to.equal('timeout');

      slow.finish();
      const answer = await slow.response;
      expect(answer.status, JSON.stringify(answer.body)).to.equal(201);
      expect(answer.body.data).to.include({ externalClientId: 'in-flight', name: 'Slow Client' });
      expect(answer.headers.connection, 'the client is told not to reuse the connection').to.equal('close');

      expect(await exitCodeWithin(api, 15_000), api.output()).to.equal(0);
      const steps = api.logs().filter((l) => l.msg === 'shutdown step done').map((l) => l.step);
      expect(steps).to.deep.equal(['readiness', 'http', 'timers', 'webhook dispatcher', 'workers', 'infrastructure', 'metrics']);
      expect(logged(api, 'stopped')).to.not.equal(undefined);
    });

    it('with SHUTDOWN_DELAY_MS answers not-ready at once and keeps serving for the delay, then drains and exits 0', async () => {
      const DELAY = 2000;
      const { api, port, credentials } = await startDemoApi('delay', { SHUTDOWN_DELAY_MS: String(DELAY) });
      const get = (route: string, headers: Record<string, string> = {}) => rawGet(port, route, headers);
      expect((await get('/health/ready')).status).to.equal(200);

      const signalled = Date.now();
      api.child.kill('SIGTERM');
      await waitFor(() => logged(api, 'shutting down'), '"shutting down"', { proc: api });
      const ready = await get('/health/ready');
      expect(ready.status, 'not ready at once').to.equal(503);
      expect(ready.headers['retry-after']).to.equal('5');
      expect(ready.body.data).to.deep.equal({ status: 'unavailable', checks: [{ name: 'shutdown', status: 'unavailable', issue: 'the process is shutting down' }] });
      expect(ready.headers.connection, 'pooled connections are told to end').to.equal('close');

      // Still serving (new connections too) while the load balancer's checks take it out.
      expect((await get('/health/live')).status).to.equal(200);
      const list = await get('/contacts', credentials);
      expect(list.status, JSON.stringify(list.body)).to.equal(200);
      expect(list.headers.connection).to.equal('close');
      expect(await connectOutcome(port)).to.equal('connected');

      const readinessDone = await waitFor(() => api.logs().find((l) => l.msg === 'shutdown step done' && l.step === 'readiness'), 'the readiness step', { proc: api, timeoutMs: 10_000 });
      expect(readinessDone.ms as number).to.be.at.least(DELAY - 50);
      expect(Date.now() - signalled).to.be.at.least(DELAY - 50);
      expect(await exitCodeWithin(api, 15_000), api.output()).to.equal(0);
      expect(await connectOutcome(port)).to.equal('ECONNREFUSED');
      const steps = api.logs().filter((l) => l.msg === 'shutdown step done').map((l) => l.step);
      expect(steps.slice(0, 2)).to.deep.equal(['readiness', 'http']);
    });
  });

  describe('worker process [mysql + redis]', () => {
    const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
    let database: TestDatabase | null = null;
    let infra: Infrastructure | null = null;
    let producer: BullmqJobQueue | null = null;
    let lock: Knex.Transaction | null = null;

    before(async function () {
      if (!(await mysqlAvailable()) || !(await redisAvailable())) this.skip();
      database = await createMigratedTestDatabase('mysql');
      infra = await openInfrastructure({ databaseUrl: database.url, redisUrl: null, queuePrefix: prefix, jwtSecret: JWT_TEST_SECRET, secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development', migrate: false, publicBaseUrl: 'http://localhost:3000' });
      producer = new BullmqJobQueue(TEST_REDIS_URL, prefix);
    });
    after(async () => {
      started.forEach(killIfAlive);
      await lock?.rollback().catch(() => undefined);
      if (producer) {
        await producer.queue.obliterate({ force: true });
        await producer.close();
      }
      await infra?.close();
      await database?.drop();
    });

    it('finishes the job it is running, reports it in its metrics, then exits 0', async () => {
      const app = buildApplication(infra!.ports);
      const suffix = crypto.randomBytes(4).toString('hex');
      const created = await app.commands.createClient.execute({ organization: `Org ${suffix}`, username: `user_${suffix}`, password: 'password-123', companies: [], settings: {} });
      const user = (await infra!.ports.repos.credentials.findClientUserByUsername(created.clientUsername))!;

      const worker = startProcess('cmd/worker/main.ts', { DATABASE_URL: database!.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, LOG_LEVEL: 'info', METRICS_PORT: '0', HOST: '127.0.0.1' });
      started.push(worker);
      const ready = await waitFor(() => logged(worker, 'worker ready'), '"worker ready"', { proc: worker, timeoutMs: 30_000 });
      const metricsUrl = `http://127.0.0.1:${ready.metricsPort as number}/metrics`;
      const PURGE = 'tenancy.purge-expired-refresh-tokens';
      // The purge a worker schedules on start has run: from here only our job touches the token.
      await waitFor(() => worker.logs().find((l) => l.msg === 'job completed' && l.name === PURGE), 'the startup purge', { proc: worker });

      const tokenHash = crypto.randomBytes(32).toString('hex');
      const family = await infra!.ports.repos.refreshTokens.startRefreshTokenFamily(user.id, new Date());
      await infra!.ports.repos.refreshTokens.insertRefreshToken(user.id, tokenHash, new Date(Date.now() - 60_000), family);
      lock = await infra!.db!.transaction();
      await lock('refresh_tokens').where({ token_hash: tokenHash }).forUpdate().select('id');

      const jobId = `purge-${suffix}`;
      await producer!.enqueue({ name: PURGE, data: {}, jobId });
      await waitFor(async () => (await (await producer!.queue.getJob(jobId))?.getState()) === 'active', 'the job to be active (waiting on the lock)', { proc: worker });
      const during = await (await fetch(metricsUrl)).text();
      expect(sampleValue(during, 'cf_queue_jobs', { queue: 'collections', state: 'active', process: 'worker' })).to.equal(1);
      expect(sampleValue(during, 'cf_db_pool_connections', { pool: 'main', state: 'used' })).to.be.at.least(1);
      expect(samples(during, 'cf_webhook_deliveries', { process: 'worker' }).map((s) => s.labels.status).sort(), 'workers report webhook deliveries').to.deep.equal(['CANCELLED', 'FAILED', 'PENDING', 'SUCCEEDED']);

      worker.child.kill('SIGTERM');
      await waitFor(() => logged(worker, 'shutting down'), '"shutting down"', { proc: worker });
      expect(await exitCodeWithin(worker, 500), 'still running the job').to.equal('timeout');
      expect(await (await producer!.queue.getJob(jobId))!.getState()).to.equal('active');

      await lock.commit();
      lock = null;
      const completed = await waitFor(() => worker.logs().find((l) => l.msg === 'job completed' && l.jobId === jobId), `"job completed" for ${jobId}`, { proc: worker });
      expect(completed.result).to.deep.equal({ purged: 1 });
      expect(await exitCodeWithin(worker, 15_000), worker.output()).to.equal(0);
      expect(await (await producer!.queue.getJob(jobId))!.getState()).to.equal('completed');
      const steps = worker.logs().filter((l) => l.msg === 'shutdown step done').map((l) => l.step);
      expect(steps).to.deep.equal(['outbox dispatcher', 'webhook dispatcher', 'workers', 'infrastructure', 'metrics']);
      expect(samples(during, 'cf_job_duration_seconds_count', { queue: 'collections', job: PURGE, outcome: 'completed', process: 'worker' })).to.have.length(1);
    });
  });
});
