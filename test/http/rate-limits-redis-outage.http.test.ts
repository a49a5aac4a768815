/**
 * When the Redis of the rate limiter goes away the API fails open: requests go through
 * unlimited and without RateLimit headers, one warning is logged, the failures are counted;
 * limiting resumes once Redis is back. A private redis-server plays the Redis that goes away.
 */
import crypto from 'node:crypto';
import http, { type Server } from 'node:http';
import { Writable } from 'node:stream';
import { expect } from 'chai';
import pino from 'pino';
import supertest from 'supertest';
import { RedisTokenBucket } from '../../adapters/rate-limit/redis-token-bucket';
import { type ApiProcess, startApiProcess } from '../../cmd/shared/api-process';
import type { Application } from '../../internal/application';
import { createTestDatabase, redisAvailable, type TestDatabase } from '../support/databases';
import { JWT_TEST_SECRET } from '../support/harness';
import { expectError, expectOk } from '../support/http-expect';
import { sampleValue } from '../support/prometheus';
import { type PrivateRedis, startPrivateRedis } from '../support/private-redis';
import { TEST_SECRETS_KEYS } from '../support/secrets';

describe('rate limits when Redis goes away [sqlite + private redis]', function () {
  this.timeout(30_000);
  let redis: PrivateRedis | null = null;
  let database: TestDatabase | null = null;
  let api: ApiProcess | null = null;
  let limiter: RedisTokenBucket | null = null;
  let server: Server | null = null;
  let app: Application;
  let agent: supertest.Agent;
  const logLines: Record<string, unknown>[] = [];
  let headers: Record<string, string> = {};
  let loginAgain: () => supertest.Test;

  before(async function () {
    if (!(await redisAvailable())) this.skip();
    redis = await startPrivateRedis();
    database = await createTestDatabase('sqlite');
    limiter = new RedisTokenBucket(redis.url, { prefix: 'outage', backoffMs: 100 });
    const logs = new Writable({
      write(chunk: Buffer, _encoding, done) {
        for (const line of chunk.toString().split('\n')) if (line) logLines.push(JSON.parse(line));
        done();
      },
    });
    // The API process as `npm start` composes it, its rate limiter on the Redis that goes away.
    api = await startApiProcess(
      {
        databaseUrl: database.url, redisUrl: null, queuePrefix: 'unused', jwtSecret: JWT_TEST_SECRET, secretsKeys: TEST_SECRETS_KEYS, appEnv: 'development',
        migrateOnStart: true, publicBaseUrl: 'http://localhost:3000', runWorkers: false, webhookDispatchEveryMs: 1000,
        rateLimitCapacity: 2, rateLimitRefillPerSecond: 0.01, metricsToken: null, trustProxyHops: 0,
      },
      { logger: pino({ level: 'warn' }, logs), rateLimiter: limiter, periodicJobs: false, webhookDispatcher: false },
    );
    app = api.app;
    server = http.createServer();
    api.serve(server);
    server.listen(0, '127.0.0.1');
    await new Promise<void>((resolve) => server!.once('listening', () => resolve()));
    agent = supertest.agent(server);
    const suffix = crypto.randomBytes(4).toString('hex');
    const created = await app.commands.createClient.execute({ organization: `Org ${suffix}`, username: `user_${suffix}`, password: 'outage-password', companies: [], settings: {} });
    loginAgain = () => agent.post('/auth/login').set('x-api-key', created.loginApiKey).send({ clientUsername: created.clientUsername, password: 'outage-password' });
    const login = await loginAgain();
    headers = { 'x-api-key': created.apiKey, 'x-authorization-token': login.body.accessToken };
  });

  after(async () => {
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await limiter?.close();
    await api?.close();
    await database?.drop();
    await redis?.stop();
  });

  const failures = async () => sampleValue((await agent.get('/metrics')).text, 'cf_rate_limiter_failures_total');

  it('limits while Redis answers, lets requests through without headers while it is away, and limits again once it is back', async () => {
    expect(rateLimitOf(await agent.get('/contacts').set(headers))).to.equal('2/1');
    expect(rateLimitOf(await agent.get('/contacts').set(headers))).to.equal('2/0');
    expectError(await agent.get('/contacts').set(headers), 429, 'RATE_LIMITED');
    expect(await failures()).to.equal(0);

    await redis!.stop();
    for (let i = 0; i < 5; i++) {
      const res = await agent.get('/contacts').set(headers);
      expectOk(res);
      expect(res.headers).to.not.have.property('ratelimit-limit');
    }
    expect(await failures()).to.equal(5);
    const warnings = logLines.filter((l) => String(l.msg).startsWith('rate limiter unavailable'));
    expect(warnings, 'one warning per 10 s, not one per request').to.have.length(1);
    expect(warnings[0]).to.include({ level: 40 });
    // Login attempts are throttled on the same limiter, and fail open the same way: each of the
    // login's three buckets (address, address and username, username) counts its failure.
    const login = await loginAgain();
    expect(login.status, JSON.stringify(login.body)).to.equal(200);
    expect(await failures()).to.equal(8);

    await redis!.restart();
    const deadline = Date.now() + 10_000;
    for (;;) {
      const res = await agent.get('/contacts').set(headers);
      if (res.headers['ratelimit-limit']) {
        // The restarted Redis is empty: the key's bucket starts full.
        expect(rateLimitOf(res)).to.equal('2/1');
        break;
      }
      expect(Date.now(), 'limits again within 10 s').to.be.below(deadline);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  });
});

function rateLimitOf(res: supertest.Response): string {
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return `${res.headers['ratelimit-limit']}/${res.headers['ratelimit-remaining']}`;
}
