/**
 * The real API entrypoint (cmd/api/main.ts) as a separate process: the embedded default on a
 * SQLite file (demo banner, login, a contact, graceful stop, restart), then on MySQL and on
 * PostgreSQL with Redis beside a worker process.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { exitCodeWithin, killIfAlive, type LogLine, type Proc, startProcess, waitFor } from '../support/child-process';
import { createTestDatabase, databaseAvailable, type DatabaseKind, redisAvailable, type TestDatabase, TEST_REDIS_URL } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';

/** How long each wait on a child process here may take. */
const API_WAIT_MS = 20_000;

async function stopGracefully(proc: Proc): Promise<void> {
  proc.child.kill('SIGTERM');
  expect(await exitCodeWithin(proc, 15_000), proc.output()).to.equal(0);
}

/** Until `count` is above zero and has not changed for 500 ms (at most 10 s). */
async function settled(count: () => number, proc: Proc): Promise<void> {
  let last = -1;
  let since = Date.now();
  await waitFor(
    () => {
      const now = count();
      if (now !== last) [last, since] = [now, Date.now()];
      return now > 0 && Date.now() - since >= 500;
    },
    'the first scheduled jobs to complete',
    { proc, timeoutMs: 10_000 },
  );
}

/** Every process started here; after() ends those still alive. */
const started: Proc[] = [];

/** Starts the API and waits for its "listening on" log line; returns the process and the port. */
async function startApi(env: Record<string, string>): Promise<{ proc: Proc; port: number; listening: LogLine }> {
  const proc = startProcess('cmd/api/main.ts', { PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env });
  started.push(proc);
  const listening = await waitFor(() => proc.logs().find((l) => String(l.msg).startsWith('listening on')), '"listening on"', { proc, timeoutMs: API_WAIT_MS });
  expect(listening.port).to.be.a('number').above(0);
  return { proc, port: listening.port as number, listening };
}

/** A value of the demo banner: `    <label>   <value>`. */
function bannerValue(output: string, label: string): string | null {
  return new RegExp(`^\\s+${label}\\s+(\\S+)\\s*$`, 'm').exec(output)?.[1] ?? null;
}

interface DemoCredentials {
  clientUsername: string;
  password: string;
  apiKey: string;
  loginApiKey: string;
}

function demoCredentials(output: string): DemoCredentials {
  const value = (label: string): string => {
    const found = bannerValue(output, label);
    if (!found) throw new Error(`the banner has no ${label}:\n${output}`);
    return found;
  };
  return { clientUsername: value('clientUsername'), password: value('password'), apiKey: value('apiKey'), loginApiKey: value('loginApiKey') };
}

async function call(port: number, method: string, route: string, headers: Record<string, string> = {}, body?: unknown) {
  const res = await fetch(`http://127.0.0.1:${port}${route}`, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

const DEMO_BANNER = 'Sandbox demo tenant created';

// ---------------------------------------------------------------------------------------------

describe('api process', function () {
  this.timeout(40_000);
  after(() => started.forEach(killIfAlive));

  describe('embedded default [sqlite, in-process jobs]', () => {
    let dir = '';
    let demo: DemoCredentials | null = null;

    before(() => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-api-process-'));
    });
    after(() => {
      started.forEach(killIfAlive);
      fs.rmSync(dir, { recursive: true, force: true });
    });
    const env = () => ({ DATABASE_URL: `sqlite:${path.join(dir, 'db.sqlite')}`, DATA_DIR: dir });

    it('prints demo credentials that log in and create a contact, and stops on SIGTERM with code 0', async () => {
      const { proc, port, listening } = await startApi(env());
      const output = await waitFor(() => (proc.output().includes(DEMO_BANNER) ? proc.output() : null), 'the demo banner', { proc, timeoutMs: API_WAIT_MS });
      expect(listening).to.include({ appEnv: 'development', database: 'sqlite', queue: 'in-process' });
      demo = demoCredentials(output);
      expect(demo.apiKey).to.match(/^ck_dev_[A-Za-z0-9]+$/);
      expect(demo.loginApiKey).to.match(/^lk_dev_[A-Za-z0-9]+$/);
      expect(demo.clientUsername).to.equal('demo');
      expect(demo.password).to.have.length.of.at.least(8);

      const login = await call(port, 'POST', '/auth/login', { 'x-api-key': demo.loginApiKey }, { clientUsername: demo.clientUsername, password: demo.password });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      expect(login.body.accessToken).to.be.a('string');
      expect(login.body.refreshToken).to.be.a('string');
      expect(login.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);

      const created = await call(
        port,
        'POST',
        '/contacts',
        { 'x-api-key': demo.apiKey, 'x-authorization-token': login.body.accessToken },
        { externalClientId: 'client-001', name: 'Ana López', email: 'ana@example.com' },
      );
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data).to.include({ externalClientId: 'client-001', name: 'Ana López', email: 'ana@example.com' });
      expect(created.body.data.contactId).to.match(/^con_[A-Za-z0-9]+$/);

      await stopGracefully(proc);
      expect(proc.logs().map((l) => l.msg)).to.include.members(['shutting down', 'stopped']);
    });

    it('prints no new demo credentials when started again on the same database', async () => {
      expect(demo, 'needs the first start of this suite').to.not.equal(null);
      const { proc, port } = await startApi(env());
      expect(proc.output()).to.not.include(DEMO_BANNER);
      expect(bannerValue(proc.output(), 'apiKey')).to.equal(null);
      expect(bannerValue(proc.output(), 'password')).to.equal(null);
      expect(proc.output()).to.include('Database already has tenants');
      // The first start's tenant is still there: its credentials log in.
      const login = await call(port, 'POST', '/auth/login', { 'x-api-key': demo!.loginApiKey }, { clientUsername: demo!.clientUsername, password: demo!.password });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      await stopGracefully(proc);
    });
  });

  for (const kind of ['mysql', 'postgres'] as DatabaseKind[]) {
    describe(`on ${kind === 'mysql' ? 'MySQL' : 'PostgreSQL'} with Redis, beside a worker process`, () => {
      const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
      let database: TestDatabase | null = null;
      let dir = '';

      before(async function () {
        if (!(await databaseAvailable(kind)) || !(await redisAvailable())) this.skip();
        database = await createTestDatabase(kind);
        dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cf-api-process-'));
      });
      after(async () => {
        started.forEach(killIfAlive);
        if (database) {
          const queue = new BullmqJobQueue(TEST_REDIS_URL, prefix);
          await queue.queue.obliterate({ force: true });
          await queue.close();
          await database.drop();
        }
        if (dir) fs.rmSync(dir, { recursive: true, force: true });
      });

      it('GET /health/ready reports database and redis ok', async () => {
        const env = { DATABASE_URL: database!.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, JWT_SECRET: JWT_TEST_SECRET, DATA_DIR: dir };
        const { proc: api, port, listening } = await startApi(env); // migrates the database on start
        expect(listening).to.include({ database: kind, queue: 'bullmq' });
        const worker = startProcess('cmd/worker/main.ts', { ...env, LOG_LEVEL: 'info' });
        started.push(worker);
        await waitFor(() => worker.logs().find((l) => l.msg === 'worker ready'), '"worker ready"', { proc: worker, timeoutMs: API_WAIT_MS });
        // The worker runs its scheduled jobs at once: let that first burst end, so that the SIGTERM
        // below reaches a process whose event loop answers tsx's signal relay in time (tsx kills a
        // child that does not acknowledge a relayed signal within 30 ms, exit 143).
        await settled(() => worker.logs().filter((l) => l.msg === 'job completed').length, worker);

        const ready = await call(port, 'GET', '/health/ready');
        expect(ready.status, JSON.stringify(ready.body)).to.equal(200);
        expect(ready.body.data).to.deep.equal({
          status: 'ok',
          checks: [
            { name: 'database', status: 'ok' },
            { name: 'redis', status: 'ok' },
          ],
        });
        expect(ready.body.requestId).to.match(/^req_[A-Za-z0-9]+$/);

        await Promise.all([stopGracefully(api), stopGracefully(worker)]);
      });
    });
  }
});
