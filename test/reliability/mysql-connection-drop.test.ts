/**
 * The API's database connection dropped in the middle of a transaction (KILL CONNECTION on MySQL,
 * pg_terminate_backend on PostgreSQL, from an administrator's connection, as a network cut or a
 * failover would): batch creation, subscription creation and payment link creation. Each transaction is held at a known statement
 * by a lock the administrator owns (an uncommitted row with the key it is about to insert), after
 * it has written its inline contact and product, and its connection is killed there. Nothing is
 * half-written, the client gets a 500 INTERNAL_ERROR envelope, and the same request retried
 * succeeds once (its repeat is the documented replay or conflict). No hook in production code.
 */
import crypto from 'node:crypto';
import type { Knex } from 'knex';
import type { Response } from 'supertest';
import { type ApiHarness, startApi, type Tenant } from '../support/harness';
import { databaseAvailable, type DatabaseKind } from '../support/databases';
import { expectOk } from '../support/http-expect';
import { holdUniqueKey } from '../support/row-blockers';
import { envelopeProblem, errorProblem, send } from './support/http';
import { type MysqlAdmin, openMysqlAdmin } from './support/mysql-admin';
import { openPostgresAdmin } from './support/postgres-admin';
import { Tally } from './support/summary';

/** The INSERT each transaction is held at, as each database's process list shows it. */
const HELD_AT: Record<'mysql' | 'postgres', { debts: string; subscriptions: string; paymentLinks: string }> = {
  mysql: { debts: 'insert ignore into `debts`', subscriptions: 'insert into `subscriptions`', paymentLinks: 'insert into `payment_links`' },
  postgres: { debts: 'insert into "debts"', subscriptions: 'insert into "subscriptions"', paymentLinks: 'insert into "payment_links"' },
};

for (const kind of ['mysql', 'postgres'] as const satisfies readonly DatabaseKind[]) {
  describe(`${kind === 'mysql' ? 'MySQL' : 'PostgreSQL'} connection dropped mid-transaction [${kind}]`, function () {
    this.timeout(60_000);
    let api: ApiHarness;
    let admin: MysqlAdmin;
    let t: Tenant;
    let companyId = 0;
    const db = (): Knex => api.infra.db!;
    const count = async (table: string, where: Record<string, unknown>): Promise<number> => {
      const [row] = await db()(table).where(where).count<{ n: number }[]>({ n: '*' });
      return Number(row!.n);
    };
    const unique = () => crypto.randomBytes(8).toString('hex');
    const contactData = (externalClientId: string) => ({ externalClientId, name: 'Dropped', email: 'dropped@example.com' });

    before(async function () {
      if (!(await databaseAvailable(kind))) this.skip();
      api = await startApi(kind);
      admin = kind === 'mysql' ? openMysqlAdmin(api.databaseUrl) : openPostgresAdmin(api.databaseUrl);
      t = await api.newTenant();
      companyId = (await db()('companies').where({ code: t.companyCodes[0] }).first()).id;
      // Rows to copy for the locks: one debt, one subscription, one link of this company.
      const post = (path: string, body: object) => api.http.post(path).set(t.headers).send(body);
      expectOk(await post('/v2/debts', { contactData: contactData('template-client'), amount: 1, dueDate: '2031-01-01' }), 201);
      expectOk(await post('/subscriptions', { externalSubscriptionId: 'template-sub', externalClientId: 'template-client', amount: 1, intervalUnit: 'month', intervalCount: 1, startDate: '2031-01-01', productName: 'template product' }), 201);
      expectOk(await post('/payment-links', { externalPaymentLinkId: 'template-link', amount: 1, description: 'template', expiresAt: '2031-01-01T00:00:00Z' }), 201);
      await api.drainJobs();
    });

    after(async () => {
      await admin?.close();
      await api?.close();
    });

    /**
     * Sends `request` while `lock` holds the key it will insert, kills its connection once it waits
     * on `statement`, and releases the lock. Resolves with the answer the client got.
     */
    async function dropMidTransaction(tally: Tally, lock: () => Promise<Knex.Transaction>, statement: string, request: () => Promise<Response>): Promise<Response> {
      const blocker = await lock();
      try {
        const answer = request();
        const connection = await admin.waitForStatement(statement);
        // The transaction has written its first rows (inline contact, product): there is a half to lose.
        const written = await admin.rowsWrittenBy(connection);
        if (written === 0) tally.fail(`the transaction had written nothing when its connection was killed at "${statement}"`);
        await admin.kill(connection);
        return await answer;
      } finally {
        await blocker.rollback();
      }
    }

    /** The dropped request's answer is a 500 INTERNAL_ERROR envelope (or a 503 to retry); its retry succeeds once. */
    function checkAnswers(tally: Tally, dropped: Response, retry: Response, repeat: Response, repeatCheck: (res: Response) => string | null): void {
      tally.record(dropped.status === 503 ? envelopeProblem(dropped, { serverError: true }) : errorProblem(dropped, 500, 'INTERNAL_ERROR'));
      tally.record(envelopeProblem(retry) ?? (retry.status !== 201 ? `the retry answered ${retry.status} ${JSON.stringify(retry.body).slice(0, 300)}` : null));
      tally.record(repeatCheck(repeat));
    }

    it('batch: no debt and no inline contact of the batch survive; the retried batch creates each debt once', async () => {
      const tally = new Tally(`${kind} connection drop: batch creation`);
      const key = unique();
      const items = Array.from({ length: 5 }, (_, i) => ({ externalRequestId: `drop-${key}-${i}`, contactData: contactData(`drop-${key}-client-${i}`), amount: 10 + i, dueDate: '2031-03-01' }));
      const template = await db()('debts').where({ company_id: companyId }).first();
      const batch = () => send(() => api.http.post('/v2/debts').set(t.headers).send({ debts: items }));
      const dropped = await dropMidTransaction(
        tally,
        () => holdUniqueKey(admin.db, 'debts', template, { external_request_id: items[4]!.externalRequestId, batch_id: null }),
        HELD_AT[kind].debts,
        batch,
      );
      for (const item of items) {
        const debts = await count('debts', { company_id: companyId, external_request_id: item.externalRequestId });
        const contacts = await count('contacts', { organization_id: t.organizationId, external_client_id: item.contactData.externalClientId });
        if (debts + contacts > 0) tally.fail(`half-written: ${item.externalRequestId} has ${debts} debts and ${contacts} contacts after the drop`);
      }
      const retry = await batch();
      const repeat = await batch();
      checkAnswers(tally, dropped, retry, repeat, (res) => envelopeProblem(res) ?? (res.status !== 201 || res.body.data.length !== items.length ? `the repeat answered ${res.status}` : null));
      for (const item of items) {
        const debts = await count('debts', { company_id: companyId, external_request_id: item.externalRequestId });
        if (debts !== 1) tally.fail(`${item.externalRequestId}: ${debts} debts after the retry`);
      }
      tally.report();
    });

    it('subscription: no subscription, inline contact, product or outbox job survive; the retry creates it and its cycles once', async () => {
      const tally = new Tally(`${kind} connection drop: subscription creation`);
      const key = unique();
      const body = {
        externalSubscriptionId: `drop-sub-${key}`, contactData: contactData(`drop-sub-client-${key}`), amount: 7, intervalUnit: 'week',
        intervalCount: 1, startDate: '2031-02-03', totalCycles: 6, productName: `drop product ${key}`,
      };
      const template = await db()('subscriptions').where({ organization_id: t.organizationId }).first();
      const create = () => send(() => api.http.post('/subscriptions').set(t.headers).send(body));
      const jobsBefore = await count('job_outbox', {});
      const dropped = await dropMidTransaction(
        tally,
        () => holdUniqueKey(admin.db, 'subscriptions', template, { external_subscription_id: body.externalSubscriptionId, code: `blocker${key}` }),
        HELD_AT[kind].subscriptions,
        create,
      );
      const left = {
        subscriptions: await count('subscriptions', { organization_id: t.organizationId, external_subscription_id: body.externalSubscriptionId }),
        contacts: await count('contacts', { organization_id: t.organizationId, external_client_id: body.contactData.externalClientId }),
        products: await count('products', { company_id: companyId, name: body.productName }),
        outbox: (await count('job_outbox', {})) - jobsBefore,
      };
      if (Object.values(left).some((n) => n !== 0)) tally.fail(`half-written after the drop: ${JSON.stringify(left)}`);
      const retry = await create();
      const repeat = await create();
      checkAnswers(tally, dropped, retry, repeat, (res) => errorProblem(res, 409, 'RESOURCE_CONFLICT'));
      await api.drainJobs();
      const subscription = await db()('subscriptions').where({ organization_id: t.organizationId, external_subscription_id: body.externalSubscriptionId }).first();
      const cycles = subscription ? await count('debts', { subscription_id: subscription.id }) : 0;
      if (cycles !== 6) tally.fail(`${cycles} cycles after the retry instead of 6`);
      for (const [table, where] of [['contacts', { organization_id: t.organizationId, external_client_id: body.contactData.externalClientId }], ['products', { company_id: companyId, name: body.productName }]] as const) {
        const n = await count(table, where);
        if (n !== 1) tally.fail(`${n} ${table} after the retry`);
      }
      tally.report();
    });

    it('payment link: no link, associated debt, inline contact or product survive; the retry creates the link once', async () => {
      const tally = new Tally(`${kind} connection drop: payment link creation`);
      const key = unique();
      const body = {
        externalPaymentLinkId: `drop-link-${key}`, contactData: contactData(`drop-link-client-${key}`), productName: `drop link product ${key}`,
        amount: 45.5, description: 'Dropped link', expiresAt: '2031-06-01T00:00:00Z',
      };
      const template = await db()('payment_links').where({ organization_id: t.organizationId }).first();
      const create = () => send(() => api.http.post('/payment-links').set(t.headers).send(body));
      const debtsBefore = await count('debts', { company_id: companyId });
      const dropped = await dropMidTransaction(
        tally,
        () => holdUniqueKey(admin.db, 'payment_links', template, { external_payment_link_id: body.externalPaymentLinkId, code: `blocker${key}`, short_code: null, debt_external_request_id: `blocker${key}` }),
        HELD_AT[kind].paymentLinks,
        create,
      );
      const left = {
        links: await count('payment_links', { organization_id: t.organizationId, external_payment_link_id: body.externalPaymentLinkId }),
        debts: (await count('debts', { company_id: companyId })) - debtsBefore,
        contacts: await count('contacts', { organization_id: t.organizationId, external_client_id: body.contactData.externalClientId }),
        products: await count('products', { company_id: companyId, name: body.productName }),
      };
      if (Object.values(left).some((n) => n !== 0)) tally.fail(`half-written after the drop: ${JSON.stringify(left)}`);
      const retry = await create();
      const repeat = await create();
      checkAnswers(tally, dropped, retry, repeat, (res) => errorProblem(res, 409, 'RESOURCE_CONFLICT'));
      const link = await db()('payment_links').where({ organization_id: t.organizationId, external_payment_link_id: body.externalPaymentLinkId }).first();
      const linkDebts = link ? await count('debts', { payment_link_id: link.id }) : 0;
      if (!link || linkDebts !== 1) tally.fail(`after the retry: link ${link ? 'exists' : 'missing'}, ${linkDebts} associated debts`);
      tally.report();
    });

    it('keeps serving on fresh connections after the drops (the pool let the dead ones go)', async () => {
      const tally = new Tally(`${kind} connection drop: pool after the drops`);
      for (let i = 0; i < 20; i++) {
        const res = await send(() => api.http.get('/debts').set(t.headers));
        tally.record(envelopeProblem(res) ?? (res.status !== 200 ? `GET /debts answered ${res.status}` : null));
      }
      tally.report();
    });
  });
}
