/**
 * Property-based fuzzing (fast-check) of every endpoint, generated from the route definitions
 * (apiRoutes(): method, path, ajv body and query schemas) on SQLite and on MySQL: path
 * parameters, query strings, bodies and headers, schema-aware (so requests reach the use cases,
 * with existing ids and keys mixed in) and hostile (wrong types, huge numbers, deep nesting,
 * unicode, SQL fragments, prototype-pollution keys, broken JSON). The property: no 5xx, every
 * 4xx in the error envelope, every answer with its req_ requestId, every date in a 2xx answer in
 * its wire shape (UTC milliseconds, YYYY-MM-DD), every 2xx and 401 with Cache-Control: no-store, and
 * Object.prototype untouched. A second property sends the names of Object.prototype's members as
 * every path segment of every API and hosted-page route.
 *
 * RELIABILITY_FUZZ_RUNS (default 200) requests per route and database; RELIABILITY_SEED replays a run;
 * RELIABILITY_VERBOSE=1 prints the statuses seen per route.
 */
import { expect } from 'chai';
import fc from 'fast-check';
import { apiRoutes } from '../../adapters/http/server';
import { hostedPages } from '../../adapters/http/pages/hosted-pages';
import { InProcessTokenBucket } from '../../adapters/rate-limit/in-process-token-bucket';
import pino from 'pino';
import type { Route } from '../../adapters/http/route';
import { SandboxPaymentInstructionProvider } from '../../adapters/gateways/sandbox-payment-instruction-provider';
import { describeEachDatabase, JWT_TEST_SECRET, randomAddress, type Tenant } from '../support/harness';
import { expectOk } from '../support/http-expect';
import { POLLUTION_KEY } from './support/hostile';
import { shaped } from './support/schema-arbitrary';
import { describeRequest, type FuzzContext, type FuzzRequest, perform, requestOf, unknownRequest } from './support/fuzz-requests';
import { dateShapeProblem, envelopeProblem } from './support/http';
import { Tally } from './support/summary';

const RUNS = Number(process.env.RELIABILITY_FUZZ_RUNS ?? 200);
const SEED = process.env.RELIABILITY_SEED ? Number(process.env.RELIABILITY_SEED) : Math.floor(Math.random() * 2 ** 31);

describeEachDatabase('fuzzing every endpoint from its route definition', ({ api }) => {
  let tenant: Tenant;
  let context: FuzzContext;

  before(async function () {
    this.timeout(60_000);
    tenant = await api().newTenant({ settings: { directDebitEnabled: true, directDebitModality: true, privateLinks: true } });
    const http = api().http;
    const post = async (path: string, body: unknown, key?: string) => {
      const req = http.post(path).set(tenant.headers);
      return expectOk(await (key ? req.set('Idempotency-Key', key) : req).send(body as object), 201);
    };
    const contact = await post('/contacts', { externalClientId: 'fuzz-contact', name: 'Fuzz Contact', email: 'fuzz@example.com' });
    const product = await post('/products', { name: 'Fuzz product', externalProductId: 'fuzz-ext-product' });
    await post('/test-helpers/payment-methods', { externalClientId: 'fuzz-contact', paymentMethodType: 'BANK_ACCOUNT' });
    const debt = await post('/v2/debts', { externalClientId: 'fuzz-contact', amount: 10, dueDate: '2031-01-01', productId: product.productId }, 'fuzz-debt');
    const link = await post('/payment-links', { externalPaymentLinkId: 'fuzz-link', amount: 10, description: 'Fuzz link', expiresAt: new Date(Date.now() + 86_400_000 * 30).toISOString() });
    const subscription = await post('/subscriptions', {
      externalSubscriptionId: 'fuzz-sub', externalClientId: 'fuzz-contact', amount: 5, intervalUnit: 'month', intervalCount: 1,
      startDate: '2031-01-01', totalCycles: 3, productName: 'Fuzz product',
    });
    await api().drainJobs();
    // Cash and transfer: an instruction, and money kept unapplied (paid 15 of 10).
    const cash = await post('/v2/debts', { externalClientId: 'fuzz-contact', amount: 10, dueDate: '2031-01-01' }, 'fuzz-cash');
    const instruction = await post(`/debts/${cash.debtId}/payment-instructions`, { method: 'TRANSFER' });
    expectOk(await http.post(`/test-helpers/payment-instructions/${instruction.paymentInstructionId}/receive`).set(tenant.headers).send({ amount: 15 }), 202);
    const unapplied = expectOk<{ unappliedPaymentId: string }[]>(await http.get('/unapplied-payments').set(tenant.headers))[0]!;
    const bare = (id: string) => id.slice(id.indexOf('_') + 1);
    const today = new Date().toISOString().slice(0, 10);
    /** A new natural key each time. */
    const fresh = fc.stringMatching(/^fz-[a-z0-9]{10}$/);
    context = {
      headers: tenant.headers,
      loginHeaders: { 'x-api-key': tenant.loginApiKey },
      ids: {
        '/debts': [debt.debtId, 'fuzz-debt', link.debtId, 'debt_fuzz-sub-cycle-1', 'fuzz-sub-cycle-2'],
        '/payment-links': [link.paymentLinkId, bare(link.paymentLinkId)],
        '/subscriptions': [subscription.subscriptionId, bare(subscription.subscriptionId)],
        '/contacts': [contact.contactId, bare(contact.contactId)],
        '/products': [product.productId, bare(product.productId)],
        '/payment-instructions': [instruction.paymentInstructionId, bare(instruction.paymentInstructionId)],
        '/unapplied-payments': [unapplied.unappliedPaymentId, bare(unapplied.unappliedPaymentId)],
        '/provider-notifications': ['sandbox'],
      },
      known: {
        externalClientId: ['fuzz-contact'],
        productId: [product.productId],
        externalProductId: ['fuzz-ext-product'],
        productName: ['Fuzz product'],
        externalRequestId: ['fuzz-debt'],
        externalPaymentLinkId: ['fuzz-link'],
        externalSubscriptionId: ['fuzz-sub'],
        companyCode: [tenant.companyCodes[0]],
        clientUsername: [tenant.clientUsername],
        password: [tenant.password],
        refreshToken: [tenant.refreshToken],
        createdAtFrom: ['2020-01-01', today, new Date().toISOString()],
        createdAtTo: [today, '2999-12-31'],
      },
      examples: {
        'POST /v2/debts': shaped(
          { externalClientId: 'fuzz-contact', amount: 10, dueDate: '2031-01-01' },
          { externalClientId: 'fuzz-contact', amount: 10.5, dueDate: '2031-01-01', productId: product.productId },
          { debts: fc.array(shaped({ externalRequestId: fresh, contactData: shaped({ externalClientId: fresh, name: 'Batch', email: 'b@example.com' }), amount: 3, dueDate: '2031-02-01', externalProductId: 'fuzz-ext-product' }), { minLength: 1, maxLength: 5 }) },
        ),
        'POST /debts': shaped({ externalClientId: 'fuzz-contact', amount: 10, dueDate: '2031-01-01', productName: fresh, autopay: true }),
        'POST /payment-links': shaped({ amount: 10, description: 'Fuzz link', expiresAt: new Date(Date.now() + 86_400_000).toISOString(), productName: fresh, externalPaymentLinkId: fresh }),
        'POST /subscriptions': shaped(
          { externalSubscriptionId: fresh, externalClientId: 'fuzz-contact', amount: 5, intervalUnit: 'week', intervalCount: 2, startDate: '2031-01-31', totalCycles: 4, productName: 'Fuzz product', autopay: true },
          { externalSubscriptionId: fresh, contactData: shaped({ externalClientId: fresh, name: 'Sub', email: 's@example.com' }), amount: 5, intervalUnit: 'month', intervalCount: 1, startDate: '2031-01-31', endDate: '2031-12-31', productName: fresh },
        ),
        'POST /contacts': shaped({ externalClientId: fresh, name: 'New', email: 'new@example.com', phones: [{ number: '+52 1', type: 'MOBILE' }] }),
        'POST /products': shaped({ name: fresh, externalProductId: fresh }),
        'POST /adhesions': shaped({ externalClientId: 'fuzz-contact', productId: product.productId }),
        'POST /adhesions/cancel': shaped({ externalClientId: 'fuzz-contact', externalProductId: 'fuzz-ext-product' }),
        'POST /test-helpers/payment-methods': shaped({ externalClientId: fresh, paymentMethodType: 'BANK_ACCOUNT', isDefault: true }),
        'POST /auth/login': shaped({ clientUsername: tenant.clientUsername, password: tenant.password }),
        'POST /debts/:id/payment-instructions': shaped({ method: 'CASH' }, { method: 'TRANSFER', amount: 1 }),
        'POST /unapplied-payments/:id/apply': shaped({ debtId: 'fuzz-debt' }),
        'POST /provider-notifications/:provider': shaped({ id: fresh, type: 'payment.received', instruction: instruction.transfer.accountNumber, amount: 1, currency: 'MXN', receivedAt: new Date().toISOString() }),
      },
    };
  });

  /**
   * Notifications as the sandbox provider signs them (whatever their body), so the fuzzer reaches
   * what comes after the signature: reading the body, recording it, the payment rules.
   */
  function signedNotifications(routes: Route[]): fc.Arbitrary<FuzzRequest> {
    const provider = SandboxPaymentInstructionProvider.derivedFrom(JWT_TEST_SECRET);
    const route = routes.find((r) => r.path === '/provider-notifications/:provider')!;
    return requestOf(route, context).map((request) => {
      const body = !request.body ? '' : 'json' in request.body ? (JSON.stringify(request.body.json) ?? '') : String(request.body.raw);
      return { ...request, path: '/provider-notifications/sandbox', headers: { ...request.headers, ...provider.sandbox.sign(body, new Date()) } };
    });
  }

  it(`answers every generated request (${RUNS} per route, seed ${SEED}) without a 5xx, every error in the envelope`, async function () {
    this.timeout(300_000);
    const harness = api();
    const routes: Route[] = apiRoutes({ app: harness.app, testHelpers: true, readinessChecks: harness.infra.readinessChecks, paymentPortal: harness.infra.paymentPortal });
    // The documents the router serves beside the routes: the OpenAPI document, the reference page and its two scripts.
    const documents = ['/openapi.json', '/docs', '/docs/reference.js', '/docs/scalar.js'].map((path) => ({ method: 'get', path }) as Route);
    const tally = new Tally(`fuzz [${harness.kind}] ${routes.length + documents.length} routes + unknown paths`);
    const targets: [string, fc.Arbitrary<FuzzRequest>][] = [
      ...[...routes, ...documents].map((r) => [`${r.method.toUpperCase()} ${r.path}`, requestOf(r, context)] as [string, fc.Arbitrary<FuzzRequest>]),
      ['unknown paths and methods', unknownRequest(context)],
      ['POST /provider-notifications/sandbox, signed by the sandbox provider', signedNotifications(routes)],
    ];
    const statuses = new Map<string, Map<number, number>>();
    for (const [name, requests] of targets) {
      const seen = statuses.set(name, new Map()).get(name)!;
      const document = documents.some((d) => name === `GET ${d.path}`);
      const property = fc.asyncProperty(requests, async (request) => {
        let problem: string | null;
        try {
          const res = await perform(harness.http, request);
          seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
          problem = envelopeProblem(res, { document }) ?? (res.status < 300 && !document ? dateShapeProblem(res.body) : null) ?? cacheProblem(res, document);
        } catch (error) {
          problem = `no answer: ${(error as Error).message}`;
        }
        tally.tried++;
        if (problem) throw new Error(`${problem}\n    request: ${describeRequest(request)}`);
      });
      // A failure is shrunk to a smallest request, recorded, and the next route still runs.
      const result = await fc.check(property, { numRuns: RUNS, seed: SEED, endOnFailure: false });
      if (result.failed) tally.fail(`${name}: ${result.errorInstance instanceof Error ? result.errorInstance.message : String(result.errorInstance)} (seed ${SEED}, path ${result.counterexamplePath})`);
    }
    if (process.env.RELIABILITY_VERBOSE) {
      // eslint-disable-next-line no-console
      for (const [name, seen] of statuses) console.log(`      ${name}: ${[...seen].sort(([a], [b]) => a - b).map(([s, n]) => `${s}×${n}`).join(' ')}`);
    }
    const prototype = Object.prototype as Record<string, unknown>;
    if (prototype[POLLUTION_KEY] !== undefined || ({} as Record<string, unknown>)[POLLUTION_KEY] !== undefined) tally.fail('Object.prototype was polluted');
    tally.report();
    expect(tally.tried).to.be.at.least(RUNS * targets.length);
  });

  it('answers every route with path segments named after Object.prototype members without a 5xx', async function () {
    this.timeout(300_000);
    const harness = api();
    const routes: Route[] = apiRoutes({ app: harness.app, testHelpers: true, readinessChecks: harness.infra.readinessChecks, paymentPortal: harness.infra.paymentPortal });
    // The hosted pages' own router (payment portal, receipts, enrollment, assets), read from its route table.
    const pages = hostedPages({
      app: harness.app, portal: harness.infra.paymentPortal, signer: harness.infra.pageSigner, rateLimiter: new InProcessTokenBucket(), sandbox: true, logger: pino({ level: 'silent' }),
    }) as unknown as { router: { stack: { path: string; methods: string[] }[] } };
    const pageRoutes = pages.router.stack.flatMap((layer) =>
      (['GET', 'POST'] as const).filter((m) => layer.methods.includes(m)).map((m) => ({ method: m.toLowerCase() as 'get' | 'post', path: layer.path, page: true })),
    );
    const targets = [
      ...routes.map((r) => ({ method: r.method, path: r.path, page: false, route: r })),
      ...pageRoutes.map((r) => ({ ...r, route: null })),
      // Prefixes no route serves, for the unknown-path answer.
      ...['/:a', '/:a/:b', '/v2/:a', '/test-helpers/:a'].map((path) => ({ method: 'get' as const, path, page: false, route: null })),
    ];
    const tally = new Tally(`fuzz [${harness.kind}] Object.prototype names in the path segments of ${routes.length} routes, ${pageRoutes.length} page routes and unknown paths`);
    const segmentsOf = (path: string) => path.split('/').filter((p) => p.startsWith(':') || p.startsWith('*'));
    const sampleBody = (route: Route | null) => {
      const example = route && context.examples[`${route.method.toUpperCase()} ${route.path}`];
      return example ? fc.sample(example, { numRuns: 1, seed: SEED })[0] : {};
    };
    for (const target of targets) {
      const params = segmentsOf(target.path);
      if (params.length === 0) continue;
      const resource = '/' + target.path.split('/').filter((p) => p && p !== 'test-helpers' && !p.startsWith(':'))[0];
      const known = context.ids[resource]?.[0] ?? 'x';
      // Every parameter named so at once, and each one alone beside existing ids.
      const fillings: string[][] = PROTOTYPE_NAMES.flatMap((name) => [
        params.map(() => name),
        ...(params.length > 1 ? params.map((_, i) => params.map((__, j) => (i === j ? name : known))) : []),
      ]);
      for (const values of fillings) {
        let i = 0;
        const path = target.path.split('/').map((part) => (part.startsWith(':') || part.startsWith('*') ? encodeURIComponent(values[i++]!) : part)).join('/');
        const headers = target.page ? { 'X-Forwarded-For': randomAddress() } : target.path.startsWith('/auth/') ? context.loginHeaders : context.headers;
        let request = harness.http[target.method](path).set(headers).timeout(15_000);
        if (target.method !== 'get') request = target.page ? request.type('form').send('amountChoice=full') : request.send(sampleBody(target.route) as object);
        let problem: string | null;
        try {
          const res = await request;
          if (res.status >= 500) problem = `${res.status} ${res.text.slice(0, 200)}`;
          else if (target.page) problem = null;
          else problem = envelopeProblem(res);
        } catch (error) {
          problem = `no answer: ${(error as Error).message}`;
        }
        tally.record(problem && `${target.method.toUpperCase()} ${path}: ${problem}`);
      }
    }
    tally.report();
    expect(tally.tried).to.be.greaterThan(targets.length);
  });
});

/** An API answer with data or about credentials (2xx, 401) that a cache could keep (docs/security.md: every route answers no-store). */
function cacheProblem(res: { status: number; headers: Record<string, string> }, document: boolean): string | null {
  if (document || !(res.status < 300 || res.status === 401)) return null;
  return res.headers['cache-control'] === 'no-store' ? null : `${res.status} without Cache-Control: no-store (${res.headers['cache-control']})`;
}

/** Every name an object inherits from Object.prototype, and `prototype`: keys a plain-object table would find. */
const PROTOTYPE_NAMES = [...new Set([...Object.getOwnPropertyNames(Object.prototype), 'prototype'])];
