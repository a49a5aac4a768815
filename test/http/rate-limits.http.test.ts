/**
 * Rate limiting per facade API key (docs/operations.md): RateLimit headers on every answer of an
 * authenticated facade request, 429 RATE_LIMITED with Retry-After past the bucket, buckets per
 * key, limits per organization. The third leg runs the Redis limiter.
 */
import crypto from 'node:crypto';
import { expect } from 'chai';
import { Redis } from 'ioredis';
import type { Response } from 'supertest';
import { expectError, expectOk } from '../support/http-expect';
import { TEST_REDIS_URL } from '../support/databases';
import { describeEachDatabase, randomAddress, TEST_RATE_LIMIT, type Tenant } from '../support/harness';

/** A slow refill: nothing comes back while a test runs. */
const STILL = 0.01;

function rateLimitHeaders(res: Response): { limit: number; remaining: number; reset: number } {
  for (const name of ['ratelimit-limit', 'ratelimit-remaining', 'ratelimit-reset']) {
    expect(res.headers[name], `${name} on ${res.status} ${JSON.stringify(res.body)}`).to.match(/^\d+$/);
  }
  return { limit: Number(res.headers['ratelimit-limit']), remaining: Number(res.headers['ratelimit-remaining']), reset: Number(res.headers['ratelimit-reset']) };
}

describeEachDatabase(
  'rate limits',
  ({ api }) => {
    const http = () => api().http;
    const listContacts = (tenant: Tenant) => http().get('/contacts').set(tenant.headers);

    async function limit(tenant: Tenant, capacity: number, refillPerSecond = STILL): Promise<void> {
      await api().app.commands.setRateLimit.execute(String(tenant.organizationId), { capacity, refillPerSecond }, { type: 'operator', name: 'test' });
    }

    /** Another client user (so another facade key) of the tenant's organization. */
    async function sameOrganizationClient(tenant: Tenant): Promise<Record<string, string>> {
      const org = (await api().infra.ports.repos.tenancy.findOrganization(tenant.organizationId))!;
      const username = `second_${crypto.randomBytes(5).toString('hex')}`;
      const created = await api().app.commands.createClient.execute({ organization: org.name, username, password: 'second-password', companies: [], settings: {} });
      const login = await http().post('/auth/login').set('x-api-key', created.loginApiKey).send({ clientUsername: username, password: 'second-password' });
      expect(login.status, JSON.stringify(login.body)).to.equal(200);
      return { 'x-api-key': created.apiKey, 'x-authorization-token': login.body.accessToken };
    }

    describe('headers', () => {
      it('puts RateLimit-Limit, -Remaining and -Reset on every answer of an authenticated facade request, errors included', async () => {
        const tenant = await api().newTenant();
        const ok = await listContacts(tenant);
        expectOk(ok);
        const first = rateLimitHeaders(ok);
        expect(first.limit).to.equal(TEST_RATE_LIMIT.capacity);
        expect(first.remaining).to.equal(TEST_RATE_LIMIT.capacity - 1);
        expect(first.reset).to.be.at.least(0).and.at.most(1);

        const invalid = await http().post('/contacts').set(tenant.headers).send({ name: 'no id' });
        expect(invalid.status).to.equal(400);
        expect(rateLimitHeaders(invalid).limit).to.equal(TEST_RATE_LIMIT.capacity);

        const missing = await http().get('/contacts/con_nothere').set(tenant.headers);
        expectError(missing, 404, 'RESOURCE_NOT_FOUND');
        expect(rateLimitHeaders(missing).limit).to.equal(TEST_RATE_LIMIT.capacity);

        // With REDIS_URL the bucket is in Redis, under the queue prefix, per organization and key.
        const bullmq = api().infra.jobs.bullmq;
        if (bullmq) {
          const redis = new Redis(TEST_REDIS_URL);
          try {
            const key = `${bullmq.queue.opts.prefix}:rate-limit:${tenant.organizationId}:${tenant.apiKey.slice(0, 12)}`;
            expect(await redis.hget(key, 'tokens')).to.match(/^\d+(\.\d+)?$/);
          } finally {
            redis.disconnect();
          }
        }
      });

      it('puts none on answers without facade credentials: 401, login, health, unknown paths', async () => {
        const tenant = await api().newTenant();
        const unauthenticated = await http().get('/contacts').set('x-api-key', tenant.apiKey);
        expectError(unauthenticated, 401, 'AUTHENTICATION_FAILED');
        const health = await http().get('/health/live');
        const login = await http().post('/auth/login').set('x-api-key', tenant.loginApiKey).send({ clientUsername: tenant.clientUsername, password: tenant.password });
        const unknown = await http().get('/nowhere').set(tenant.headers);
        for (const res of [unauthenticated, health, login, unknown]) expect(res.headers).to.not.have.property('ratelimit-limit');
      });
    });

    it('documents the 429 answer and the headers of every facade route in /openapi.json', async () => {
      const { paths } = (await http().get('/openapi.json')).body;
      const list = paths['/contacts'].get.responses;
      expect(list['429'].description).to.match(/^RATE_LIMITED/);
      expect(list['429'].headers).to.have.keys('X-Request-Id', 'Cache-Control', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset', 'Retry-After');
      expect(list['200'].headers).to.have.keys('X-Request-Id', 'Cache-Control', 'RateLimit-Limit', 'RateLimit-Remaining', 'RateLimit-Reset');
      expect(list['401'].headers).to.have.keys('X-Request-Id', 'Cache-Control');
      // /auth is throttled per client address (and login per username), not per API key.
      expect(paths['/auth/login'].post.responses['429'].headers).to.have.keys('X-Request-Id', 'Cache-Control', 'Retry-After');
      expect(paths['/auth/refresh'].post.responses['429'].headers).to.have.keys('X-Request-Id', 'Cache-Control', 'Retry-After');
      expect(paths['/health/live'].get.responses['200'].headers).to.have.keys('X-Request-Id', 'Cache-Control');
    });

    describe('login attempts', () => {
      const login = (tenant: Tenant, password: string, forwardedFor: string) =>
        http().post('/auth/login').set('x-api-key', tenant.loginApiKey).set('X-Forwarded-For', forwardedFor).send({ clientUsername: tenant.clientUsername, password });

      it('answers 429 RATE_LIMITED with Retry-After after 10 attempts of one username from one address, the right password included', async () => {
        const tenant = await api().newTenant();
        for (let i = 0; i < 10; i++) expectError(await login(tenant, 'wrong-password', '203.0.113.7'), 401, 'AUTHENTICATION_FAILED');
        const refused = await login(tenant, tenant.password, '203.0.113.7');
        expectError(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).to.be.within(1, 6);
        expect(refused.headers).to.not.have.property('ratelimit-limit');
        // An address the client writes in front of the proxy's does not open a new bucket.
        expectError(await login(tenant, tenant.password, '198.51.100.1, 203.0.113.7'), 429, 'RATE_LIMITED');

        const loggedIn = (res: Response) => res.status === 200 && typeof res.body.accessToken === 'string';
        expect(loggedIn(await login(tenant, tenant.password, '203.0.113.8')), 'the same user from another address').to.equal(true);
        const other = await api().newTenant();
        expect(loggedIn(await login(other, other.password, '203.0.113.7')), 'another user from that address').to.equal(true);
      });

      it('takes a token of the client address for every /auth request, with or without a key: 30, then 429 for login and refresh alike', async () => {
        const tenant = await api().newTenant();
        const address = randomAddress();
        const noKey = () => http().post('/auth/login').set('X-Forwarded-For', address).send({ clientUsername: `u_${crypto.randomBytes(4).toString('hex')}`, password: 'guess' });
        for (let i = 0; i < 30; i++) expectError(await noKey(), 401, 'AUTHENTICATION_FAILED');
        const refused = await noKey();
        expectError(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).to.be.within(1, 2);
        const refresh = await http().post('/auth/refresh').set('X-Forwarded-For', address).set('x-api-key', tenant.loginApiKey).send({ refreshToken: tenant.refreshToken });
        expectError(refresh, 429, 'RATE_LIMITED');
        // Refused before the token was looked at: it still works from elsewhere.
        expect((await http().post('/auth/refresh').set('X-Forwarded-For', randomAddress()).set('x-api-key', tenant.loginApiKey).send({ refreshToken: tenant.refreshToken })).status).to.equal(200);
        expect((await login(tenant, tenant.password, randomAddress())).status).to.equal(200);
      });

      it('limits attempts on one username across addresses to 20, then 429, but only through its own organization\'s login key', async () => {
        const tenant = await api().newTenant();
        const other = await api().newTenant();
        // Attempts through another organization's key (which could never succeed) fill that organization's bucket for the
        // username, and attempts without a valid key are refused before any bucket: neither spends the user's own.
        const viaOther = [];
        for (let i = 0; i < 22; i++) {
          viaOther.push((await http().post('/auth/login').set('X-Forwarded-For', randomAddress()).set('x-api-key', other.loginApiKey).send({ clientUsername: tenant.clientUsername, password: 'wrong' })).status);
        }
        expect(viaOther).to.deep.equal([...Array(20).fill(401), 429, 429]);
        for (let i = 0; i < 25; i++) {
          const res = await http().post('/auth/login').set('X-Forwarded-For', randomAddress()).set('x-api-key', 'lk_dev_' + 'q'.repeat(40)).send({ clientUsername: tenant.clientUsername, password: 'wrong' });
          expectError(res, 401, 'AUTHENTICATION_FAILED');
        }
        expect((await login(tenant, tenant.password, randomAddress())).status, 'the user, untouched').to.equal(200);
        // newTenant's login and that one: 18 more attempts, each from an address of its own, then the 21st is refused.
        for (let i = 0; i < 18; i++) expectError(await login(tenant, 'wrong-password', randomAddress()), 401, 'AUTHENTICATION_FAILED');
        const refused = await login(tenant, tenant.password, randomAddress());
        expectError(refused, 429, 'RATE_LIMITED');
        expect(Number(refused.headers['retry-after'])).to.be.within(1, 6);
        expect((await login(other, other.password, randomAddress())).status, 'another user').to.equal(200);
      });
    });

    describe('per organization', () => {
      it('refuses past the organization capacity with 429 RATE_LIMITED, Retry-After and Remaining 0', async () => {
        const tenant = await api().newTenant();
        await limit(tenant, 3);
        const answers = [];
        for (let i = 0; i < 3; i++) answers.push(await listContacts(tenant));
        expect(answers.map((r) => r.status)).to.deep.equal([200, 200, 200]);
        expect(answers.map((r) => rateLimitHeaders(r))).to.deep.equal([
          { limit: 3, remaining: 2, reset: 100 },
          { limit: 3, remaining: 1, reset: 200 },
          { limit: 3, remaining: 0, reset: 300 },
        ]);

        const refused = await listContacts(tenant);
        expectError(refused, 429, 'RATE_LIMITED');
        expect(refused.headers['retry-after']).to.equal('100'); // one token at 0.01/s
        expect(rateLimitHeaders(refused)).to.deep.equal({ limit: 3, remaining: 0, reset: 300 });
        expect(refused.body).to.have.keys('error', 'requestId');
      });

      it('refuses before validating or acting: a refused create creates nothing', async () => {
        const tenant = await api().newTenant();
        const other = await sameOrganizationClient(tenant);
        await limit(tenant, 1);
        expect((await listContacts(tenant)).status).to.equal(200);
        const refused = await http().post('/contacts').set(tenant.headers).send({ externalClientId: 'never', name: 'Never', email: 'never@example.com' });
        expectError(refused, 429, 'RATE_LIMITED');
        const invalidButRefused = await http().post('/contacts').set(tenant.headers).send({ unknownField: true });
        expectError(invalidButRefused, 429, 'RATE_LIMITED');
        // The other key of the organization still has its tokens: nothing was created.
        const listed = await http().get('/contacts').set(other);
        expect(expectOk<unknown[]>(listed)).to.deep.equal([]);
      });

      it('applies the organization limit to each of its keys separately', async () => {
        const tenant = await api().newTenant();
        const other = await sameOrganizationClient(tenant);
        await limit(tenant, 2);
        await listContacts(tenant);
        await listContacts(tenant);
        expectError(await listContacts(tenant), 429, 'RATE_LIMITED');
        const second = await http().get('/contacts').set(other);
        expectOk(second);
        expect(rateLimitHeaders(second)).to.include({ limit: 2, remaining: 1 });
      });

      it('leaves other organizations on their own limits', async () => {
        const limited = await api().newTenant();
        const untouched = await api().newTenant();
        await limit(limited, 1);
        await listContacts(limited);
        expectError(await listContacts(limited), 429, 'RATE_LIMITED');
        const res = await listContacts(untouched);
        expectOk(res);
        expect(rateLimitHeaders(res).limit).to.equal(TEST_RATE_LIMIT.capacity);
      });

      it('takes a changed limit at once in the process that changed it, and --default brings back the defaults', async () => {
        const tenant = await api().newTenant();
        await limit(tenant, 1);
        await listContacts(tenant);
        expectError(await listContacts(tenant), 429, 'RATE_LIMITED');
        await limit(tenant, 5);
        // The bucket keeps its tokens (none) and refills to the new capacity at the new rate.
        const raised = await listContacts(tenant);
        expectError(raised, 429, 'RATE_LIMITED');
        expect(rateLimitHeaders(raised).limit).to.equal(5);

        await api().app.commands.setRateLimit.execute(String(tenant.organizationId), null, { type: 'operator', name: 'test' });
        const back = await listContacts(tenant);
        expectOk(back);
        expect(rateLimitHeaders(back).limit).to.equal(TEST_RATE_LIMIT.capacity);
      });

      it('refills at the organization rate', async () => {
        const tenant = await api().newTenant();
        await limit(tenant, 1, 20);
        await listContacts(tenant);
        const refused = await listContacts(tenant);
        expectError(refused, 429, 'RATE_LIMITED');
        expect(refused.headers['retry-after']).to.equal('1');
        const deadline = Date.now() + 5000;
        let res = refused;
        while (res.status === 429 && Date.now() < deadline) {
          await new Promise((resolve) => setTimeout(resolve, 20));
          res = await listContacts(tenant);
        }
        expectOk(res);
      });
    });
  },
  { withWorker: true },
);
