import crypto from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import type supertest from 'supertest';
import { describeEachDatabase, JWT_TEST_SECRET, type Tenant } from '../support/harness';

const REQUEST_ID = /^req_[A-Za-z0-9]+$/;
const ISSUER = 'collections-facade';

/** The one body every authentication failure answers (the requestId aside). */
function expectAuthFailure(res: supertest.Response): { code: string; message: string } {
  expect(res.status, JSON.stringify(res.body)).to.equal(401);
  expect(res.body).to.have.keys('error', 'requestId');
  expect(res.body.requestId).to.match(REQUEST_ID);
  expect(res.body.error.code).to.equal('AUTHENTICATION_FAILED');
  expect(res.body.error.message).to.be.a('string').and.not.equal('');
  expect(res.body.error).to.not.have.property('details');
  return { code: res.body.error.code, message: res.body.error.message };
}

/** The claims of the tenant's real access token, to forge variants of it. */
function claimsOf(tenant: Tenant): { org: number; sub: string } {
  const decoded = jwt.decode(tenant.accessToken) as { org: number; sub: string };
  return { org: decoded.org, sub: decoded.sub };
}

function forgeToken(tenant: Tenant, options: { secret?: string; expiresIn?: number } = {}): string {
  const { org, sub } = claimsOf(tenant);
  return jwt.sign({ org }, options.secret ?? JWT_TEST_SECRET, {
    algorithm: 'HS256',
    issuer: ISSUER,
    subject: sub,
    expiresIn: options.expiresIn ?? 600,
  });
}

function unsignedToken(tenant: Tenant): string {
  const { org, sub } = claimsOf(tenant);
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  const now = Math.floor(Date.now() / 1000);
  return `${part({ alg: 'none', typ: 'JWT' })}.${part({ org, sub, iss: ISSUER, iat: now, exp: now + 600 })}.`;
}

const sha256 = (text: string) => crypto.createHash('sha256').update(text).digest('hex');

describeEachDatabase('authentication', ({ api }) => {
  const login = (loginApiKey: string | null, body: object) => {
    const req = api().http.post('/auth/login');
    if (loginApiKey !== null) req.set('x-api-key', loginApiKey);
    return req.send(body);
  };
  const refresh = (loginApiKey: string, refreshToken: string) =>
    api().http.post('/auth/refresh').set('x-api-key', loginApiKey).send({ refreshToken });
  const listContacts = (headers: Record<string, string>) => api().http.get('/contacts').set(headers);
  const credentials = (t: Tenant) => ({ clientUsername: t.clientUsername, password: t.password });

  describe('POST /auth/login', () => {
    it('answers a flat { accessToken, refreshToken, expiresIn: 14400 } with no-store', async () => {
      const tenant = await api().newTenant();
      const res = await login(tenant.loginApiKey, credentials(tenant));
      expect(res.status).to.equal(200);
      expect(res.body).to.have.keys('accessToken', 'refreshToken', 'expiresIn', 'requestId');
      expect(res.body.accessToken).to.be.a('string').and.match(/^[\w-]+\.[\w-]+\.[\w-]+$/);
      expect(res.body.refreshToken).to.be.a('string').and.not.equal('');
      expect(res.body.expiresIn).to.equal(14400);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.headers['cache-control']).to.equal('no-store');
    });

    it('gives a token that opens resource routes', async () => {
      const tenant = await api().newTenant();
      const res = await login(tenant.loginApiKey, credentials(tenant));
      const list = await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': res.body.accessToken });
      expect(list.status).to.equal(200);
      expect(list.body.data).to.deep.equal([]);
    });

    it('answers the same 401 for a wrong key, user, password, a facade key or no key', async () => {
      const tenant = await api().newTenant();
      const other = await api().newTenant();
      const failures = [
        await login('lk_dev_' + 'x'.repeat(40), credentials(tenant)),
        await login(other.loginApiKey, credentials(tenant)),
        await login(tenant.loginApiKey, { clientUsername: `${tenant.clientUsername}_nobody`, password: tenant.password }),
        await login(tenant.loginApiKey, { clientUsername: tenant.clientUsername, password: `${tenant.password}x` }),
        await login(tenant.apiKey, credentials(tenant)),
        await login(null, credentials(tenant)),
      ].map(expectAuthFailure);
      for (const failure of failures) expect(failure).to.deep.equal(failures[0]);
    });

    it('rejects a body without clientUsername or password with 400', async () => {
      const tenant = await api().newTenant();
      const noPassword = await login(tenant.loginApiKey, { clientUsername: tenant.clientUsername });
      expect(noPassword.status).to.equal(400);
      expect(noPassword.body.error.code).to.equal('INVALID_REQUEST');
      expect(noPassword.body.error.details).to.deep.include({ field: 'password', issue: 'is required' });

      const empty = await login(tenant.loginApiKey, {});
      expect(empty.status).to.equal(400);
      expect(empty.body.error.details.map((d: { field: string }) => d.field)).to.have.members(['clientUsername', 'password']);
    });

    it('rejects a non-string password with 400 naming the field', async () => {
      const tenant = await api().newTenant();
      const res = await login(tenant.loginApiKey, { clientUsername: tenant.clientUsername, password: 12345678 });
      expect(res.status).to.equal(400);
      expect(res.body.error.details.map((d: { field: string }) => d.field)).to.deep.equal(['password']);
    });
  });

  describe('POST /auth/refresh', () => {
    it('exchanges a refresh token for a new, working pair', async () => {
      const tenant = await api().newTenant();
      const res = await refresh(tenant.loginApiKey, tenant.refreshToken);
      expect(res.status).to.equal(200);
      expect(res.body).to.have.keys('accessToken', 'refreshToken', 'expiresIn', 'requestId');
      expect(res.body.expiresIn).to.equal(14400);
      expect(res.body.refreshToken).to.not.equal(tenant.refreshToken);
      const list = await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': res.body.accessToken });
      expect(list.status).to.equal(200);
      const again = await refresh(tenant.loginApiKey, res.body.refreshToken);
      expect(again.status).to.equal(200);
    });

    it('refuses a refresh token used a second time', async () => {
      const tenant = await api().newTenant();
      expect((await refresh(tenant.loginApiKey, tenant.refreshToken)).status).to.equal(200);
      expectAuthFailure(await refresh(tenant.loginApiKey, tenant.refreshToken));
    });

    it('revokes the whole family when a rotated refresh token comes back: the newer token stops working, another login does not', async () => {
      const tenant = await api().newTenant();
      const second = await login(tenant.loginApiKey, credentials(tenant)); // another login: another family
      expect(second.status).to.equal(200);
      const rotated = await refresh(tenant.loginApiKey, tenant.refreshToken);
      expect(rotated.status).to.equal(200);
      const newest = await refresh(tenant.loginApiKey, rotated.body.refreshToken);
      expect(newest.status).to.equal(200);
      // The first token again (a thief's copy, or the client's): the same 401 as every failure...
      expectAuthFailure(await refresh(tenant.loginApiKey, tenant.refreshToken));
      // ...and the chain it started is dead, however far it went.
      expectAuthFailure(await refresh(tenant.loginApiKey, newest.body.refreshToken));
      expectAuthFailure(await refresh(tenant.loginApiKey, rotated.body.refreshToken));
      // The other login's chain goes on; access tokens already issued live out their 4 hours.
      expect((await refresh(tenant.loginApiKey, second.body.refreshToken)).status).to.equal(200);
      expect((await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': newest.body.accessToken })).status).to.equal(200);
      // Operators see it in the audit log.
      const audit = await api().app.queries.readAuditLog.execute({ organization: String(tenant.organizationId), limit: 10 });
      const revoked = audit.records.filter((r) => r.action === 'session.revoked');
      expect(revoked).to.have.length(1);
      expect(revoked[0]).to.deep.include({ resourceType: 'client', resourceId: tenant.clientUsername });
      expect(revoked[0]!.details).to.deep.include({ reason: 'refresh_token_reused' });
      expect(JSON.stringify(revoked)).to.not.include(tenant.refreshToken);
    });

    it('refuses a refresh with a wrong login key or the facade key, keeping the token usable', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await refresh('lk_dev_' + 'y'.repeat(40), tenant.refreshToken));
      expectAuthFailure(await refresh(tenant.apiKey, tenant.refreshToken));
      expect((await refresh(tenant.loginApiKey, tenant.refreshToken)).status).to.equal(200);
    });

    it('refuses a refresh with the login key of another organization', async () => {
      const tenant = await api().newTenant();
      const other = await api().newTenant();
      expectAuthFailure(await refresh(other.loginApiKey, tenant.refreshToken));
    });

    it('refuses an unknown refresh token and an access token in its place', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await refresh(tenant.loginApiKey, 'rt_' + 'z'.repeat(48)));
      expectAuthFailure(await refresh(tenant.loginApiKey, tenant.accessToken.slice(0, 200)));
    });
  });

  describe('resource routes', () => {
    it('answer 200 with both credentials of one organization', async () => {
      const tenant = await api().newTenant();
      expect((await listContacts(tenant.headers)).status).to.equal(200);
    });

    it('answer 401 without x-api-key', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await listContacts({ 'x-authorization-token': tenant.accessToken }));
    });

    it('answer 401 without x-authorization-token', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey }));
    });

    it('answer 401 without any credential', async () => {
      expectAuthFailure(await api().http.get('/contacts'));
    });

    it('answer 401 for a malformed token', async () => {
      const tenant = await api().newTenant();
      for (const token of ['not-a-token', 'a.b.c', tenant.accessToken.slice(0, -4)]) {
        expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': token }));
      }
    });

    it('accept a token forged with the server secret (control for the forged-token cases)', async () => {
      const tenant = await api().newTenant();
      const res = await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': forgeToken(tenant) });
      expect(res.status).to.equal(200);
    });

    it('answer 401 for a token signed with another secret', async () => {
      const tenant = await api().newTenant();
      const token = forgeToken(tenant, { secret: 'another-secret-that-is-long-enough-for-hs256-xyz' });
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': token }));
    });

    it('answer 401 for a token with alg none', async () => {
      const tenant = await api().newTenant();
      const token = unsignedToken(tenant);
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': token }));
    });

    it('answer 401 for an expired token', async () => {
      const tenant = await api().newTenant();
      const token = forgeToken(tenant, { expiresIn: -10 });
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': token }));
    });

    it('answer 401 for a token sent with the Bearer prefix', async () => {
      const tenant = await api().newTenant();
      const headers = { 'x-api-key': tenant.apiKey, 'x-authorization-token': `Bearer ${tenant.accessToken}` };
      expectAuthFailure(await listContacts(headers));
    });

    it('ignore the standard Authorization header', async () => {
      const tenant = await api().newTenant();
      const headers = { 'x-api-key': tenant.apiKey, authorization: `Bearer ${tenant.accessToken}` };
      expectAuthFailure(await listContacts(headers));
    });

    it('answer 401 for the API key of one organization and the token of another', async () => {
      const a = await api().newTenant();
      const b = await api().newTenant();
      expectAuthFailure(await listContacts({ 'x-api-key': a.apiKey, 'x-authorization-token': b.accessToken }));
      expectAuthFailure(await listContacts({ 'x-api-key': b.apiKey, 'x-authorization-token': a.accessToken }));
    });

    it('answer 401 for the login key used as the facade key', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.loginApiKey, 'x-authorization-token': tenant.accessToken }));
    });

    it('answer 401 for a refresh token used as the access token', async () => {
      const tenant = await api().newTenant();
      expectAuthFailure(await listContacts({ 'x-api-key': tenant.apiKey, 'x-authorization-token': tenant.refreshToken }));
    });

    it('check credentials on writes too, before the body', async () => {
      const tenant = await api().newTenant();
      const res = await api().http.post('/contacts').set({ 'x-api-key': tenant.apiKey }).send({ bogus: true });
      expectAuthFailure(res);
    });
  });

  describe('operator actions', () => {
    it('a disabled client can no longer log in, refresh, or use its token', async () => {
      const tenant = await api().newTenant();
      await api().app.commands.disableClient.execute(tenant.clientUsername);
      expectAuthFailure(await login(tenant.loginApiKey, credentials(tenant)));
      expectAuthFailure(await refresh(tenant.loginApiKey, tenant.refreshToken));
      expectAuthFailure(await listContacts(tenant.headers));
    });

    it('a rotated facade key stops working and the new one works with the same token', async () => {
      const tenant = await api().newTenant();
      const rotated = await api().app.commands.rotateApiKey.execute(tenant.clientUsername, 'facade');
      expect(rotated.apiKey).to.match(/^ck_dev_[A-Za-z0-9]+$/).and.not.equal(tenant.apiKey);
      expectAuthFailure(await listContacts(tenant.headers));
      const res = await listContacts({ 'x-api-key': rotated.apiKey, 'x-authorization-token': tenant.accessToken });
      expect(res.status).to.equal(200);
    });

    it('rotating the facade key leaves the login key working', async () => {
      const tenant = await api().newTenant();
      await api().app.commands.rotateApiKey.execute(tenant.clientUsername, 'facade');
      expect((await login(tenant.loginApiKey, credentials(tenant))).status).to.equal(200);
    });
  });

  describe('storage', () => {
    it('keeps API keys only as SHA-256 hashes', async () => {
      const tenant = await api().newTenant();
      const rows = await api().infra.db!('api_keys').where({ organization_id: tenant.organizationId });
      expect(rows).to.have.length(2);
      const dump = JSON.stringify(rows);
      expect(dump).to.not.include(tenant.apiKey);
      expect(dump).to.not.include(tenant.loginApiKey);
      expect(rows.map((r) => r.key_hash)).to.have.members([sha256(tenant.apiKey), sha256(tenant.loginApiKey)]);
    });

    it('keeps refresh tokens only as hashes', async () => {
      const tenant = await api().newTenant();
      const user = await api().infra.db!('client_users').where({ username: tenant.clientUsername }).first();
      const rows = await api().infra.db!('refresh_tokens').where({ client_user_id: user.id });
      expect(rows).to.have.length(1);
      expect(JSON.stringify(rows)).to.not.include(tenant.refreshToken);
      expect(rows[0].token_hash).to.equal(sha256(tenant.refreshToken));
    });

    it('keeps passwords only as salted scrypt hashes', async () => {
      const tenant = await api().newTenant();
      const user = await api().infra.db!('client_users').where({ username: tenant.clientUsername }).first();
      expect(JSON.stringify(user)).to.not.include(tenant.password);
      expect(user.password_hash).to.match(/^scrypt\$/);
    });
  });
});
