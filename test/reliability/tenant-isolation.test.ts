/**
 * Tenant isolation, on SQLite and MySQL, generated from the route definitions (apiRoutes()):
 * - every route that takes an id, called by another organization with each form of the owner's
 *   ids, is 404 RESOURCE_NOT_FOUND without data, and changes nothing of the owner's;
 * - every list, read by another organization, shows none of the owner's resources, and bodies
 *   that reference the owner's resources by their natural keys reach nothing of theirs;
 * - every facade route refuses (401 AUTHENTICATION_FAILED) an access token of one organization
 *   with another's API key, and tampered, expired, foreign-secret and `alg: none` tokens.
 * A route with an id this suite has no ids for fails the suite: add its resource below.
 */
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import type { Response } from 'supertest';
import type { Route } from '../../adapters/http/route';
import { apiRoutes } from '../../adapters/http/server';
import { validateBody } from '../../adapters/http/validation';
import { describeEachDatabase, JWT_TEST_SECRET, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { envelopeProblem, errorProblem, send } from './support/http';
import { Tally } from './support/summary';

/** A body each id-taking route accepts (so only the lookup can refuse it). */
const VALID_BODIES: Record<string, Record<string, unknown>> = {
  'PATCH /debts/:id': { amount: 1.5 },
  'PATCH /payment-links/:id': { description: 'Stranger was here' },
  'PATCH /subscriptions/:id': { amount: 1.5 },
  'PATCH /contacts/:id': { name: 'Stranger' },
  'PATCH /products/:id': { name: 'Stranger product' },
  'POST /test-helpers/debts/:id/pay': { amount: 1 },
  'POST /test-helpers/payment-links/:id/pay': {},
  'PATCH /webhook-endpoints/:id': { description: 'Stranger hook' },
  'POST /events/:id/redeliver': {},
  'POST /debts/:id/payment-instructions': { method: 'CASH' },
  'POST /unapplied-payments/:id/apply': { debtId: 'debt_stranger' },
  'POST /test-helpers/payment-instructions/:id/receive': { amount: 1 },
  'PUT /contacts/:id/communication-preferences': { email: false, sms: false, whatsapp: false },
};

describeEachDatabase('tenant isolation', ({ api }) => {
  let owner: Tenant;
  let stranger: Tenant;
  /** Every form of the owner's ids, by the first segment of the paths that take them. */
  const ids: Record<string, string[]> = {};
  /** GET paths of the owner's resources, with their answers before the stranger's attempts. */
  const ownerAnswers: Record<string, unknown> = {};
  /** Strings that only the owner's resources carry: none may appear in an answer to the stranger. */
  const secrets = ['owner-contact', 'owner-product', 'owner-debt', 'owner-link', 'owner-sub', 'Owner Secret Name', 'owner-hook'];
  const routes = (): Route[] => {
    const { app, infra } = api();
    return apiRoutes({ app, testHelpers: true, readinessChecks: infra.readinessChecks, paymentPortal: infra.paymentPortal });
  };
  const call = (route: Route, path: string, headers: Record<string, string>, body?: object) => {
    const req = api().http[route.method](path).set(headers);
    return send(() => (body && route.method !== 'get' ? req.send(body) : req));
  };
  const bodyFor = (route: Route): Record<string, unknown> | undefined => {
    const body = VALID_BODIES[`${route.method.toUpperCase()} ${route.path}`];
    // The table must stay valid under the route's own schema, or a 400 would hide the lookup.
    if (body && route.body) validateBody(route.body, structuredClone(body));
    return body;
  };

  before(async function () {
    this.timeout(60_000);
    owner = await api().newTenant({ settings: { directDebitEnabled: true, directDebitModality: true } });
    stranger = await api().newTenant({ settings: { directDebitEnabled: true, directDebitModality: true } });
    const post = async (path: string, body: object, key?: string) => {
      const req = api().http.post(path).set(owner.headers);
      return expectOk(await (key ? req.set('Idempotency-Key', key) : req).send(body), 201);
    };
    const contact = await post('/contacts', { externalClientId: 'owner-contact', name: 'Owner Secret Name', email: 'owner@example.com' });
    const product = await post('/products', { name: 'owner-product', externalProductId: 'owner-product-ext' });
    await post('/test-helpers/payment-methods', { externalClientId: 'owner-contact', paymentMethodType: 'BANK_ACCOUNT' });
    await post('/adhesions', { externalClientId: 'owner-contact', productId: product.productId });
    const debt = await post('/v2/debts', { externalClientId: 'owner-contact', amount: 10, dueDate: '2031-01-01', productId: product.productId }, 'owner-debt');
    const link = await post('/payment-links', { externalPaymentLinkId: 'owner-link', amount: 20, description: 'Owner link', expiresAt: '2031-01-01T00:00:00Z' });
    const subscription = await post('/subscriptions', {
      externalSubscriptionId: 'owner-sub', externalClientId: 'owner-contact', amount: 5, intervalUnit: 'month', intervalCount: 1,
      startDate: '2031-01-01', totalCycles: 3, productName: 'owner-product',
    });
    const hook = await post('/webhook-endpoints', { url: 'http://127.0.0.1:9/owner-hook', enabledEvents: ['*'], description: 'owner-hook' });
    // Cash and transfer: an instruction of the owner, and money it kept unapplied (paid 15 of 10).
    const cash = await post('/v2/debts', { externalClientId: 'owner-contact', amount: 10, dueDate: '2031-01-01' }, 'owner-cash');
    const instruction = await post(`/debts/${cash.debtId}/payment-instructions`, { method: 'TRANSFER' });
    expectOk(await api().http.post(`/test-helpers/payment-instructions/${instruction.paymentInstructionId}/receive`).set(owner.headers).send({ amount: 15 }), 202);
    const unapplied = expectOk<{ unappliedPaymentId: string }[]>(await api().http.get('/unapplied-payments').set(owner.headers))[0]!;
    secrets.push(instruction.transfer.accountNumber, instruction.reference);
    await api().drainJobs();
    const event = expectOk<{ eventId: string }[]>(await api().http.get('/events').query({ limit: 1 }).set(owner.headers))[0]!;
    const bare = (id: string) => id.slice(id.indexOf('_') + 1);
    Object.assign(ids, {
      debts: [debt.debtId, bare(debt.debtId), link.debtId, 'debt_owner-sub-cycle-0', 'owner-sub-cycle-1'],
      'payment-links': [link.paymentLinkId, bare(link.paymentLinkId)],
      subscriptions: [subscription.subscriptionId, bare(subscription.subscriptionId)],
      contacts: [contact.contactId, bare(contact.contactId)],
      products: [product.productId, bare(product.productId)],
      'webhook-endpoints': [hook.webhookEndpointId],
      events: [event.eventId],
      'payment-instructions': [instruction.paymentInstructionId, bare(instruction.paymentInstructionId)],
      'unapplied-payments': [unapplied.unappliedPaymentId, bare(unapplied.unappliedPaymentId)],
    });
    for (const [resource, forms] of Object.entries(ids)) {
      for (const id of forms) {
        const path = `/${resource}/${encodeURIComponent(id)}`;
        ownerAnswers[path] = expectOk(await api().http.get(path).set(owner.headers)); // the ids are real
      }
    }
  });

  it("answers 404 without data to every id-taking route called with another organization's ids, and changes nothing", async function () {
    this.timeout(120_000);
    const tally = new Tally(`tenant isolation [${api().kind}] foreign ids`);
    for (const route of routes().filter((r) => r.path.includes(':id'))) {
      const resource = route.path.split('/').filter((p) => p && p !== 'test-helpers')[0]!;
      if (!ids[resource]) {
        tally.fail(`${route.method.toUpperCase()} ${route.path}: no ids of /${resource} in this suite; add the resource`);
        continue;
      }
      for (const id of ids[resource]) {
        const path = route.path.replace(':id', encodeURIComponent(id));
        const res = await call(route, path, stranger.headers, bodyFor(route));
        tally.record(
          errorProblem(res, 404, 'RESOURCE_NOT_FOUND') ??
            ('data' in res.body ? `${route.method.toUpperCase()} ${path}: answered data` : null) ??
            leaked(res, `${route.method.toUpperCase()} ${path}`, `${decodeURIComponent(path)} ${JSON.stringify(bodyFor(route) ?? {})}`),
        );
      }
    }
    // Nothing the stranger tried (PATCH, cancel, pause, pay, DELETE) reached the owner's resources.
    for (const [path, answer] of Object.entries(ownerAnswers)) {
      const now = expectOk(await api().http.get(path).set(owner.headers));
      if (JSON.stringify(now) !== JSON.stringify(answer)) tally.fail(`${path} changed: ${JSON.stringify(answer)} → ${JSON.stringify(now)}`);
    }
    tally.report();
  });

  it("shows another organization none of the owner's resources in any list, filtered by the owner's keys or not", async function () {
    this.timeout(120_000);
    const tally = new Tally(`tenant isolation [${api().kind}] lists and references`);
    const lists = routes().filter((r) => r.method === 'get' && !r.path.includes(':') && r.auth === 'facade');
    const filters = ['', '?externalClientId=owner-contact', '?name=owner-product', '?externalPaymentLinkId=owner-link', '?name=Owner'];
    for (const route of lists) {
      for (const query of route.path === '/payment-methods' ? ['?externalClientId=owner-contact'] : filters) {
        const res = await call(route, route.path + query, stranger.headers);
        tally.record(envelopeProblem(res) ?? leaked(res, `GET ${route.path}${query}`, query) ?? (res.status === 200 && res.body.data.length > 0 ? `GET ${route.path}${query} listed ${res.body.data.length}` : null));
      }
    }
    // Natural keys and ids of the owner's resources in the stranger's bodies reach nothing of theirs.
    const http = () => api().http;
    // Error messages may repeat the key the stranger sent; no other owner's value may appear.
    const owned = (status: number, code: string) => (res: Response) => errorProblem(res, status, code) ?? leaked(res, code, 'owner-contact owner-product-ext');
    const references: [string, () => Promise<Response>, (res: Response) => string | null][] = [
      ['v2 debt with the owner productId', () => send(() => http().post('/v2/debts').set(stranger.headers).send({ contactData: { externalClientId: 'x1', name: 'X', email: 'x@example.com' }, amount: 1, dueDate: '2031-01-01', productId: ids.products![0] })), owned(404, 'RESOURCE_NOT_FOUND')],
      ['v2 debt with the owner externalProductId', () => send(() => http().post('/v2/debts').set(stranger.headers).send({ contactData: { externalClientId: 'x2', name: 'X', email: 'x@example.com' }, amount: 1, dueDate: '2031-01-01', externalProductId: 'owner-product-ext' })), owned(404, 'RESOURCE_NOT_FOUND')],
      ['v2 debt for the owner contact', () => send(() => http().post('/v2/debts').set(stranger.headers).send({ externalClientId: 'owner-contact', amount: 1, dueDate: '2031-01-01' })), owned(422, 'BUSINESS_RULE_VIOLATION')],
      ['payment link for the owner contact', () => send(() => http().post('/payment-links').set(stranger.headers).send({ externalClientId: 'owner-contact', amount: 1, description: 'x', expiresAt: '2031-01-01T00:00:00Z' })), owned(422, 'BUSINESS_RULE_VIOLATION')],
      ['subscription for the owner contact', () => send(() => http().post('/subscriptions').set(stranger.headers).send({ externalSubscriptionId: 'x-sub', externalClientId: 'owner-contact', amount: 1, intervalUnit: 'month', intervalCount: 1, startDate: '2031-01-01', productName: 'x' })), owned(422, 'BUSINESS_RULE_VIOLATION')],
      ['adhesion to the owner product', () => send(() => http().post('/adhesions').set(stranger.headers).send({ externalClientId: 'owner-contact', productId: ids.products![0] })), owned(404, 'RESOURCE_NOT_FOUND')],
      ['adhesion cancel of the owner adhesion', () => send(() => http().post('/adhesions/cancel').set(stranger.headers).send({ externalClientId: 'owner-contact', externalProductId: 'owner-product-ext' })), owned(404, 'RESOURCE_NOT_FOUND')],
      // The owner's natural keys are free in another organization: taking them creates the stranger's own.
      ['the owner externalPaymentLinkId', () => send(() => http().post('/payment-links').set(stranger.headers).send({ externalPaymentLinkId: 'owner-link', amount: 1, description: 'x', expiresAt: '2031-01-01T00:00:00Z' })), (res) => envelopeProblem(res) ?? (res.status !== 201 ? `expected 201, got ${res.status}` : null)],
      ['the owner Idempotency-Key', () => send(() => http().post('/v2/debts').set(stranger.headers).set('Idempotency-Key', 'owner-debt').send({ contactData: { externalClientId: 'x3', name: 'X', email: 'x@example.com' }, amount: 3, dueDate: '2031-01-01' })), (res) => envelopeProblem(res) ?? (res.status !== 201 || res.headers['idempotent-replayed'] || res.body.data.amount !== 3 || res.body.data.contact.externalClientId !== 'x3' ? `expected the stranger's new debt, got ${res.status} ${JSON.stringify(res.body).slice(0, 300)}` : null)],
    ];
    for (const [label, request, check] of references) {
      const problem = check(await request());
      tally.record(problem ? `${label}: ${problem}` : null);
    }
    tally.report();
  });

  it('refuses every facade route with 401 for a token of one organization with another API key, and tampered, expired, foreign and alg:none tokens', async function () {
    this.timeout(120_000);
    const tally = new Tally(`tenant isolation [${api().kind}] bad credentials`);
    const claims = jwt.decode(owner.accessToken) as { sub: string; org: number; iss: string };
    const [head, payload, signature] = owner.accessToken.split('.') as [string, string, string];
    const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
    const now = Math.floor(Date.now() / 1000);
    const badCredentials: Record<string, Record<string, string>> = {
      "the owner's token with the stranger's API key": { 'x-api-key': stranger.apiKey, 'x-authorization-token': owner.accessToken },
      "the stranger's token with the owner's API key": { 'x-api-key': owner.apiKey, 'x-authorization-token': stranger.accessToken },
      'a tampered signature': { ...owner.headers, 'x-authorization-token': `${head}.${payload}.${signature.slice(0, -2)}${signature.endsWith('AA') ? 'BB' : 'AA'}` },
      "a payload moved to the stranger's organization, not signed again": { ...stranger.headers, 'x-authorization-token': `${head}.${b64({ ...claims, org: stranger.organizationId })}.${signature}` },
      'an expired token': { ...owner.headers, 'x-authorization-token': jwt.sign({ org: claims.org, iat: now - 20_000, exp: now - 60 }, JWT_TEST_SECRET, { algorithm: 'HS256', issuer: claims.iss, subject: claims.sub }) },
      'a token signed with another secret': { ...owner.headers, 'x-authorization-token': jwt.sign({ org: claims.org }, 'another-secret-that-is-long-enough-0123456789', { algorithm: 'HS256', issuer: claims.iss, subject: claims.sub, expiresIn: 3600 }) },
      'alg: none': { ...owner.headers, 'x-authorization-token': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.` },
      'alg: none, signature kept': { ...owner.headers, 'x-authorization-token': `${b64({ alg: 'none', typ: 'JWT' })}.${payload}.${signature}` },
      'another issuer': { ...owner.headers, 'x-authorization-token': jwt.sign({ org: claims.org }, JWT_TEST_SECRET, { algorithm: 'HS256', issuer: 'someone-else', subject: claims.sub, expiresIn: 3600 }) },
      'a Bearer prefix': { ...owner.headers, 'x-authorization-token': `Bearer ${owner.accessToken}` },
      'the login API key': { ...owner.headers, 'x-api-key': owner.loginApiKey },
      'no token': { 'x-api-key': owner.apiKey },
      'no API key': { 'x-authorization-token': owner.accessToken },
    };
    const facade = routes().filter((r) => r.auth === 'facade');
    for (const [label, headers] of Object.entries(badCredentials)) {
      for (const route of facade) {
        const path = route.path.replace(':id', encodeURIComponent(ids[route.path.split('/').filter((p) => p && p !== 'test-helpers')[0]!]?.[0] ?? 'x'));
        const res = await call(route, path, headers, bodyFor(route) ?? {});
        const problem = errorProblem(res, 401, 'AUTHENTICATION_FAILED') ?? leaked(res, path, decodeURIComponent(path));
        tally.record(problem ? `${label}: ${route.method.toUpperCase()} ${path}: ${problem}` : null);
      }
    }
    // The owner's own credentials still work: the refusals above are about the credentials.
    expectOk(await api().http.get('/debts').set(owner.headers));
    tally.report();
    expect(tally.tried).to.equal(Object.keys(badCredentials).length * facade.length);
  });

  /**
   * The problem when an answer to the stranger carries something only the owner's resources
   * have (`sent`: what the stranger's request itself said, which an error message may repeat).
   */
  function leaked(res: Response, what: string, sent = what): string | null {
    const text = JSON.stringify(res.body);
    const found = secrets.filter((s) => text.includes(s) && !sent.includes(s));
    return found.length ? `${what}: answer carries ${found.join(', ')}` : null;
  }
});
