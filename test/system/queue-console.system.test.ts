/**
 * The queue console (bull-board at /queues on the METRICS_PORT listener) of a real worker process
 * on Redis: behind METRICS_TOKEN (401 without it, Bearer or Basic with it), the queue listed,
 * read-only unless QUEUE_CONSOLE_WRITE=true (a write is refused and changes nothing), and not
 * served at all without a token.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { BullmqJobQueue } from '../../adapters/queue/bullmq/bullmq-job-queue';
import { createMigratedTestDatabase, redisAvailable, TEST_REDIS_URL, type TestDatabase } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { TEST_SECRETS_KEY } from '../support/secrets';
import { startWorkerProcess, type WorkerProcess } from '../support/worker-process';

const TOKEN = 'console-token-0123456789abcdef';

describe('queue console (bull-board on the metrics port) [worker process, redis]', function () {
  this.timeout(60_000);
  const prefix = `test-${crypto.randomBytes(4).toString('hex')}`;
  let database: TestDatabase | null = null;
  let producer: BullmqJobQueue | null = null;
  const workers: WorkerProcess[] = [];

  async function startWorker(env: Record<string, string>): Promise<{ worker: WorkerProcess; base: string }> {
    const worker = await startWorkerProcess({ DATABASE_URL: database!.url, REDIS_URL: TEST_REDIS_URL, QUEUE_PREFIX: prefix, JWT_SECRET: JWT_TEST_SECRET, SECRETS_KEY: TEST_SECRETS_KEY, METRICS_PORT: '0', HOST: '127.0.0.1', ...env });
    workers.push(worker);
    const ready = worker.logs().find((l) => l.msg === 'worker ready')!;
    return { worker, base: `http://127.0.0.1:${ready.metricsPort as number}` };
  }

  const bearer = { authorization: `Bearer ${TOKEN}` };

  before(async function () {
    if (!(await redisAvailable())) this.skip();
    database = await createMigratedTestDatabase('sqlite');
    producer = new BullmqJobQueue(TEST_REDIS_URL, prefix);
  });
  after(async () => {
    for (const w of workers) await w.stop();
    if (producer) {
      await producer.queue.obliterate({ force: true }).catch(() => undefined);
      await producer.close();
    }
    await database?.drop();
  });

  describe('read-only (the default)', () => {
    let base = '';
    before(async () => {
      const started = await startWorker({ METRICS_TOKEN: TOKEN });
      expect(started.worker.logs().find((l) => l.msg === 'worker ready')!.queueConsole).to.equal('read-only');
      base = started.base;
    });

    it('answers 401 without the token, or with a wrong one, and asks a browser for it', async () => {
      for (const path of ['/queues', '/queues/api/queues']) {
        const none = await fetch(`${base}${path}`);
        expect(none.status, path).to.equal(401);
        expect(none.headers.get('www-authenticate')).to.match(/^Basic realm="queue console"/);
        expect(((await none.json()) as { error: { code: string } }).error.code).to.equal('AUTHENTICATION_FAILED');
      }
      expect((await fetch(`${base}/queues/api/queues`, { headers: { authorization: 'Bearer wrong' } })).status).to.equal(401);
      const wrongBasic = `Basic ${Buffer.from('ops:wrong').toString('base64')}`;
      expect((await fetch(`${base}/queues/api/queues`, { headers: { authorization: wrongBasic } })).status).to.equal(401);
    });

    it('with the token lists the queue, its jobs and says it is read-only; the page renders', async () => {
      await producer!.enqueue({ name: 'tenancy.purge-expired-refresh-tokens', data: {}, jobId: `console-${crypto.randomBytes(3).toString('hex')}` });
      const answer = await fetch(`${base}/queues/api/queues`, { headers: bearer });
      expect(answer.status).to.equal(200);
      const body = (await answer.json()) as { queues: { name: string; readOnlyMode: boolean; counts: Record<string, number> }[] };
      const queue = body.queues.find((q) => q.name === 'collections');
      expect(queue, JSON.stringify(body).slice(0, 500)).to.not.equal(undefined);
      expect(queue!.readOnlyMode).to.equal(true);
      expect(Object.keys(queue!.counts)).to.include.members(['waiting', 'active', 'completed', 'failed', 'delayed']);

      const basic = `Basic ${Buffer.from(`ops:${TOKEN}`).toString('base64')}`;
      const page = await fetch(`${base}/queues`, { headers: { authorization: basic } });
      expect(page.status).to.equal(200);
      expect(page.headers.get('content-type')).to.match(/text\/html/);
      const html = await page.text();
      expect(html).to.match(/<base href="\/queues\/?"/);
      // Its scripts come from the same listener, behind the same token (a browser resends Basic).
      const script = /src="(static\/js\/[^"]+)"/.exec(html)![1]!;
      expect((await fetch(`${base}/queues/${script}`, { headers: { authorization: basic } })).status).to.equal(200);
      expect((await fetch(`${base}/queues/${script}`)).status).to.equal(401);
    });

    it('refuses a write (pause the queue) and the queue is not paused', async () => {
      const pause = await fetch(`${base}/queues/api/queues/collections/pause`, { method: 'PUT', headers: bearer });
      expect(pause.status).to.equal(403);
      expect(((await pause.json()) as { error: { message: string } }).error.message).to.match(/read-only/);
      for (const [method, path] of [['PUT', '/queues/api/queues/pause'], ['PUT', '/queues/api/queues/collections/clean/completed'], ['PUT', '/queues/api/queues/collections/empty']] as const) {
        expect((await fetch(`${base}${path}`, { method, headers: bearer })).status, `${method} ${path}`).to.equal(403);
      }
      expect(await producer!.queue.isPaused()).to.equal(false);
    });

    it('leaves /metrics as it was (same token rule)', async () => {
      expect((await fetch(`${base}/metrics`)).status).to.equal(401);
      const metrics = await fetch(`${base}/metrics`, { headers: bearer });
      expect(metrics.status).to.equal(200);
      expect(await metrics.text()).to.include('cf_queue_jobs');
    });
  });

  describe('QUEUE_CONSOLE_WRITE=true', () => {
    it('lets a write through (pause, then resume)', async () => {
      const { base } = await startWorker({ METRICS_TOKEN: TOKEN, QUEUE_CONSOLE_WRITE: 'true' });
      const listed = (await (await fetch(`${base}/queues/api/queues`, { headers: bearer })).json()) as { queues: { name: string; readOnlyMode: boolean }[] };
      expect(listed.queues.find((q) => q.name === 'collections')!.readOnlyMode).to.equal(false);
      const pause = await fetch(`${base}/queues/api/queues/collections/pause`, { method: 'PUT', headers: bearer });
      expect(pause.status).to.equal(200);
      expect(await producer!.queue.isPaused()).to.equal(true);
      const resume = await fetch(`${base}/queues/api/queues/collections/resume`, { method: 'PUT', headers: bearer });
      expect(resume.status).to.equal(200);
      expect(await producer!.queue.isPaused()).to.equal(false);
    });
  });

  describe('without METRICS_TOKEN', () => {
    it('is not served, and the worker says why', async () => {
      const { worker, base } = await startWorker({});
      expect(worker.logs().find((l) => l.msg === 'worker ready')!.queueConsole).to.equal(null);
      expect(worker.logs().some((l) => String(l.msg).includes('queue console at /queues needs METRICS_TOKEN'))).to.equal(true);
      expect((await fetch(`${base}/queues/api/queues`)).status).to.equal(404);
    });
  });
});
