import { expect } from 'chai';
import { EVENT_TYPES } from '../../internal/events/event-type';
import { MAX_ENDPOINTS_PER_COMPANY } from '../../internal/webhooks/webhook-endpoint';
import { expectError, expectInvalid, expectNotFound, expectOk, expectRuleViolation } from '../support/http-expect';
import { type ApiHarness, describeEachDatabase, startApi, type Tenant } from '../support/harness';

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const PUBLIC_KEYS = ['webhookEndpointId', 'url', 'enabledEvents', 'enabled', 'description', 'createdAt', 'updatedAt'];

describeEachDatabase('webhook endpoints', ({ api }) => {
  const post = (t: Tenant, body: Record<string, unknown>) => api().http.post('/webhook-endpoints').set(t.headers).send(body);
  const list = (t: Tenant, query: Record<string, unknown> = {}) => api().http.get('/webhook-endpoints').set(t.headers).query(query);
  const get = (t: Tenant, id: string, query: Record<string, unknown> = {}) => api().http.get(`/webhook-endpoints/${id}`).set(t.headers).query(query);
  const patch = (t: Tenant, id: string, body: Record<string, unknown>) => api().http.patch(`/webhook-endpoints/${id}`).set(t.headers).send(body);
  const del = (t: Tenant, id: string, query: Record<string, unknown> = {}) => api().http.delete(`/webhook-endpoints/${id}`).set(t.headers).query(query);
  const create = async (t: Tenant, body: Record<string, unknown> = {}) =>
    expectOk(await post(t, { url: 'https://hooks.example.com/in', enabledEvents: ['*'], ...body }), 201);

  describe('POST /webhook-endpoints', () => {
    it('201 with whe_ id, url, enabledEvents, enabled true, the signing secret (only here), createdAt', async () => {
      const t = await api().newTenant();
      const res = await post(t, { url: 'https://hooks.example.com/in?src=cf', enabledEvents: ['debt.paid', 'payment_link.paid'], description: 'ERP' });
      const data = expectOk(res, 201);
      expect(data).to.have.keys(...PUBLIC_KEYS, 'secret');
      expect(data).to.deep.include({ url: 'https://hooks.example.com/in?src=cf', enabledEvents: ['debt.paid', 'payment_link.paid'], enabled: true, description: 'ERP' });
      expect(data.webhookEndpointId).to.match(/^whe_[A-Za-z0-9]{24}$/);
      expect(data.secret).to.match(/^whsec_[A-Za-z0-9]{32}$/);
      expect(data.createdAt).to.match(ISO_UTC_MS);
      const read = expectOk(await get(t, data.webhookEndpointId));
      expect(read).to.have.keys(...PUBLIC_KEYS);
      expect(read).to.not.have.property('secret');
      expect(JSON.stringify(expectOk(await list(t)))).to.not.include(data.secret);
    });

    it('accepts ["*"] and http URLs outside production, and a local receiver with WEBHOOK_ALLOW_PRIVATE_URLS (the harness sets it); description defaults to null', async () => {
      const t = await api().newTenant();
      const data = await create(t, { url: 'http://127.0.0.1:9999/hooks' });
      expect(data).to.deep.include({ url: 'http://127.0.0.1:9999/hooks', enabledEvents: ['*'], description: null });
    });

    it('400 naming the field: url missing, not a URL, not http(s), with credentials, with a fragment, too long', async () => {
      const t = await api().newTenant();
      expectInvalid(await post(t, { enabledEvents: ['*'] }), 'url');
      const withCredentials = await post(t, { url: 'https://user:pw@hooks.example.com/in', enabledEvents: ['*'] });
      expectInvalid(withCredentials, 'url');
      expect(withCredentials.body.error.details[0].issue).to.match(/credentials/);
      for (const url of ['not a url', '/relative', 'ftp://example.com/in', 'https://user@hooks.example.com/in', 'https://example.com/#x', `https://example.com/${'a'.repeat(2048)}`, '', 42]) {
        expectInvalid(await post(t, { url, enabledEvents: ['*'] }), 'url', String(url).slice(0, 30));
      }
    });

    it('400 on enabledEvents: missing, empty, unknown type, "*" with others, repeated', async () => {
      const t = await api().newTenant();
      const url = 'https://hooks.example.com/in';
      expectInvalid(await post(t, { url }), 'enabledEvents');
      expectInvalid(await post(t, { url, enabledEvents: [] }), 'enabledEvents');
      expectInvalid(await post(t, { url, enabledEvents: 'debt.paid' }), 'enabledEvents');
      expectInvalid(await post(t, { url, enabledEvents: ['debt.exploded'] }), 'enabledEvents[0]');
      expectInvalid(await post(t, { url, enabledEvents: ['*', 'debt.paid'] }), 'enabledEvents');
      expectInvalid(await post(t, { url, enabledEvents: ['debt.paid', 'debt.paid'] }), 'enabledEvents');
      expect(expectOk(await post(t, { url, enabledEvents: [...EVENT_TYPES] }), 201).enabledEvents).to.deep.equal([...EVENT_TYPES]);
    });

    it('400 for unknown fields, enabled on create, a long or non-string description', async () => {
      const t = await api().newTenant();
      const base = { url: 'https://hooks.example.com/in', enabledEvents: ['*'] };
      expectInvalid(await post(t, { ...base, secret: 'mine' }), 'secret');
      expectInvalid(await post(t, { ...base, enabled: false }), 'enabled');
      expectInvalid(await post(t, { ...base, description: 'x'.repeat(501) }), 'description');
      expectInvalid(await post(t, { ...base, description: 7 }), 'description');
    });

    it(`422 past ${MAX_ENDPOINTS_PER_COMPANY} endpoints in a company`, async () => {
      const t = await api().newTenant();
      for (let i = 0; i < MAX_ENDPOINTS_PER_COMPANY; i++) await create(t, { url: `https://hooks.example.com/${i}` });
      expectRuleViolation(await post(t, { url: 'https://hooks.example.com/more', enabledEvents: ['*'] }));
    });

    it('401 without credentials', async () => {
      expectError(await api().http.post('/webhook-endpoints').send({ url: 'https://a.example/x', enabledEvents: ['*'] }), 401, 'AUTHENTICATION_FAILED');
    });
  });

  describe('GET /webhook-endpoints', () => {
    it('lists the company endpoints newest first with page meta; page and limit are validated', async () => {
      const t = await api().newTenant();
      const a = await create(t, { url: 'https://a.example/in' });
      const b = await create(t, { url: 'https://b.example/in' });
      const c = await create(t, { url: 'https://c.example/in' });
      const strip = ({ secret: _secret, ...rest }: Record<string, unknown>) => rest;
      const first = await list(t, { limit: 2 });
      expect(expectOk(first)).to.deep.equal([strip(c), strip(b)]);
      expect(first.body.meta).to.deep.equal({ page: 1, limit: 2, total: 3, hasMore: true });
      expect(expectOk(await list(t, { limit: 2, page: 2 }))).to.deep.equal([strip(a)]);
      expectInvalid(await list(t, { page: 0 }), 'page');
      expectInvalid(await list(t, { limit: 501 }), 'limit');
    });
  });

  describe('GET/PATCH/DELETE /webhook-endpoints/{id}', () => {
    it('reads by id with or without the whe_ prefix; unknown is 404', async () => {
      const t = await api().newTenant();
      const e = await create(t);
      expect(expectOk(await get(t, e.webhookEndpointId.slice(4))).webhookEndpointId).to.equal(e.webhookEndpointId);
      expectNotFound(await get(t, 'whe_doesNotExist'));
      expectNotFound(await get(t, 'whe_bad-chars!'));
    });

    it('PATCH changes url, enabledEvents, enabled and description, and moves updatedAt; the secret stays unshown', async () => {
      const t = await api().newTenant();
      const e = await create(t, { description: 'old' });
      await api().http.put('/test-helpers/clock').set(t.headers).send({ now: '2031-01-02T03:04:05.000Z' });
      const data = expectOk(await patch(t, e.webhookEndpointId, { url: 'https://new.example/in', enabledEvents: ['debt.created'], enabled: false, description: null }));
      expect(data).to.deep.equal({
        webhookEndpointId: e.webhookEndpointId,
        url: 'https://new.example/in',
        enabledEvents: ['debt.created'],
        enabled: false,
        description: null,
        createdAt: e.createdAt,
        updatedAt: '2031-01-02T03:04:05.000Z',
      });
      expect(expectOk(await get(t, e.webhookEndpointId))).to.deep.equal(data);
      expect(expectOk(await patch(t, e.webhookEndpointId, { enabled: true })).enabled).to.equal(true);
    });

    it('PATCH validates like POST: empty body, unknown field, secret, bad url or events are 400; unknown id 404', async () => {
      const t = await api().newTenant();
      const e = await create(t);
      expectInvalid(await patch(t, e.webhookEndpointId, {}), 'body');
      expectInvalid(await patch(t, e.webhookEndpointId, { secret: 'x' }), 'secret');
      expectInvalid(await patch(t, e.webhookEndpointId, { url: 'mailto:a@b.c' }), 'url');
      expectInvalid(await patch(t, e.webhookEndpointId, { url: 'https://user:pw@hooks.example.com/in' }), 'url');
      expectInvalid(await patch(t, e.webhookEndpointId, { enabledEvents: ['*', 'debt.paid'] }), 'enabledEvents');
      expectInvalid(await patch(t, e.webhookEndpointId, { enabled: 'false' }), 'enabled');
      expectNotFound(await patch(t, 'whe_unknown', { enabled: false }));
    });

    it('DELETE answers the endpoint with deleted true; afterwards it is 404 everywhere and gone from the list', async () => {
      const t = await api().newTenant();
      const e = await create(t);
      const { secret: _secret, ...shown } = e;
      expect(expectOk(await del(t, e.webhookEndpointId))).to.deep.include({ ...shown, deleted: true, updatedAt: shown.updatedAt });
      expectNotFound(await get(t, e.webhookEndpointId));
      expectNotFound(await patch(t, e.webhookEndpointId, { enabled: false }));
      expectNotFound(await del(t, e.webhookEndpointId));
      expect(expectOk(await list(t))).to.deep.equal([]);
    });
  });

  describe('POST /webhook-endpoints/{id}/rotate-secret', () => {
    const rotate = (t: Tenant, id: string, body?: Record<string, unknown>, query: Record<string, unknown> = {}) => {
      const req = api().http.post(`/webhook-endpoints/${id}/rotate-secret`).set(t.headers).query(query);
      return body === undefined ? req : req.send(body);
    };

    it('200 with the endpoint, a new secret (only here) and previousSecretExpiresAt 24 h on (real time), by default; GET still shows no secret', async () => {
      const t = await api().newTenant();
      const e = await create(t);
      const before = Date.now();
      const data = expectOk(await rotate(t, e.webhookEndpointId));
      const { secret: _old, ...shown } = e;
      expect(data).to.have.keys(...PUBLIC_KEYS, 'secret', 'previousSecretExpiresAt');
      expect(data).to.deep.include({ ...shown, updatedAt: data.updatedAt });
      expect(data.secret).to.match(/^whsec_[A-Za-z0-9]{32}$/).and.not.equal(e.secret);
      expect(data.previousSecretExpiresAt).to.match(ISO_UTC_MS);
      const expires = Date.parse(data.previousSecretExpiresAt);
      expect(expires).to.be.within(before + 24 * 3_600_000, Date.now() + 24 * 3_600_000);
      const read = expectOk(await get(t, e.webhookEndpointId));
      expect(read).to.have.keys(...PUBLIC_KEYS);
      expect(JSON.stringify(read)).to.not.include(data.secret);
    });

    it('expiresInHours: 0 (previousSecretExpiresAt null) to 168; whole hours only; anything else 400 on expiresInHours; unknown fields 400', async () => {
      const t = await api().newTenant();
      const e = await create(t);
      expect(expectOk(await rotate(t, e.webhookEndpointId, { expiresInHours: 0 })).previousSecretExpiresAt).to.equal(null);
      const week = expectOk(await rotate(t, e.webhookEndpointId, { expiresInHours: 168 }));
      expect(Date.parse(week.previousSecretExpiresAt) - Date.now()).to.be.within(168 * 3_600_000 - 60_000, 168 * 3_600_000);
      expect(expectOk(await rotate(t, e.webhookEndpointId, {})).previousSecretExpiresAt).to.be.a('string');
      for (const bad of [-1, 169, 1.5, '24', null, true, 1e300]) expectInvalid(await rotate(t, e.webhookEndpointId, { expiresInHours: bad }), 'expiresInHours', String(bad));
      expectInvalid(await rotate(t, e.webhookEndpointId, { secret: 'whsec_mine' }), 'secret');
    });

    it('404 for an unknown, deleted or other tenant\'s endpoint; a disabled endpoint rotates', async () => {
      const t = await api().newTenant();
      const stranger = await api().newTenant();
      const e = await create(t);
      expectNotFound(await rotate(stranger, e.webhookEndpointId, {}));
      expectNotFound(await rotate(t, 'whe_unknown', {}));
      expectOk(await patch(t, e.webhookEndpointId, { enabled: false }));
      expect(expectOk(await rotate(t, e.webhookEndpointId, {})).enabled).to.equal(false);
      expectOk(await del(t, e.webhookEndpointId));
      expectNotFound(await rotate(t, e.webhookEndpointId, {}));
    });
  });

  describe('POST /webhook-endpoints/{id}/test', () => {
    it('404 for an unknown, deleted or other tenant\'s endpoint; 401 without credentials; a multi-company client names the company', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      const stranger = await api().newTenant();
      const e = await create(t, { companyCode: a, url: 'http://127.0.0.1:9/unreachable' });
      const test = (who: Tenant, id: string, query: Record<string, unknown> = {}) => api().http.post(`/webhook-endpoints/${id}/test`).set(who.headers).query(query);
      expectNotFound(await test(stranger, e.webhookEndpointId));
      expectNotFound(await test(t, e.webhookEndpointId, { companyCode: b }));
      expectNotFound(await test(t, 'whe_unknown', { companyCode: a }));
      expectError(await test(t, e.webhookEndpointId), 400, 'INVALID_REQUEST', 'companyCode');
      expectError(await api().http.post(`/webhook-endpoints/${e.webhookEndpointId}/test`), 401, 'AUTHENTICATION_FAILED');
      expect(expectOk(await test(t, e.webhookEndpointId, { companyCode: a }))).to.deep.include({ delivered: false, statusCode: null, error: 'connection_refused' });
      expectOk(await del(t, e.webhookEndpointId, { companyCode: a }));
      expectNotFound(await test(t, e.webhookEndpointId, { companyCode: a }));
    });
  });

  describe('tenancy', () => {
    it("another organization's endpoint is 404 and never listed", async () => {
      const mine = await api().newTenant();
      const theirs = await api().newTenant();
      const e = await create(theirs);
      expectNotFound(await get(mine, e.webhookEndpointId));
      expectNotFound(await patch(mine, e.webhookEndpointId, { enabled: false }));
      expectNotFound(await del(mine, e.webhookEndpointId));
      expect(expectOk(await list(mine))).to.deep.equal([]);
      expect(expectOk(await get(theirs, e.webhookEndpointId)).enabled).to.equal(true);
    });

    it('a multi-company client sends companyCode (400 companyCode otherwise); endpoints belong to their company', async () => {
      const t = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = t.companyCodes as [string, string];
      expectError(await post(t, { url: 'https://a.example/in', enabledEvents: ['*'] }), 400, 'INVALID_REQUEST', 'companyCode');
      expectError(await list(t), 400, 'INVALID_REQUEST', 'companyCode');
      const inA = await create(t, { companyCode: a });
      expectNotFound(await get(t, inA.webhookEndpointId, { companyCode: b }));
      expectNotFound(await del(t, inA.webhookEndpointId, { companyCode: b }));
      expect(expectOk(await list(t, { companyCode: b }))).to.deep.equal([]);
      expect(expectOk(await list(t, { companyCode: a })).map((e: { webhookEndpointId: string }) => e.webhookEndpointId)).to.deep.equal([inA.webhookEndpointId]);
      expectError(await list(t, { companyCode: 'NOT-MINE' }), 400, 'INVALID_REQUEST', 'companyCode');
    });
  });

  it('is documented in /openapi.json', async () => {
    const res = await api().http.get('/openapi.json');
    expect(res.body.paths).to.include.keys(
      '/webhook-endpoints', '/webhook-endpoints/{id}', '/webhook-endpoints/{id}/test', '/webhook-endpoints/{id}/rotate-secret', '/events', '/events/{id}', '/events/{id}/redeliver',
    );
    expect(res.body.paths['/webhook-endpoints/{id}/test'].post.operationId).to.equal('testWebhookEndpoint');
    expect(res.body.paths['/webhook-endpoints/{id}/rotate-secret'].post.operationId).to.equal('rotateWebhookEndpointSecret');
    expect(res.body.paths['/webhook-endpoints/{id}/rotate-secret'].post.tags).to.deep.equal(['Webhooks']);
  });
});

describe('webhook endpoints in production [sqlite]', function () {
  this.timeout(30_000);
  let harness: ApiHarness;
  before(async () => {
    harness = await startApi('sqlite', { appEnv: 'production' });
  });
  after(async () => {
    await harness?.close();
  });

  const post = (t: Tenant, url: string) => harness.http.post('/webhook-endpoints').set(t.headers).send({ url, enabledEvents: ['*'] });

  it('needs https: http is 400 on url', async () => {
    const t = await harness.newTenant();
    expectInvalid(await post(t, 'http://93.184.216.34/hooks'), 'url');
  });

  it('refuses hosts on private, loopback or link-local addresses (400 on url), literal or by name', async () => {
    const t = await harness.newTenant();
    for (const url of ['https://127.0.0.1/in', 'https://localhost/in', 'https://10.0.0.8/in', 'https://169.254.169.254/latest', 'https://[::1]/in', 'https://192.168.1.1/in']) {
      const res = await post(t, url);
      expectInvalid(res, 'url', url);
      expect(res.body.error.details[0].issue).to.match(/private|could not be resolved/);
    }
    const patched = await harness.http.patch('/webhook-endpoints/whe_x').set(t.headers).send({ url: 'https://127.0.0.1/in' });
    expectInvalid(patched, 'url');
  });

  it('accepts an https url on a public address', async () => {
    const t = await harness.newTenant();
    expect(expectOk(await post(t, 'https://93.184.216.34/hooks'), 201).url).to.equal('https://93.184.216.34/hooks');
  });
});

describe('webhook endpoints in development without WEBHOOK_ALLOW_PRIVATE_URLS [sqlite]', function () {
  this.timeout(30_000);
  let harness: ApiHarness;
  before(async () => {
    harness = await startApi('sqlite', { appEnv: 'development', allowPrivateWebhookUrls: false });
  });
  after(async () => {
    await harness?.close();
  });

  it('refuses what production refuses: loopback, private, metadata and IPv4-in-IPv6 addresses (400 on url); http to a public address is fine', async () => {
    const t = await harness.newTenant();
    const post = (url: string) => harness.http.post('/webhook-endpoints').set(t.headers).send({ url, enabledEvents: ['*'] });
    for (const url of ['http://127.0.0.1:9/in', 'http://localhost:3000/in', 'http://10.0.0.8/in', 'http://169.254.169.254/latest', 'http://[::1]/in', 'http://[::ffff:127.0.0.1]/in', 'http://[::127.0.0.1]/in', 'http://0x7f.1/in']) {
      expectInvalid(await post(url), 'url', url);
    }
    expect(expectOk(await post('http://93.184.216.34/hooks'), 201).url).to.equal('http://93.184.216.34/hooks');
  });
});
