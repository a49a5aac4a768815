import { expect } from 'chai';
import type supertest from 'supertest';
import { publishedOpenApiDocument } from '../../adapters/http/published-document';
import { BUFFERED_ANSWER_CHARS } from '../../adapters/http/raw-json';
import { type ApiHarness, describeEachDatabase, startApi, type Tenant } from '../support/harness';

const REQUEST_ID = /^req_[A-Za-z0-9]+$/;
const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** `{ error: { code, message, details? }, requestId }`, the requestId also in X-Request-Id. */
function expectError(res: supertest.Response, status: number, code: string): void {
  expect(res.status, JSON.stringify(res.body)).to.equal(status);
  expect(res.headers['content-type']).to.match(/^application\/json/);
  expect(res.body).to.have.keys('error', 'requestId');
  expect(res.body.error.code).to.equal(code);
  expect(res.body.error.message).to.be.a('string').and.not.equal('');
  expect(res.body.requestId).to.match(REQUEST_ID);
  expect(res.headers['x-request-id']).to.equal(res.body.requestId);
}

function expectInvalidField(res: supertest.Response, field: string): void {
  expectError(res, 400, 'INVALID_REQUEST');
  expect(res.body.error.details, JSON.stringify(res.body)).to.be.an('array').that.is.not.empty;
  expect(res.body.error.details.map((d: { field: string }) => d.field)).to.include(field);
}

const contactBody = (suffix: string) => ({ externalClientId: `ext-${suffix}`, name: `Ana ${suffix}`, email: `ana.${suffix}@example.com` });

describeEachDatabase('HTTP conventions', ({ api }) => {
  const post = (path: string, tenant: Tenant) => api().http.post(path).set(tenant.headers);
  /** Sends the text as is, with a JSON content type. */
  const postRaw = (path: string, tenant: Tenant, text: string) =>
    api().http.post(path).set(tenant.headers).set('content-type', 'application/json').send(text);

  describe('Cache-Control', () => {
    it('is no-store on every answer of an API route, errors included; the documents stay cacheable', async () => {
      const tenant = await api().newTenant();
      const http = api().http;
      const created = await http.post('/contacts').set(tenant.headers).send({ externalClientId: 'cc-1', name: 'Caché', email: 'c@example.com' });
      expect(created.status).to.equal(201);
      const answers = {
        'POST /contacts 201': created,
        'GET /contacts/:id 200': await http.get(`/contacts/${created.body.data.contactId}`).set(tenant.headers),
        'GET /contacts 200': await http.get('/contacts').set(tenant.headers),
        'POST /contacts 400': await http.post('/contacts').set(tenant.headers).send({}),
        'GET /contacts/:id 404': await http.get('/contacts/con_nothere').set(tenant.headers),
        'GET /contacts 401': await http.get('/contacts'),
        'POST /webhook-endpoints 201': await http.post('/webhook-endpoints').set(tenant.headers).send({ url: 'https://example.com/cache', enabledEvents: ['*'] }),
        'POST /auth/login 200': await http.post('/auth/login').set('x-api-key', tenant.loginApiKey).send({ clientUsername: tenant.clientUsername, password: tenant.password }),
        'POST /auth/login 401': await http.post('/auth/login').send({ clientUsername: tenant.clientUsername, password: 'nope' }),
        'POST /auth/refresh 200': await http.post('/auth/refresh').set('x-api-key', tenant.loginApiKey).send({ refreshToken: tenant.refreshToken }),
        'GET /health/live 200': await http.get('/health/live'),
        'GET /metrics 200': await http.get('/metrics'),
      };
      for (const [name, res] of Object.entries(answers)) expect(res.headers['cache-control'], `${name} (${res.status})`).to.equal('no-store');
      expect((await http.get('/openapi.json')).headers['cache-control']).to.not.equal('no-store');
    });
  });

  describe('JSON answers', () => {
    it('are JSON in UTF-8 with their exact length in bytes, a long page (written as a Buffer) and a short resource alike', async () => {
      const tenant = await api().newTenant();
      const http = api().http;
      for (let i = 0; i < 25; i++) {
        const res = await http.post('/contacts').set(tenant.headers).send({ externalClientId: `utf8-${i}`, name: `José Ñandú 東京 ${i} 💳`, email: `jose.${i}@example.com` });
        expect(res.status, JSON.stringify(res.body)).to.equal(201);
      }
      const page = await http.get('/contacts').query({ limit: 25 }).set(tenant.headers);
      const one = await http.get(`/contacts/${page.body.data[0].contactId}`).set(tenant.headers);
      expect(page.text.length, 'the page is long enough to be written as a Buffer').to.be.above(BUFFERED_ANSWER_CHARS);
      expect(one.text.length, 'the resource is short enough to stay a string').to.be.below(BUFFERED_ANSWER_CHARS);
      for (const res of [page, one]) {
        expect(res.status).to.equal(200);
        expect(res.headers['content-type']).to.equal('application/json; charset=utf-8');
        expect(Number(res.headers['content-length'])).to.equal(Buffer.byteLength(res.text, 'utf8'));
        expect(JSON.parse(res.text)).to.deep.equal(res.body);
      }
      expect(page.body.data).to.have.length(25);
      expect(page.body.data.map((c: { name: string }) => c.name)).to.include('José Ñandú 東京 24 💳');
      expect(one.body.data.name).to.match(/^José Ñandú 東京 \d+ 💳$/);
    });
  });

  describe('requestId', () => {
    it('is in the body and the X-Request-Id header of a success', async () => {
      const tenant = await api().newTenant();
      const res = await api().http.get('/contacts').set(tenant.headers);
      expect(res.status).to.equal(200);
      expect(res.body.requestId).to.match(REQUEST_ID);
      expect(res.headers['x-request-id']).to.equal(res.body.requestId);
    });

    it('is in the body and the header of a created resource', async () => {
      const tenant = await api().newTenant();
      const res = await post('/contacts', tenant).send(contactBody('rid'));
      expect(res.status).to.equal(201);
      expect(res.body).to.have.keys('data', 'requestId');
      expect(res.headers['x-request-id']).to.equal(res.body.requestId).and.match(REQUEST_ID);
    });

    it('is in the body and the header of errors (401, 400, 404)', async () => {
      const tenant = await api().newTenant();
      expectError(await api().http.get('/contacts'), 401, 'AUTHENTICATION_FAILED');
      expectError(await post('/contacts', tenant).send({}), 400, 'INVALID_REQUEST');
      expectError(await api().http.get('/contacts/con_nothing').set(tenant.headers), 404, 'RESOURCE_NOT_FOUND');
    });

    it('differs from one request to the next', async () => {
      const ids = new Set<string>();
      for (let i = 0; i < 5; i++) ids.add((await api().http.get('/health/live')).body.requestId);
      expect(ids.size).to.equal(5);
    });
  });

  describe('envelope of protocol errors', () => {
    it('answers an unknown route with 404 RESOURCE_NOT_FOUND', async () => {
      expectError(await api().http.get('/no-such-route'), 404, 'RESOURCE_NOT_FOUND');
      expectError(await api().http.post('/no/such/route').send({ a: 1 }), 404, 'RESOURCE_NOT_FOUND');
    });

    it('answers an unknown route with 404 even with valid credentials', async () => {
      const tenant = await api().newTenant();
      expectError(await api().http.get('/debtz').set(tenant.headers), 404, 'RESOURCE_NOT_FOUND');
    });

    it('answers malformed JSON with 400 INVALID_REQUEST naming the body', async () => {
      const tenant = await api().newTenant();
      const res = await postRaw('/contacts', tenant, '{"externalClientId": "x", ');
      expectInvalidField(res, 'body');
    });

    it('ignores an undeclared field nested thousands deep (no 500): the body is read, not walked', async () => {
      const tenant = await api().newTenant();
      const deep = `${'[{"a":'.repeat(5000)}1${'}]'.repeat(5000)}`;
      const res = await postRaw('/contacts', tenant, `{"externalClientId":"deep-1","name":"Deep","email":"deep@example.com","x":${deep}}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
    });

    it('parses the body as JSON whatever the Content-Type says', async () => {
      const tenant = await api().newTenant();
      const res = await api()
        .http.post('/contacts')
        .set(tenant.headers)
        .set('content-type', 'application/x-www-form-urlencoded')
        .send(JSON.stringify(contactBody('form')));
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.externalClientId).to.equal('ext-form');
    });

    it('reads the body as UTF-8, a leading byte-order mark dropped', async () => {
      const tenant = await api().newTenant();
      const res = await postRaw('/contacts', tenant, `\uFEFF${JSON.stringify({ ...contactBody('bom'), name: 'Añá Peña 😀' })}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(201);
      expect(res.body.data.name).to.equal('Añá Peña 😀');
    });

    it('answers a body over 1 MiB with 413 PAYLOAD_TOO_LARGE in the envelope', async () => {
      const tenant = await api().newTenant();
      const big = JSON.stringify({ ...contactBody('big'), filler: 'x'.repeat(1024 * 1024) });
      const res = await postRaw('/contacts', tenant, big);
      expectError(res, 413, 'PAYLOAD_TOO_LARGE');
    });

    it('accepts a body just under 1 MiB', async () => {
      const tenant = await api().newTenant();
      const body = { ...contactBody('almost'), filler: '' };
      body.filler = 'x'.repeat(1024 * 1024 - JSON.stringify(body).length);
      const text = JSON.stringify(body);
      expect(Buffer.byteLength(text)).to.equal(1024 * 1024);
      const res = await postRaw('/contacts', tenant, text);
      expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(201);
    });
  });

  describe('hostile bodies', () => {
    const depth = 20_000;
    const hostile: [string, string][] = [
      ['an array', '[{"name":"x"}]'],
      ['a string', '"name"'],
      ['a number', '42'],
      ['null', 'null'],
      ['true', 'true'],
      ['a deeply nested object', '{"name":'.repeat(depth) + '"x"' + '}'.repeat(depth)],
      ['a deeply nested array', '{"name":' + '['.repeat(depth) + ']'.repeat(depth) + '}'],
      ['a number beyond double range', '{"name":1e999,"externalClientId":-1e999,"email":1e999,"externalProductId":1e999}'],
      ['a 5000-digit number', `{"name":${'9'.repeat(5000)},"active":${'9'.repeat(5000)}}`],
      ['a __proto__ key', '{"__proto__":{"name":"x","externalClientId":"y","email":"a@b.co"},"constructor":{"prototype":{}}}'],
      ['an object where a string goes', '{"name":{"toString":"x"},"externalClientId":["a"],"email":{},"phones":"x"}'],
    ];
    for (const path of ['/contacts', '/products']) {
      it(`POST ${path} answers each of them with 400 in the envelope, never 5xx`, async () => {
        const tenant = await api().newTenant();
        for (const [label, text] of hostile) {
          const res = await postRaw(path, tenant, text);
          expect(res.status, `${label}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(400);
          expectError(res, 400, 'INVALID_REQUEST');
          expect(res.body.error.details, label).to.be.an('array').that.is.not.empty;
        }
        const list = await api().http.get(path).set(tenant.headers);
        expect(list.body.data, 'nothing was created').to.deep.equal([]);
      });
    }

    it('answers an empty POST body with 400 naming the required fields', async () => {
      const tenant = await api().newTenant();
      const res = await post('/products', tenant);
      expectInvalidField(res, 'name');
    });
  });

  describe('companyCode', () => {
    it('is required for a client with several companies (body and query)', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      expectInvalidField(await post('/products', tenant).send({ name: 'Gym' }), 'companyCode');
      expectInvalidField(await api().http.get('/products').set(tenant.headers), 'companyCode');
      expectInvalidField(await post('/contacts', tenant).send(contactBody('mc')), 'companyCode');
    });

    it('selects the company: a product made in A is listed in A, not in B', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      const [a, b] = tenant.companyCodes as [string, string];
      const created = await post('/products', tenant).send({ name: 'Gym', companyCode: a });
      expect(created.status, JSON.stringify(created.body)).to.equal(201);
      expect(created.body.data).to.not.have.property('companyCode');
      const inA = await api().http.get('/products').query({ companyCode: a }).set(tenant.headers);
      const inB = await api().http.get('/products').query({ companyCode: b }).set(tenant.headers);
      expect(inA.status).to.equal(200);
      expect(inA.body.data.map((p: { name: string }) => p.name)).to.deep.equal(['Gym']);
      expect(inB.status).to.equal(200);
      expect(inB.body.data).to.deep.equal([]);
    });

    it('is context, not a field, in a strict PATCH body', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      const companyCode = tenant.companyCodes[0]!;
      const created = await post('/contacts', tenant).send({ ...contactBody('patch'), companyCode });
      expect(created.status).to.equal(201);
      const res = await api()
        .http.patch(`/contacts/${created.body.data.contactId}`)
        .set(tenant.headers)
        .send({ name: 'Renamed', companyCode });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data.name).to.equal('Renamed');
    });

    it('of another tenant is refused with 400 naming companyCode', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      const stranger = await api().newTenant({ companies: ['C'] });
      const foreign = stranger.companyCodes[0]!;
      expectInvalidField(await post('/products', tenant).send({ name: 'Gym', companyCode: foreign }), 'companyCode');
      expectInvalidField(await api().http.get('/products').query({ companyCode: foreign }).set(tenant.headers), 'companyCode');
    });

    it('that does not exist is refused with 400 naming companyCode', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      expectInvalidField(await post('/products', tenant).send({ name: 'Gym', companyCode: 'NO-SUCH-COMPANY' }), 'companyCode');
      const lower = tenant.companyCodes[0]!.toLowerCase();
      expectInvalidField(await api().http.get('/products').query({ companyCode: lower }).set(tenant.headers), 'companyCode');
    });

    it('that is not a string is refused with 400 naming companyCode', async () => {
      const tenant = await api().newTenant({ companies: ['A', 'B'] });
      for (const companyCode of [42, null, true, [tenant.companyCodes[0]], { code: tenant.companyCodes[0] }]) {
        expectInvalidField(await post('/products', tenant).send({ name: 'Gym', companyCode }), 'companyCode');
      }
      const repeated = await api().http.get(`/products?companyCode=${tenant.companyCodes[0]}&companyCode=${tenant.companyCodes[1]}`).set(tenant.headers);
      expectInvalidField(repeated, 'companyCode');
    });

    it('may be sent by a single-company client when it is its own', async () => {
      const tenant = await api().newTenant();
      const companyCode = tenant.companyCodes[0]!;
      expect((await post('/contacts', tenant).send({ ...contactBody('own'), companyCode })).status).to.equal(201);
      expect((await post('/products', tenant).send({ name: 'Gym', companyCode })).status).to.equal(201);
      const list = await api().http.get('/products').query({ companyCode }).set(tenant.headers);
      expect(list.status).to.equal(200);
      expect(list.body.data).to.have.length(1);
    });

    it('of another tenant is refused for a single-company client too', async () => {
      const tenant = await api().newTenant();
      const stranger = await api().newTenant();
      expectInvalidField(await post('/products', tenant).send({ name: 'Gym', companyCode: stranger.companyCodes[0] }), 'companyCode');
    });
  });

  describe('tenant isolation', () => {
    it("hides another organization's contact (404 on GET and PATCH, absent from lists)", async () => {
      const owner = await api().newTenant();
      const stranger = await api().newTenant();
      const created = await post('/contacts', owner).send(contactBody('iso'));
      expect(created.status).to.equal(201);
      const { contactId } = created.body.data;
      expectError(await api().http.get(`/contacts/${contactId}`).set(stranger.headers), 404, 'RESOURCE_NOT_FOUND');
      expectError(await api().http.patch(`/contacts/${contactId}`).set(stranger.headers).send({ name: 'Mine' }), 404, 'RESOURCE_NOT_FOUND');
      const list = await api().http.get('/contacts').query({ externalClientId: 'ext-iso' }).set(stranger.headers);
      expect(list.body.data).to.deep.equal([]);
      const mine = await api().http.get(`/contacts/${contactId}`).set(owner.headers);
      expect(mine.status).to.equal(200);
      expect(mine.body.data.name).to.equal('Ana iso');
    });

    it('lets two organizations use the same externalClientId', async () => {
      const a = await api().newTenant();
      const b = await api().newTenant();
      expect((await post('/contacts', a).send(contactBody('same'))).status).to.equal(201);
      expect((await post('/contacts', b).send(contactBody('same'))).status).to.equal(201);
    });

    it("hides another organization's product (404 on GET, PATCH, DELETE)", async () => {
      const owner = await api().newTenant();
      const stranger = await api().newTenant();
      const created = await post('/products', owner).send({ name: 'Private' });
      const { productId } = created.body.data;
      expectError(await api().http.get(`/products/${productId}`).set(stranger.headers), 404, 'RESOURCE_NOT_FOUND');
      expectError(await api().http.patch(`/products/${productId}`).set(stranger.headers).send({ name: 'X' }), 404, 'RESOURCE_NOT_FOUND');
      expectError(await api().http.delete(`/products/${productId}`).set(stranger.headers), 404, 'RESOURCE_NOT_FOUND');
      expect((await api().http.get(`/products/${productId}`).set(owner.headers)).body.data.active).to.equal(true);
    });
  });

  describe('documentation and probes', () => {
    it('GET /openapi.json is an OpenAPI 3.1.0 document of the routes', async () => {
      const res = await api().http.get('/openapi.json');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^application\/json/);
      expect(res.body.openapi).to.equal('3.1.0');
      expect(res.body.info.title).to.be.a('string');
      expect(res.body.paths).to.include.keys('/contacts', '/contacts/{id}', '/products', '/products/{id}', '/auth/login', '/auth/refresh');
      expect(res.body.paths['/products/{id}']).to.include.keys('get', 'patch', 'delete');
      expect(res.body.paths['/contacts'].post.security).to.deep.equal([{ apiKey: [], accessToken: [] }]);
      expect(res.body.paths['/auth/login'].post.security).to.deep.equal([{ loginApiKey: [] }]);
      expect(res.body.paths['/health/live'].get.security).to.deep.equal([]);
      const schemes = res.body.components.securitySchemes;
      expect(Object.keys(schemes)).to.deep.equal(['apiKey', 'accessToken', 'loginApiKey']);
      expect(schemes.apiKey).to.include({ type: 'apiKey', in: 'header', name: 'x-api-key' });
      expect(schemes.accessToken).to.include({ type: 'apiKey', in: 'header', name: 'x-authorization-token' });
      expect(schemes.loginApiKey).to.include({ type: 'apiKey', in: 'header', name: 'x-api-key' });
    });

    it('serves the published document: the one the SDK is generated from and the suites are checked against', async () => {
      const served = (await api().http.get('/openapi.json')).body;
      expect(served).to.deep.equal(JSON.parse(JSON.stringify(publishedOpenApiDocument(api().baseUrl))));
    });

    it('documents the request bodies their handlers validate: POST /v2/debts (one debt or a batch), PATCH /payment-links/{id}', async () => {
      const { paths } = (await api().http.get('/openapi.json')).body;
      const schemaOf = (path: string, method: string) => paths[path][method].requestBody.content['application/json'].schema;
      const { schemas } = (await api().http.get('/openapi.json')).body.components;
      const v2 = schemaOf('/v2/debts', 'post');
      expect(v2.oneOf).to.deep.equal([{ $ref: '#/components/schemas/CreateDebtRequest' }, { $ref: '#/components/schemas/CreateDebtBatchRequest' }]);
      expect(schemas.CreateDebtRequest.required).to.include.members(['amount', 'dueDate']);
      expect(schemas.CreateDebtBatchRequest.required).to.deep.equal(['debts']);
      expect(schemaOf('/payment-links/{id}', 'patch')).to.deep.equal({ $ref: '#/components/schemas/UpdatePaymentLinkRequest' });
      expect(Object.keys(schemas.UpdatePaymentLinkRequest.properties)).to.deep.equal(['description', 'expiresAt', 'metadata', 'companyCode']);
    });

    it('GET /docs is the HTML reference of /openapi.json (test/http/api-reference.http.test.ts has the rest)', async () => {
      const res = await api().http.get('/docs');
      expect(res.status).to.equal(200);
      expect(res.headers['content-type']).to.match(/^text\/html/);
      expect(res.text).to.include('/openapi.json').and.match(/<script src="\/docs\/scalar\.js\?v=[0-9a-f]+" defer><\/script>/);
    });

    it('GET /health/live answers 200', async () => {
      const res = await api().http.get('/health/live');
      expect(res.status).to.equal(200);
      expect(res.body.data).to.deep.equal({ status: 'ok' });
      expect(res.body.requestId).to.match(REQUEST_ID);
    });

    it('GET /health/ready answers 200 with the database ok', async () => {
      const res = await api().http.get('/health/ready');
      expect(res.status).to.equal(200);
      expect(res.body.data.status).to.equal('ok');
      expect(res.body.data.checks).to.deep.include({ name: 'database', status: 'ok' });
    });
  });

  describe('test helpers: clock', () => {
    const freeze = (tenant: Tenant, now: unknown) => api().http.put('/test-helpers/clock').set(tenant.headers).send({ now });
    const release = (tenant: Tenant) => api().http.delete('/test-helpers/clock').set(tenant.headers);

    it('PUT freezes the organization clock and answers the instant in UTC ms', async () => {
      const tenant = await api().newTenant();
      const res = await freeze(tenant, '2030-01-01T10:00:00Z');
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.deep.equal({ now: '2030-01-01T10:00:00.000Z', frozen: true });
    });

    it('stamps resources created afterwards with the frozen instant', async () => {
      const tenant = await api().newTenant();
      expect((await freeze(tenant, '2030-06-15T08:30:45.123Z')).status).to.equal(200);
      const contact = await post('/contacts', tenant).send(contactBody('clock'));
      expect(contact.status).to.equal(201);
      expect(contact.body.data.createdAt).to.equal('2030-06-15T08:30:45.123Z');
      expect(contact.body.data.updatedAt).to.equal('2030-06-15T08:30:45.123Z');
      const product = await post('/products', tenant).send({ name: 'Clocked' });
      expect(product.body.data.createdAt).to.equal('2030-06-15T08:30:45.123Z');
    });

    it('converts an offset instant to UTC', async () => {
      const tenant = await api().newTenant();
      const res = await freeze(tenant, '2030-01-01T10:00:00-05:00');
      expect(res.status).to.equal(200);
      expect(res.body.data.now).to.equal('2030-01-01T15:00:00.000Z');
    });

    it('refuses a bare date, a date-time without zone, a non-string and a missing now with 400 naming now', async () => {
      const tenant = await api().newTenant();
      // The last two are outside year 0000 to 9999 in UTC, which the wire format cannot carry.
      for (const now of ['2030-01-01', '2030-01-01T10:00:00', 'tomorrow', 1893456000000, null, '9999-12-31T23:59:59-23:59', '0000-01-01T00:00:00+00:01']) {
        expectInvalidField(await freeze(tenant, now), 'now');
      }
      expectInvalidField(await api().http.put('/test-helpers/clock').set(tenant.headers).send({}), 'now');
    });

    it('DELETE goes back to real time', async () => {
      const tenant = await api().newTenant();
      await freeze(tenant, '2030-01-01T10:00:00Z');
      const before = Date.now();
      const res = await release(tenant);
      expect(res.status).to.equal(200);
      expect(res.body.data.frozen).to.equal(false);
      expect(res.body.data.now).to.match(ISO_UTC_MS);
      expect(Date.parse(res.body.data.now)).to.be.within(before - 5_000, Date.now() + 5_000);
      const contact = await post('/contacts', tenant).send(contactBody('released'));
      expect(Date.parse(contact.body.data.createdAt)).to.be.within(before - 5_000, Date.now() + 5_000);
    });

    it("freezing one organization's clock leaves another's alone", async () => {
      const frozen = await api().newTenant();
      const other = await api().newTenant();
      await freeze(frozen, '2030-01-01T10:00:00Z');
      const before = Date.now();
      const contact = await post('/contacts', other).send(contactBody('other'));
      expect(contact.status).to.equal(201);
      expect(Date.parse(contact.body.data.createdAt)).to.be.within(before - 5_000, Date.now() + 5_000);
    });

    it('needs the credentials like every route', async () => {
      const res = await api().http.put('/test-helpers/clock').send({ now: '2030-01-01T10:00:00Z' });
      expectError(res, 401, 'AUTHENTICATION_FAILED');
    });

    it('is listed in /openapi.json outside production', async () => {
      const res = await api().http.get('/openapi.json');
      expect(res.body.paths).to.include.keys('/test-helpers/clock');
    });
  });
});

describe('test helpers in production [sqlite]', function () {
  this.timeout(30_000);
  let harness: ApiHarness;
  before(async () => {
    harness = await startApi('sqlite', { appEnv: 'production' });
  });
  after(async () => {
    await harness?.close();
  });

  it('are not mounted: /test-helpers/clock is 404', async () => {
    const tenant = await harness.newTenant();
    expect((await harness.http.get('/contacts').set(tenant.headers)).status).to.equal(200);
    const put = await harness.http.put('/test-helpers/clock').set(tenant.headers).send({ now: '2030-01-01T10:00:00Z' });
    expectError(put, 404, 'RESOURCE_NOT_FOUND');
    expectError(await harness.http.delete('/test-helpers/clock').set(tenant.headers), 404, 'RESOURCE_NOT_FOUND');
  });

  it('are not documented in /openapi.json', async () => {
    const res = await harness.http.get('/openapi.json');
    expect(res.body).to.deep.equal(JSON.parse(JSON.stringify(publishedOpenApiDocument(harness.baseUrl, { testHelpers: false }))));
    expect(res.body.paths).to.include.keys('/contacts');
    expect(res.body.paths).to.not.have.property('/test-helpers/clock');
  });

  it('issue live keys that a production server accepts', async () => {
    const tenant = await harness.newTenant();
    expect(tenant.apiKey).to.match(/^ck_live_/);
    expect(tenant.loginApiKey).to.match(/^lk_live_/);
  });
});
