import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectInvalid, expectOk, expectRuleViolation } from '../support/http-expect';

/**
 * Direct debit through the public API: payment method references, adhesions, and the autopay
 * outcome of every debt creation contract; the adhesion request is processed by the workers (the
 * in-process queue, or the real worker process on MySQL + Redis), which collect debts when due.
 */

type Body = Record<string, unknown>;
const DIRECT_DEBIT = { directDebitEnabled: true, directDebitModality: true };
const NOW = '2031-05-10T15:00:00.000Z';
const TODAY = '2031-05-10';
const LATER = '2031-06-30';
const PM_ID = /^pm_[A-Za-z0-9]{20}$/;
const ADH_ID = /^adh_[A-Za-z0-9]{20}$/;

describeEachDatabase(
  'direct debit',
  ({ api }) => {
    const http = () => api().http;

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
    const register = (t: Tenant, body: Body) => http().post('/test-helpers/payment-methods').set(t.headers).send(body);
    const methods = (t: Tenant, query: Record<string, string>) => http().get('/payment-methods').query(query).set(t.headers);
    const enroll = (t: Tenant, body: Body) => http().post('/adhesions').set(t.headers).send(body);
    const cancel = (t: Tenant, body: Body) => http().post('/adhesions/cancel').set(t.headers).send(body);
    const v2 = (t: Tenant, body: Body, key?: string) => {
      const req = http().post('/v2/debts').set(t.headers);
      if (key) req.set('Idempotency-Key', key);
      return req.send(body);
    };
    const getDebt = (t: Tenant, id: string) => http().get(`/debts/${id}`).set(t.headers);
    const debtOf = (productId: string | null, overrides: Body = {}) => ({
      externalClientId: 'ana', amount: 150, dueDate: LATER, ...(productId ? { productId } : {}), ...overrides,
    });

    describe('POST /test-helpers/payment-methods and GET /payment-methods', () => {
      it('registers a reference (the first becomes the default) and lists the user\'s, oldest first, not paginated', async () => {
        const { t } = await tenant();
        const first = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT', isDefault: false }), 201);
        expect(Object.keys(first).sort()).to.deep.equal(['createdAt', 'isDefault', 'paymentMethodId', 'paymentMethodType', 'status']);
        expect(first).to.deep.include({ paymentMethodType: 'BANK_ACCOUNT', isDefault: true, status: 'ACTIVE', createdAt: NOW });
        expect(first.paymentMethodId).to.match(PM_ID);
        const card = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'CARD_TOKENIZED' }), 201);
        expect(card.isDefault).to.equal(false);
        const res = await methods(t, { externalClientId: 'ana' });
        const listed = expectOk<Body[]>(res);
        expect(res.body).to.not.have.property('meta');
        expect(listed).to.deep.equal([first, card]);
      });

      it('moves the default only when registration asks for it', async () => {
        const { t } = await tenant();
        const first = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const second = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT', isDefault: true }), 201);
        const listed = expectOk<Body[]>(await methods(t, { externalClientId: 'ana' }));
        expect(listed.map((m) => [m.paymentMethodId, m.isDefault])).to.deep.equal([
          [first.paymentMethodId, false],
          [second.paymentMethodId, true],
        ]);
      });

      it('answers 200 [] for an unknown client or one without methods', async () => {
        const { t } = await tenant();
        expect(expectOk(await methods(t, { externalClientId: 'nobody' }))).to.deep.equal([]);
        expect(expectOk(await methods(t, { externalClientId: 'bob' }))).to.deep.equal([]);
      });

      it('requires externalClientId and refuses the forbidden characters', async () => {
        const { t } = await tenant();
        expectInvalid(await methods(t, {}), 'externalClientId');
        for (const bad of ["an'a", 'an"a', 'an\\a', 'an;a', '']) expectInvalid(await methods(t, { externalClientId: bad }), 'externalClientId', bad);
      });

      it('validates the helper body strictly, naming the field', async () => {
        const { t } = await tenant();
        expectInvalid(await register(t, { paymentMethodType: 'BANK_ACCOUNT' }), 'externalClientId');
        expectInvalid(await register(t, { externalClientId: 'ana', paymentMethodType: 'WALLET' }), 'paymentMethodType');
        expectInvalid(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT', isDefault: 'true' }), 'isDefault');
        expectInvalid(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT', accountNumber: '123' }), 'accountNumber');
        expectInvalid(await register(t, { externalClientId: 'a;b', paymentMethodType: 'BANK_ACCOUNT' }), 'externalClientId');
      });

      it("keeps one company's methods away from another's", async () => {
        const { t } = await tenant();
        const other = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        expect(expectOk(await methods(other.t, { externalClientId: 'ana' }))).to.deep.equal([]);
      });
    });

    describe('POST /adhesions and POST /adhesions/cancel', () => {
      it('enrolls a user (201), answers it unchanged when already ACTIVE (200), and cancels it to INACTIVE', async () => {
        const { t, productId } = await tenant();
        const created = expectOk(await enroll(t, { externalClientId: 'ana', productId }), 201);
        expect(Object.keys(created).sort()).to.deep.equal(['adhesionId', 'createdAt', 'externalClientId', 'product', 'status', 'updatedAt']);
        expect(created).to.deep.include({ externalClientId: 'ana', status: 'ACTIVE', createdAt: NOW, updatedAt: NOW });
        expect(created.product).to.deep.equal({ productId, name: 'Gym', active: true });
        expect(created.adhesionId).to.match(ADH_ID);
        expect(expectOk(await enroll(t, { externalClientId: 'ana', externalProductId: 'SKU-gym' }), 200)).to.deep.equal(created);
        const cancelled = expectOk(await cancel(t, { externalClientId: 'ana', productId }));
        expect(cancelled).to.deep.include({ adhesionId: created.adhesionId, status: 'INACTIVE' });
        expect(expectOk(await cancel(t, { externalClientId: 'ana', externalProductId: 'SKU-gym' }))).to.deep.equal(cancelled);
        expect(expectOk(await enroll(t, { externalClientId: 'ana', productId }), 201)).to.deep.include({ adhesionId: created.adhesionId, status: 'ACTIVE' });
      });

      for (const [label, send] of [['POST /adhesions', enroll], ['POST /adhesions/cancel', cancel]] as const) {
        it(`${label}: validates the body, naming the field`, async () => {
          const { t, productId } = await tenant();
          expectInvalid(await send(t, { productId }), 'externalClientId');
          for (const bad of ['an.a', 'an a', '', 'x'.repeat(101), 'ñandú']) expectInvalid(await send(t, { externalClientId: bad, productId }), 'externalClientId', bad);
          expectInvalid(await send(t, { externalClientId: 'ana' }), 'productId');
          expectInvalid(await send(t, { externalClientId: 'ana', productId, externalProductId: 'SKU-gym' }), 'externalProductId');
          expectInvalid(await send(t, { externalClientId: 'ana', productId: '12' }), 'productId');
          expectInvalid(await send(t, { externalClientId: 'ana', externalProductId: "SKU'1" }), 'externalProductId');
          expectInvalid(await send(t, { externalClientId: 'ana', productId, autopay: true }), 'autopay');
          expectInvalid(await send(t, { externalClientId: 'ana', productId, paymentMethodId: 'pm_x' }), 'paymentMethodId');
          expectInvalid(await send(t, { externalClientId: 12, productId }), 'externalClientId');
        });
      }

      it('is 404 for an unknown product and 422 to enroll in an inactive one; cancel of a never-enrolled user is 404', async () => {
        const { t, productId } = await tenant();
        expectError(await enroll(t, { externalClientId: 'ana', productId: 'prd_999999999' }), 404, 'RESOURCE_NOT_FOUND');
        expectError(await enroll(t, { externalClientId: 'ana', externalProductId: 'SKU-none' }), 404, 'RESOURCE_NOT_FOUND');
        expectError(await cancel(t, { externalClientId: 'ana', productId }), 404, 'RESOURCE_NOT_FOUND');
        expectOk(await http().delete(`/products/${productId}`).set(t.headers));
        expectRuleViolation(await enroll(t, { externalClientId: 'ana', productId }));
      });

      it('takes companyCode as context for a client with several companies', async () => {
        const t = await api().newTenant({ companies: ['north', 'south'], settings: DIRECT_DEBIT });
        const [north, south] = t.companyCodes;
        const product = expectOk(await http().post('/products').set(t.headers).send({ name: 'Gym', companyCode: north }), 201);
        expectInvalid(await enroll(t, { externalClientId: 'ana', productId: product.productId }), 'companyCode');
        expectOk(await enroll(t, { externalClientId: 'ana', productId: product.productId, companyCode: north }), 201);
        expectError(await enroll(t, { externalClientId: 'ana', productId: product.productId, companyCode: south }), 404, 'RESOURCE_NOT_FOUND');
      });
    });

    describe('autopay on debt creation', () => {
      it('v2: autopay true with the default bank account as autopayInstrument, and no autopayReason', async () => {
        const { t, productId } = await tenant();
        const method = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId)), 201);
        expect(debt.autopay).to.equal(true);
        expect(debt).to.not.have.property('autopayReason');
        expect(debt.autopayInstrument).to.deep.equal(method);
        // Reads do not carry the creation-only fields.
        const read = expectOk(await getDebt(t, debt.debtId as string));
        for (const field of ['autopay', 'autopayReason', 'autopayInstrument']) expect(read).to.not.have.property(field);
      });

      it('v2: each reason in the specification order, never with an instrument, the debt created anyway', async () => {
        const off = await tenant({});
        expectOk(await register(off.t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const cases: [Tenant, Body, string][] = [[off.t, debtOf(null), 'NO_PRODUCT'], [off.t, debtOf(off.productId), 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY']];
        const noModality = await tenant({ directDebitEnabled: true, directDebitModality: false });
        cases.push([noModality.t, debtOf(noModality.productId), 'COMPANY_WITHOUT_PRODUCT_MODALITY']);
        const on = await tenant();
        cases.push([on.t, debtOf(on.productId), 'NO_DEFAULT_PAYMENT_METHOD']);
        expectOk(await register(on.t, { externalClientId: 'bob', paymentMethodType: 'CARD_TOKENIZED' }), 201);
        cases.push([on.t, debtOf(on.productId, { externalClientId: 'bob' }), 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED']);
        for (const [t, body, reason] of cases) {
          const debt = expectOk(await v2(t, body), 201);
          expect(debt, reason).to.deep.include({ autopay: false, autopayReason: reason, status: 'PENDING' });
          expect(debt, reason).to.not.have.property('autopayInstrument');
        }
      });

      it('legacy /debts evaluates only when autopay: true is sent', async () => {
        const { t } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const asked = expectOk(await http().post('/debts').set(t.headers).send({ externalClientId: 'ana', amount: 10, dueDate: LATER, productName: 'Gym', autopay: true }), 201);
        expect(asked).to.deep.include({ autopay: true });
        expect((asked.autopayInstrument as Body).paymentMethodType).to.equal('BANK_ACCOUNT');
        const manual = expectOk(await http().post('/debts').set(t.headers).send({ externalClientId: 'ana', amount: 10, dueDate: LATER, productName: 'Gym', paymentMethods: ['CASH'] }), 201);
        expect(manual.autopay).to.equal(false);
        expect(manual).to.not.have.property('autopayReason');
      });

      it('v2 batch: each item evaluated, users and products once', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const res = await http()
          .post('/v2/debts')
          .set(t.headers)
          .send({
            debts: [
              { externalRequestId: 'b-1', ...debtOf(productId) },
              { externalRequestId: 'b-2', ...debtOf(productId, { externalClientId: 'bob' }) },
              { externalRequestId: 'b-3', ...debtOf(null) },
              { externalRequestId: 'b-4', ...debtOf(productId, { amount: 20 }) },
            ],
          });
        const data = expectOk<Body[]>(res, 201);
        expect(data.map((d) => [d.externalRequestId, d.autopay, d.autopayReason ?? null])).to.deep.equal([
          ['b-1', true, null],
          ['b-2', false, 'NO_DEFAULT_PAYMENT_METHOD'],
          ['b-3', false, 'NO_PRODUCT'],
          ['b-4', true, null],
        ]);
      });

      it('a replay answers the stored outcome', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const first = expectOk(await v2(t, debtOf(productId), 'autopay-key'), 201);
        const replay = await v2(t, debtOf(null), 'autopay-key');
        expect(replay.headers['idempotent-replayed']).to.equal('true');
        expect(expectOk(replay, 201)).to.deep.equal(first);
      });
    });

    describe('the adhesion request and debit execution (workers)', () => {
      async function settled(t: Tenant, id: string): Promise<Body> {
        await api().drainJobs();
        return expectOk(await getDebt(t, id));
      }

      it('enrolls the user in the product and collects a debt due today at once', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY })), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amount: 150, amountPaid: 150 });
        // The user is now enrolled: enrolling again changes nothing.
        expect(expectOk(await enroll(t, { externalClientId: 'ana', productId }), 200)).to.deep.include({ status: 'ACTIVE' });
      });

      it('leaves a debt due later PENDING, and collects it on its due date (scheduled job, organization clock)', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: '2031-05-12' })), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING' });
        expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-12T09:00:00Z' }));
        await api().app.jobs.executeDueDebits.execute();
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amountPaid: 150 });
      });

      it('records a refused debit and leaves the debt payable through the API', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY, amount: 99.13 })), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
        const paid = expectOk(await http().post(`/test-helpers/debts/${debt.debtId}/pay`).set(t.headers).send({}), 201);
        expect(paid).to.deep.include({ status: 'PAID', amountPaid: 99.13 });
      });

      it('no longer collects debts of a user whose adhesion was cancelled', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: '2031-05-11' })), 201);
        await settled(t, debt.debtId as string);
        expectOk(await cancel(t, { externalClientId: 'ana', productId }));
        expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now: '2031-05-11T09:00:00Z' }));
        await api().app.jobs.executeDueDebits.execute();
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING' });
      });

      it('enrolls subscription users once and marks every cycle autopay', async () => {
        const { t } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const sub = expectOk(
          await http().post('/subscriptions').set(t.headers).send({
            externalSubscriptionId: 'gym-ana', externalClientId: 'ana', amount: 50, intervalUnit: 'month', intervalCount: 1,
            startDate: TODAY, totalCycles: 3, productName: 'Gym', autopay: true,
          }),
          201,
        );
        await api().drainJobs();
        const cycles = expectOk<Body[]>(await http().get(`/subscriptions/${sub.subscriptionId}/debts`).set(t.headers));
        // The first cycle is due today: collected at once; the others wait for their due dates.
        expect(cycles.map((c) => [c.externalRequestId, c.status]).sort()).to.deep.equal([
          ['gym-ana-cycle-0', 'PAID'],
          ['gym-ana-cycle-1', 'PENDING'],
          ['gym-ana-cycle-2', 'PENDING'],
        ]);
      });
    });
  },
  { withWorker: true },
);
