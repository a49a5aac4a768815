/** The direct-debit HTTP suites' vocabulary over one harness: tenants, calls, the debit job and what it stored. */
import { expect } from 'chai';
import type { DebitAttempt } from '../../internal/direct-debit/debit-attempt';
import type { ApiHarness, Tenant } from './harness';
import { expectOk } from './http-expect';

export type Body = Record<string, unknown>;
export const DIRECT_DEBIT = { directDebitEnabled: true, directDebitModality: true };
export const NOW = '2031-05-10T15:00:00.000Z';
export const TODAY = '2031-05-10';
export const LATER = '2031-06-30';

export function directDebitApi(api: () => ApiHarness) {
  const http = () => api().http;
  const repos = () => api().infra.ports.repos;

  /** A tenant with direct debit on (unless told), a product, contacts ana and bob, and its clock frozen at NOW. */
  async function tenant(settings: Body = DIRECT_DEBIT) {
    const t = await api().newTenant({ settings });
    expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: NOW }));
    for (const user of ['ana', 'bob']) {
      expectOk(await http().post('/contacts').set(t.headers).send({ externalClientId: user, name: user, email: `${user}@example.com` }), 201);
    }
    const product = expectOk(await http().post('/products').set(t.headers).send({ name: 'Gym', externalProductId: 'SKU-gym' }), 201);
    return { t, productId: product.productId as string };
  }

  async function companyOf(t: Tenant) {
    return (await repos().tenancy.findCompanyByCode(t.companyCodes[0]!))!;
  }

  return {
    http,
    tenant,
    register: (t: Tenant, body: Body) => http().post('/test-helpers/payment-methods').set(t.headers).send(body),
    methods: (t: Tenant, query: Record<string, string>) => http().get('/payment-methods').query(query).set(t.headers),
    enroll: (t: Tenant, body: Body) => http().post('/adhesions').set(t.headers).send(body),
    cancel: (t: Tenant, body: Body) => http().post('/adhesions/cancel').set(t.headers).send(body),
    v2(t: Tenant, body: Body, key?: string) {
      const req = http().post('/v2/debts').set(t.headers);
      if (key) req.set('Idempotency-Key', key);
      return req.send(body);
    },
    legacy: (t: Tenant, body: Body) => http().post('/debts').set(t.headers).send(body),
    getDebt: (t: Tenant, id: string) => http().get(`/debts/${id}`).set(t.headers),
    debtOf: (productId: string | null, overrides: Body = {}): Body => ({
      externalClientId: 'ana', amount: 150, dueDate: LATER, ...(productId ? { productId } : {}), ...overrides,
    }),
    /** PUT /test-helpers/clock: the organization's time, as every rule (and the debit job) sees it. */
    async moveClock(t: Tenant, now: string) {
      expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
    },
    /** The scheduled debit job, enqueued as the scheduler does (run by the worker process on MySQL + Redis); resolves once it ran. */
    async runDebitJob() {
      await api().infra.ports.queue.enqueue({ name: 'direct-debit.execute-due', data: {} });
      await api().drainJobs();
    },
    /** Once every job has run, the debt as GET reads it. */
    async settled(t: Tenant, id: string): Promise<Body> {
      await api().drainJobs();
      return expectOk(await http().get(`/debts/${id}`).set(t.headers));
    },
    /** What the debit job stored for a debt: [attemptNumber, status, failureCode, retryOn] by number. */
    async attempts(t: Tenant, externalRequestId: string): Promise<[number, string, string | null, string | null][]> {
      const debt = await repos().debts.findByExternalRequestId((await companyOf(t)).id, externalRequestId);
      expect(debt, externalRequestId).to.not.equal(null);
      const rows: DebitAttempt[] = await repos().debitAttempts.listByDebt(debt!.id);
      return rows.map((a) => [a.attemptNumber, a.status, a.failureCode, a.retryOn]);
    },
    /** The `data.object` of the tenant's events of these types, oldest first. */
    async eventObjects(t: Tenant, ...types: string[]): Promise<Body[]> {
      const page = await repos().events.list((await companyOf(t)).id, {}, { page: 1, limit: 500 });
      return page.items
        .reverse()
        .filter((e) => types.includes(e.type))
        .map((e) => (e.payload as { data: { object: Body } }).data.object);
    },
    /** The user's adhesion to the product as stored (null when never enrolled). */
    async adhesionOf(t: Tenant, externalClientId: string, productId: string) {
      return repos().adhesions.find((await companyOf(t)).id, externalClientId, Number(productId.replace('prd_', '')));
    },
  };
}
