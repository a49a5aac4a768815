import { expect } from 'chai';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { type Body, DIRECT_DEBIT, directDebitApi, LATER, NOW } from '../support/direct-debit-api';
import { expectError, expectInvalid, expectOk, expectRuleViolation } from '../support/http-expect';

/**
 * Direct debit through the public API: payment method references, adhesions, and the autopay
 * outcome of every debt creation contract (collection by the workers and dunning:
 * direct-debit-collection.http.test.ts).
 */

const PM_ID = /^pm_[A-Za-z0-9]{20}$/;
const ADH_ID = /^adh_[A-Za-z0-9]{20}$/;

describeEachDatabase(
  'direct debit',
  ({ api }) => {
    const { http, tenant, register, methods, enroll, cancel, v2, legacy, getDebt, debtOf } = directDebitApi(api);

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

      it("leaves exactly one default when a new user's registrations race, each answered 201", async () => {
        const { t } = await tenant();
        const answers = await Promise.all(
          Array.from({ length: 8 }, (_, i) => register(t, { externalClientId: 'racer', paymentMethodType: i % 2 ? 'CARD_TOKENIZED' : 'BANK_ACCOUNT' })),
        );
        const registered = answers.map((res) => expectOk(res, 201));
        expect(registered.filter((m) => m.isDefault)).to.have.length(1);
        const listed = expectOk<Body[]>(await methods(t, { externalClientId: 'racer' }));
        expect(listed.map((m) => m.paymentMethodId).sort()).to.deep.equal(registered.map((m) => m.paymentMethodId).sort());
        expect(listed.filter((m) => m.isDefault)).to.deep.equal(registered.filter((m) => m.isDefault));
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
        // The value given at enrollment: case-sensitive; surrounding blanks are ignored at both ends, as contacts do.
        expectOk(await register(t, { externalClientId: ' ana ', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        for (const same of ['ana', ' ana', 'ana ']) expect(expectOk<Body[]>(await methods(t, { externalClientId: same })), same).to.have.length(1);
        for (const other of ['ANA', 'an a']) expect(expectOk(await methods(t, { externalClientId: other })), other).to.deep.equal([]);
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
        // Beyond any id column (PostgreSQL's INTEGER refuses the statement): the same 404, never a 500.
        for (const unknown of ['prd_999999999', 'prd_2848035817', 'prd_999999999999999']) {
          expectError(await enroll(t, { externalClientId: 'ana', productId: unknown }), 404, 'RESOURCE_NOT_FOUND');
          expectError(await cancel(t, { externalClientId: 'ana', productId: unknown }), 404, 'RESOURCE_NOT_FOUND');
        }
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
        const asked = expectOk(await legacy(t, { externalClientId: 'ana', amount: 10, dueDate: LATER, productName: 'Gym', autopay: true }), 201);
        expect(asked).to.deep.include({ autopay: true });
        expect(asked).to.not.have.property('autopayReason');
        expect((asked.autopayInstrument as Body).paymentMethodType).to.equal('BANK_ACCOUNT');
        const manual = expectOk(await legacy(t, { externalClientId: 'ana', amount: 10, dueDate: LATER, productName: 'Gym', paymentMethods: ['CASH'] }), 201);
        expect(manual.autopay).to.equal(false);
        expect(manual).to.not.have.property('autopayReason');
        expect(manual).to.not.have.property('autopayInstrument');
      });

      it('legacy /debts with autopay: true gives each reason in the specification order, the debt created anyway', async () => {
        const off = await tenant({});
        const noModality = await tenant({ directDebitEnabled: true, directDebitModality: false });
        const on = await tenant();
        // Every tenant's ana has a bank account, so only the step named can fail it.
        for (const x of [off, noModality, on]) expectOk(await register(x.t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        expectOk(await register(on.t, { externalClientId: 'bob', paymentMethodType: 'CARD_TOKENIZED' }), 201);
        const body = (overrides: Body = {}) => ({ externalClientId: 'ana', amount: 10, dueDate: LATER, productName: 'Gym', autopay: true, ...overrides });
        const { productName: _none, ...withoutProduct } = body();
        const cases: [Tenant, Body, string][] = [
          [off.t, withoutProduct, 'NO_PRODUCT'],
          [off.t, body(), 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY'],
          [noModality.t, body({ externalClientId: 'bob' }), 'COMPANY_WITHOUT_PRODUCT_MODALITY'],
          [on.t, body({ externalClientId: 'nobody' }), 'NO_DEFAULT_PAYMENT_METHOD'],
          [on.t, body({ externalClientId: 'bob' }), 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED'],
        ];
        expectOk(await http().post('/contacts').set(on.t.headers).send({ externalClientId: 'nobody', name: 'n', email: 'n@example.com' }), 201);
        for (const [t, sent, reason] of cases) {
          const debt = expectOk(await legacy(t, sent), 201);
          expect(debt, reason).to.deep.include({ autopay: false, autopayReason: reason, status: 'PENDING' });
          expect(debt, reason).to.not.have.property('autopayInstrument');
          expectOk(await getDebt(t, debt.debtId as string));
        }
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
  },
  { withWorker: true },
);
