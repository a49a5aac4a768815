import { expect } from 'chai';
import {
  CollectionsApiError,
  CollectionsClient,
  type CollectionsClientOptions,
  CollectionsNetworkError,
  CollectionsPartialUpdateError,
  CollectionsTimeoutError,
  isErrorCode,
  operationTable,
} from '../../sdk/typescript/src/index.js';
import { authenticated, failure, fakeApi, type FakeApi, json, networkError, ok } from './fake-api';

/**
 * The SDK's runtime against a scripted fake of the API (test/sdk/fake-api.ts): the session,
 * retries, idempotency keys, pagination, batch and partial answers, and the error classes.
 * sdk.e2e.test.ts runs the same SDK against the real API.
 */

const BASE = 'https://api.test';
const DEBT = { debtId: 'debt_a', status: 'PENDING', amount: 10 };

function client(api: FakeApi, options: Partial<CollectionsClientOptions> = {}): CollectionsClient {
  return new CollectionsClient({
    baseUrl: `${BASE}/`,
    apiKey: 'ck_test',
    loginApiKey: 'lk_test',
    clientUsername: 'acme',
    password: 'secret',
    fetch: api.fetch,
    retryBaseDelayMs: 1,
    retryMaxDelayMs: 4,
    ...options,
  });
}

async function rejection(promise: Promise<unknown>): Promise<any> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('SDK client (fake API)', () => {
  describe('one method per operation', () => {
    it('has a method for every operationId of the generated table, and an iterator namespace per paginated list', () => {
      const c = client(fakeApi());
      for (const id of Object.keys(operationTable)) expect(typeof (c as unknown as Record<string, unknown>)[id], id).to.equal('function');
      const namespaces = Object.values(operationTable).flatMap((row) => (row.namespace ? [row.namespace] : []));
      expect(namespaces).to.include.members(['debts', 'paymentLinks', 'paymentLinkPayments', 'subscriptions', 'subscriptionDebts', 'contacts', 'products', 'webhookEndpoints', 'events']);
      for (const ns of namespaces) {
        const group = (c as unknown as Record<string, { list: unknown; pages: unknown }>)[ns]!;
        expect(typeof group.list, ns).to.equal('function');
        expect(typeof group.pages, ns).to.equal('function');
      }
    });

    it('builds the path from its parameters (encoded), answers `data`, and sends the two credentials', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\/.+$/, authenticated(api, () => ok(DEBT)));
      const debt = await client(api).getDebt('order/1 é');
      expect(debt).to.deep.equal(DEBT);
      const [call] = api.calls('GET', /^\/debts\//);
      expect(call!.url.pathname).to.equal('/debts/order%2F1%20%C3%A9');
      expect(call!.headers).to.include({ 'x-api-key': 'ck_test', 'x-authorization-token': 'access-1', accept: 'application/json' });
      expect(call!.headers).to.not.have.property('idempotency-key');
    });

    it('writes the query (skipping undefined, repeating arrays) and answers one page { data, meta, requestId }', async () => {
      const api = fakeApi();
      const meta = { page: 2, limit: 2, total: 5, hasMore: true };
      api.on('GET', '/debts', authenticated(api, () => json(200, { data: [DEBT, DEBT], meta, requestId: 'req_p' })));
      const page = await client(api).listDebts({ status: 'OVERDUE', page: 2, limit: 2, externalClientId: undefined });
      expect(page).to.deep.equal({ data: [DEBT, DEBT], meta, requestId: 'req_p' });
      expect(Object.fromEntries(api.calls('GET', '/debts')[0]!.url.searchParams)).to.deep.equal({ status: 'OVERDUE', page: '2', limit: '2' });
    });

    it('sends an empty JSON body to an operation whose body is optional, and none to one without a body', async () => {
      const api = fakeApi();
      api.on('POST', '/test-helpers/debts/debt_a/pay', authenticated(api, () => ok({ ...DEBT, status: 'PAID' }, 201)));
      api.on('POST', '/debts/debt_a/cancel', authenticated(api, () => ok({ ...DEBT, status: 'CANCELLED' })));
      const c = client(api);
      expect((await c.payDebt('debt_a')).status).to.equal('PAID');
      expect((await c.cancelDebt('debt_a')).status).to.equal('CANCELLED');
      expect(api.calls('POST', '/test-helpers/debts/debt_a/pay')[0]!.body).to.deep.equal({});
      expect(api.calls('POST', '/debts/debt_a/cancel')[0]!.body).to.equal(undefined);
    });

    it('puts companyCode in the body of POST/PATCH/PUT and in the query of GET/DELETE and body-less POSTs; a call overrides the client', async () => {
      const api = fakeApi();
      api.on('POST', '/contacts', authenticated(api, (req) => ok(req.body, 201)));
      api.on('GET', '/contacts', authenticated(api, () => json(200, { data: [], meta: { page: 1, limit: 50, total: 0, hasMore: false }, requestId: 'r' })));
      api.on('DELETE', '/products/prd_1', authenticated(api, () => ok({ active: false })));
      api.on('POST', '/debts/debt_a/cancel', authenticated(api, () => ok(DEBT)));
      const c = client(api, { companyCode: 'NORTH' });
      await c.createContact({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' });
      await c.listContacts({}, { companyCode: 'SOUTH' });
      await c.deleteProduct('prd_1');
      await c.cancelDebt('debt_a');
      expect(api.calls('POST', '/contacts')[0]!.body).to.deep.equal({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com', companyCode: 'NORTH' });
      expect(api.calls('GET', '/contacts')[0]!.url.searchParams.get('companyCode')).to.equal('SOUTH');
      expect(api.calls('DELETE', '/products/prd_1')[0]!.url.searchParams.get('companyCode')).to.equal('NORTH');
      expect(api.calls('POST', '/debts/debt_a/cancel')[0]!.url.searchParams.get('companyCode')).to.equal('NORTH');
      expect(api.calls('POST', '/auth/login')[0]!.body).to.deep.equal({ clientUsername: 'acme', password: 'secret' });
    });

    it('the health probes need no credentials', async () => {
      const api = fakeApi();
      api.on('GET', '/health/live', () => ok({ status: 'ok' }));
      expect(await client(api).getLiveness()).to.deep.equal({ status: 'ok' });
      expect(api.logins).to.equal(0);
      expect(api.requests[0]!.headers).to.not.have.property('x-api-key');
    });
  });

  describe('session', () => {
    it('logs in once for concurrent first calls (x-api-key: the login key), then sends the token on each', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, () => ok(DEBT)));
      const c = client(api);
      await Promise.all(Array.from({ length: 8 }, (_, i) => c.getDebt(`debt_${i}`)));
      expect(api.logins).to.equal(1);
      expect(api.calls('POST', '/auth/login')[0]!.headers['x-api-key']).to.equal('lk_test');
      expect(api.calls('GET', /^\/debts\//).map((r) => r.token)).to.deep.equal(Array(8).fill('access-1'));
      expect(c.session.accessToken).to.equal('access-1');
      expect(c.session.refreshToken).to.equal('refresh-1');
    });

    it('refreshes once for 10 concurrent 401s (single-use refresh tokens), and every call succeeds with the new token', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, () => ok(DEBT)));
      const c = client(api);
      await c.getDebt('warm-up');
      api.validTokens.delete('access-1'); // the server stops accepting it (revoked, expired)
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => c.getDebt(`debt_${i}`)));
      expect(answers).to.have.length(10);
      expect(api.refreshes).to.equal(1);
      expect(api.logins).to.equal(1);
      expect(api.calls('POST', '/auth/refresh')[0]!.body).to.deep.equal({ refreshToken: 'refresh-1' });
      expect(c.session).to.deep.include({ accessToken: 'access-2', refreshToken: 'refresh-2' });
    });

    it('logs in again with the credentials when the refresh token is refused', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, () => ok(DEBT)));
      const c = client(api, { accessToken: 'stale', refreshToken: 'already-used' });
      expect(await c.getDebt('debt_a')).to.deep.equal(DEBT);
      expect(api.calls('GET', /^\/debts\//).map((r) => r.token)).to.deep.equal(['stale', 'access-1']);
      expect([api.refreshes, api.logins]).to.deep.equal([1, 1]);
    });

    it('refreshes before the access token expires (no 401 needed)', async () => {
      const api = fakeApi({ expiresIn: 0 });
      api.on('GET', /^\/debts\//, authenticated(api, () => ok(DEBT)));
      const c = client(api, { refreshBeforeExpirySeconds: 60 });
      await c.getDebt('a');
      await c.getDebt('b');
      expect(api.calls('GET', /^\/debts\//).map((r) => r.token)).to.deep.equal(['access-1', 'access-2']);
      expect([api.logins, api.refreshes]).to.deep.equal([1, 1]);
    });

    it('a lifetime shorter than twice the margin is renewed half way through, not on every call', async () => {
      const api = fakeApi({ expiresIn: 30 });
      api.on('GET', /^\/debts\//, authenticated(api, () => ok(DEBT)));
      const c = client(api, { refreshBeforeExpirySeconds: 60 });
      await c.getDebt('a');
      await c.getDebt('b');
      expect([api.logins, api.refreshes]).to.deep.equal([1, 0]);
    });

    it('a 401 after renewing the session is thrown (no loop), as AUTHENTICATION_FAILED', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, () => failure(401, 'AUTHENTICATION_FAILED', 'Authentication failed'));
      const error = await rejection(client(api).getDebt('a'));
      expect(error).to.be.instanceOf(CollectionsApiError);
      expect(error).to.include({ status: 401, code: 'AUTHENTICATION_FAILED' });
      expect(api.calls('GET', /^\/debts\//)).to.have.length(2);
    });

    it('wrong credentials: the login 401 is thrown', async () => {
      const api = fakeApi();
      const error = await rejection(client(api, { password: 'wrong' }).getDebt('a'));
      expect(error).to.include({ status: 401, code: 'AUTHENTICATION_FAILED', operationId: 'login' });
    });

    it('login() and refreshSession() without a body use the client\'s credentials and keep the new session', async () => {
      const api = fakeApi();
      const c = client(api);
      const first = await c.login();
      expect(first).to.include({ accessToken: 'access-1', refreshToken: 'refresh-1' });
      const second = await c.refreshSession();
      expect(second).to.include({ accessToken: 'access-2', refreshToken: 'refresh-2' });
      expect(c.session.accessToken).to.equal('access-2');
    });

    it('a client with a token only sends it, and decodes a JWT expiry', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, (req) => ok({ ...DEBT, token: req.token }));
      const exp = Math.floor(Date.now() / 1000) + 3600;
      const jwt = `h.${Buffer.from(JSON.stringify({ exp })).toString('base64url')}.s`;
      const c = new CollectionsClient({ baseUrl: BASE, apiKey: 'ck_test', accessToken: jwt, fetch: api.fetch });
      expect(await c.getDebt('a')).to.include({ token: jwt });
      expect(c.session.expiresAt!.getTime()).to.equal(exp * 1000);
    });
  });

  describe('retries', () => {
    it('retries a 429 for any operation, a POST included, after Retry-After', async () => {
      const api = fakeApi();
      api.on('POST', '/contacts', authenticated(api, (_req, nth) => (nth === 1 ? failure(429, 'RATE_LIMITED', 'slow down', {}, { 'Retry-After': '1' }) : ok({ contactId: 'con_1' }, 201))));
      const started = Date.now();
      const contact = await client(api).createContact({ externalClientId: 'ana', name: 'Ana', email: 'a@example.com' });
      expect(contact).to.deep.equal({ contactId: 'con_1' });
      expect(Date.now() - started).to.be.at.least(950);
      expect(api.calls('POST', '/contacts')).to.have.length(2);
    });

    it('gives up after maxRetries 429s with a RATE_LIMITED error that carries retryAfter; a Retry-After over the cap is not waited for', async () => {
      const api = fakeApi();
      api.on('GET', '/products', authenticated(api, () => failure(429, 'RATE_LIMITED', 'slow down', {}, { 'Retry-After': '0' })));
      const error = await rejection(client(api, { maxRetries: 3 }).listProducts());
      expect(error).to.include({ status: 429, code: 'RATE_LIMITED', retryAfter: 0 });
      expect(api.calls('GET', '/products')).to.have.length(4);

      const slow = fakeApi();
      slow.on('GET', '/products', authenticated(slow, () => failure(429, 'RATE_LIMITED', 'later', {}, { 'Retry-After': '3600' })));
      const capped = await rejection(client(slow).listProducts());
      expect(capped).to.include({ retryAfter: 3600 });
      expect(slow.calls('GET', '/products')).to.have.length(1);
    });

    it('retries 500, 502, 503 and 504 of idempotent operations with backoff', async () => {
      const api = fakeApi();
      const statuses = [500, 502, 503, 504];
      api.on('GET', /^\/debts\//, authenticated(api, (_req, nth) => (nth <= 4 ? json(statuses[nth - 1]!, { error: { code: 'X', message: 'x' } }) : ok(DEBT))));
      expect(await client(api, { maxRetries: 4 }).getDebt('a')).to.deep.equal(DEBT);
      expect(api.calls('GET', /^\/debts\//)).to.have.length(5);
    });

    it('does not retry a non-idempotent POST without an honoured key, on a network error or a 5xx', async () => {
      const api = fakeApi();
      api.on('POST', '/contacts', authenticated(api, networkError));
      api.on('POST', '/subscriptions', authenticated(api, () => failure(503, 'SERVICE_UNAVAILABLE')));
      const c = client(api);
      const error = await rejection(c.createContact({ externalClientId: 'ana', name: 'Ana', email: 'a@example.com' }));
      expect(error).to.be.instanceOf(CollectionsNetworkError);
      expect(error).to.include({ operationId: 'createContact', attempts: 1 });
      expect(api.calls('POST', '/contacts')).to.have.length(1);
      const unavailable = await rejection(
        c.createSubscription({ externalSubscriptionId: 's', externalClientId: 'ana', amount: 1, intervalUnit: 'month', intervalCount: 1, startDate: '2031-01-01', productName: 'Gym' }),
      );
      expect(unavailable).to.include({ status: 503, code: 'SERVICE_UNAVAILABLE' });
      expect(api.calls('POST', '/subscriptions')).to.have.length(1);
    });

    it('retries a create whose key the server honours, with the same Idempotency-Key each time (generated, or the caller\'s)', async () => {
      const api = fakeApi();
      api.on('POST', '/v2/debts', authenticated(api, (_req, nth) => (nth === 1 ? networkError() : nth === 2 ? failure(502, 'SERVICE_UNAVAILABLE') : ok(DEBT, 201))));
      const c = client(api);
      expect(await c.createDebt({ externalClientId: 'ana', amount: 10, dueDate: '2031-01-01' })).to.deep.equal(DEBT);
      const keys = api.calls('POST', '/v2/debts').map((r) => r.headers['idempotency-key']);
      expect(keys).to.have.length(3);
      expect(new Set(keys).size).to.equal(1);
      expect(keys[0]).to.match(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);

      await c.createDebt({ externalClientId: 'ana', amount: 10, dueDate: '2031-01-01' }, { idempotencyKey: 'order-42' });
      expect(api.calls('POST', '/v2/debts').slice(3).map((r) => r.headers['idempotency-key'])).to.deep.equal(['order-42']);
      // Another call, another generated key.
      await c.createDebt({ externalClientId: 'ana', amount: 10, dueDate: '2031-01-01' });
      expect(api.calls('POST', '/v2/debts')[4]!.headers['idempotency-key']).to.not.equal(keys[0]);
    });

    it('sends an Idempotency-Key on every create, and none on other operations', async () => {
      const api = fakeApi();
      api.on('POST', '/contacts', authenticated(api, () => ok({}, 201)));
      api.on('PATCH', '/contacts/con_1', authenticated(api, () => ok({})));
      const c = client(api);
      await c.createContact({ externalClientId: 'ana', name: 'Ana', email: 'a@example.com' });
      await c.updateContact('con_1', { name: 'Ana B' });
      expect(api.calls('POST', '/contacts')[0]!.headers['idempotency-key']).to.be.a('string');
      expect(api.calls('PATCH', '/contacts/con_1')[0]!.headers).to.not.have.property('idempotency-key');
    });

    it('a lost POST /payment-links answer: the retry meets 409 for the SDK\'s own key, and the SDK answers the link it created', async () => {
      const api = fakeApi();
      const link = { paymentLinkId: 'plk_1', status: 'ACTIVE' };
      let createdWith: string | undefined;
      api.on('POST', '/payment-links', authenticated(api, (req, nth) => {
        if (nth === 1) {
          createdWith = req.headers['idempotency-key'];
          return networkError(); // created, but the answer never arrived
        }
        return failure(409, 'RESOURCE_CONFLICT', 'externalPaymentLinkId already exists');
      }));
      api.on('GET', '/payment-links', authenticated(api, (req) =>
        json(200, { data: req.url.searchParams.get('externalPaymentLinkId') === createdWith ? [{ ...link, externalPaymentLinkId: createdWith }] : [], meta: { page: 1, limit: 1, total: 1, hasMore: false }, requestId: 'r' }),
      ));
      const c = client(api);
      const answer = await c.createPaymentLink({ amount: 10, description: 'Order', expiresAt: '2031-01-01T00:00:00Z' });
      expect(answer).to.deep.equal({ ...link, externalPaymentLinkId: createdWith });

      // A 409 on the first attempt is a real conflict, and so is one for the caller's own key.
      const conflict = await rejection(c.createPaymentLink({ amount: 10, description: 'Order', expiresAt: '2031-01-01T00:00:00Z' }));
      expect(conflict).to.include({ status: 409, code: 'RESOURCE_CONFLICT' });
    });

    it('times out an attempt (CollectionsTimeoutError), retrying it when the operation is idempotent', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, (_req, nth) => (nth === 1 ? new Promise(() => undefined) : ok(DEBT))));
      api.on('POST', /^\/debts\/a\/cancel$/, authenticated(api, () => new Promise(() => undefined)));
      const c = client(api, { timeoutMs: 50 });
      expect(await c.getDebt('a')).to.deep.equal(DEBT);
      // A second cancel would answer 422 where the first may have succeeded: not retried.
      const error = await rejection(c.cancelDebt('a'));
      expect(error).to.be.instanceOf(CollectionsTimeoutError).and.instanceOf(CollectionsNetworkError);
      expect(error).to.include({ timeoutMs: 50, attempts: 1 });
    });

    it('stops at once when the caller aborts, retries and backoff included', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, () => failure(503, 'SERVICE_UNAVAILABLE', 'down', {}, { 'Retry-After': '30' })));
      const controller = new AbortController();
      setTimeout(() => controller.abort(new Error('caller gave up')), 50);
      const started = Date.now();
      const error = await rejection(client(api).getDebt('a', { signal: controller.signal }));
      expect(error.message).to.equal('caller gave up');
      expect(Date.now() - started).to.be.below(2000);
    });
  });

  describe('iterators', () => {
    it('walks every page while meta.hasMore, keeping the filters, from the page asked', async () => {
      const api = fakeApi();
      const total = 7;
      api.on('GET', '/debts', authenticated(api, (req) => {
        const page = Number(req.url.searchParams.get('page'));
        const limit = Number(req.url.searchParams.get('limit'));
        const ids = Array.from({ length: total }, (_, i) => `debt_${i}`).slice((page - 1) * limit, page * limit);
        return json(200, { data: ids.map((debtId) => ({ debtId })), meta: { page, limit, total, hasMore: page * limit < total }, requestId: 'r' });
      }));
      const c = client(api);
      const seen: string[] = [];
      for await (const debt of c.debts.list({ status: 'OVERDUE', limit: 3 })) seen.push(debt.debtId!);
      expect(seen).to.deep.equal(Array.from({ length: total }, (_, i) => `debt_${i}`));
      expect(api.calls('GET', '/debts').map((r) => Object.fromEntries(r.url.searchParams))).to.deep.equal([
        { status: 'OVERDUE', limit: '3', page: '1' },
        { status: 'OVERDUE', limit: '3', page: '2' },
        { status: 'OVERDUE', limit: '3', page: '3' },
      ]);
      const pages = [];
      for await (const page of c.debts.pages({ limit: 3, page: 2 })) pages.push(page.meta.page);
      expect(pages).to.deep.equal([2, 3]);
    });

    it('lists under a parent take its id first (subscriptionDebts, paymentLinkPayments)', async () => {
      const api = fakeApi();
      api.on('GET', '/subscriptions/sub_1/debts', authenticated(api, () => json(200, { data: [{ debtId: 'debt_c0' }], meta: { page: 1, limit: 50, total: 1, hasMore: false }, requestId: 'r' })));
      const ids = [];
      for await (const debt of client(api).subscriptionDebts.list('sub_1')) ids.push(debt.debtId);
      expect(ids).to.deep.equal(['debt_c0']);
    });
  });

  describe('special answers', () => {
    const batch = { debts: [{ externalRequestId: 'a', externalClientId: 'ana', amount: 1, dueDate: '2031-01-01' }, { externalRequestId: 'b', externalClientId: 'nobody', amount: 1, dueDate: '2031-01-01' }] };

    for (const [status, data, errors] of [
      [201, [DEBT, DEBT], undefined],
      [207, [DEBT], [{ index: 1, externalRequestId: 'b', code: 'BUSINESS_RULE_VIOLATION', message: 'unknown contact' }]],
      [422, [], [{ index: 0, externalRequestId: 'a', code: 'BUSINESS_RULE_VIOLATION', message: 'x' }, { index: 1, externalRequestId: 'b', code: 'BUSINESS_RULE_VIOLATION', message: 'y' }]],
    ] as const) {
      it(`a batch answered ${status} is returned whole ({ status, data, errors, batchId, requestId }), never thrown`, async () => {
        const api = fakeApi();
        api.on('POST', '/v2/debts', authenticated(api, () => json(status, { data, ...(errors ? { errors } : {}), batchId: 'bat_1', requestId: 'req_b' })));
        const result = await client(api).createDebt(batch);
        expect(result).to.deep.equal({ status, data, errors: errors ?? [], batchId: 'bat_1', requestId: 'req_b' });
      });
    }

    it('a batch refused as a whole (400) throws with the items\' details', async () => {
      const api = fakeApi();
      const details = [{ index: 1, externalRequestId: 'b', field: 'amount', issue: 'must be >= 0.01' }];
      api.on('POST', '/v2/debts', authenticated(api, () => failure(400, 'INVALID_REQUEST', 'invalid', { details })));
      const error = await rejection(client(api).createDebt(batch));
      expect(error).to.include({ status: 400, code: 'INVALID_REQUEST', requestId: 'req_err' });
      expect(error.details).to.deep.equal(details);
    });

    it('a single debt answered 422 throws (batch answers are only for batches)', async () => {
      const api = fakeApi();
      api.on('POST', '/v2/debts', authenticated(api, () => failure(422, 'BUSINESS_RULE_VIOLATION', 'unknown contact')));
      const error = await rejection(client(api).createDebt({ externalClientId: 'nobody', amount: 1, dueDate: '2031-01-01' }));
      expect(error).to.include({ status: 422, code: 'BUSINESS_RULE_VIOLATION' });
    });

    it('PATCH /subscriptions/{id} answered 207 PARTIAL_UPDATE throws CollectionsPartialUpdateError carrying the updated subscription', async () => {
      const api = fakeApi();
      const updated = { subscriptionId: 'sub_1', amount: 50 };
      api.on('PATCH', '/subscriptions/sub_1', authenticated(api, () => json(207, { data: updated, error: { code: 'PARTIAL_UPDATE', message: '1 debt not updated' }, requestId: 'req_pu' })));
      const error = await rejection(client(api).updateSubscription('sub_1', { amount: 50 }));
      expect(error).to.be.instanceOf(CollectionsPartialUpdateError).and.instanceOf(CollectionsApiError);
      expect(error).to.include({ status: 207, code: 'PARTIAL_UPDATE', message: 'updateSubscription: 207 PARTIAL_UPDATE: 1 debt not updated', requestId: 'req_pu' });
      expect(error.data).to.deep.equal(updated);
    });
  });

  describe('errors', () => {
    it('maps the envelope: status, code, message, details, requestId, the operation and the headers', async () => {
      const api = fakeApi();
      const details = [{ field: 'email', issue: 'must be an email' }];
      api.on('POST', '/contacts', authenticated(api, () => failure(400, 'INVALID_REQUEST', 'Invalid request', { details }, { 'X-Request-Id': 'req_err' })));
      const error = await rejection(client(api).createContact({ externalClientId: 'ana', name: 'Ana', email: 'nope' }));
      expect(error).to.be.instanceOf(CollectionsApiError);
      expect(error).to.include({ status: 400, code: 'INVALID_REQUEST', requestId: 'req_err', operationId: 'createContact', retryAfter: null, name: 'CollectionsApiError' });
      expect(error.details).to.deep.equal(details);
      expect(error.headers.get('x-request-id')).to.equal('req_err');
      expect(isErrorCode(error.code)).to.equal(true);
    });

    it('an answer that is not the envelope (a proxy page) gets the code of its status', async () => {
      const api = fakeApi();
      api.on('POST', '/contacts', authenticated(api, () => ({ status: 502, raw: '<html>Bad gateway</html>' })));
      api.on('GET', '/contacts/con_x', authenticated(api, () => ({ status: 404, raw: '' })));
      const c = client(api);
      expect(await rejection(c.createContact({ externalClientId: 'a', name: 'A', email: 'a@example.com' }))).to.include({ status: 502, code: 'SERVICE_UNAVAILABLE', requestId: null });
      expect(await rejection(c.getContact('con_x'))).to.include({ status: 404, code: 'RESOURCE_NOT_FOUND' });
    });

    it('the error codes are a union from the spec', () => {
      for (const code of ['INVALID_REQUEST', 'AUTHENTICATION_FAILED', 'RESOURCE_NOT_FOUND', 'RESOURCE_CONFLICT', 'PAYLOAD_TOO_LARGE', 'BUSINESS_RULE_VIOLATION', 'RESOLUTION_ERROR', 'RATE_LIMITED', 'PARTIAL_UPDATE', 'INTERNAL_ERROR', 'SERVICE_UNAVAILABLE']) {
        expect(isErrorCode(code), code).to.equal(true);
      }
      expect(isErrorCode('NOPE')).to.equal(false);
    });

    it('onResponse hears every attempt', async () => {
      const api = fakeApi();
      api.on('GET', /^\/debts\//, authenticated(api, (_req, nth) => (nth === 1 ? failure(503, 'SERVICE_UNAVAILABLE') : ok(DEBT))));
      const heard: [string, number, number][] = [];
      await client(api, { onResponse: (info) => heard.push([info.operationId, info.status, info.attempt]) }).getDebt('a');
      expect(heard).to.deep.equal([['login', 200, 1], ['getDebt', 503, 1], ['getDebt', 200, 2]]);
    });
  });
});

/** Compile-time checks: the methods are typed from the generated document (npm run typecheck runs them). */
export async function typeChecks(c: CollectionsClient): Promise<void> {
  const debt = await c.createDebt({ externalClientId: 'a', amount: 1, dueDate: '2031-01-01' });
  const status: string | undefined = debt.status;
  const batch = await c.createDebt({ debts: [{ externalRequestId: 'x', externalClientId: 'a', amount: 1, dueDate: '2031-01-01' }] });
  const batchId: string = batch.batchId;
  const page = await c.listDebts({ status: 'OVERDUE' });
  const hasMore: boolean = page.meta.hasMore;
  // @ts-expect-error an unknown status
  await c.listDebts({ status: 'NOPE' });
  // @ts-expect-error getDebt needs its id
  await c.getDebt();
  // @ts-expect-error createContact needs its body
  await c.createContact();
  // @ts-expect-error a field the body does not have
  await c.updateDebt('debt_1', { colour: 'red' });
  for await (const event of c.events.list({ type: 'debt.paid' })) void event.type;
  void [status, batchId, hasMore];
}
