import { expect } from 'chai';
import { type Body, directDebitApi, LATER, TODAY } from '../support/direct-debit-api';
import { describeEachDatabase } from '../support/harness';
import { expectOk } from '../support/http-expect';

/**
 * Direct debit on the workers, through the public API: the adhesion request a new autopay debt
 * emits (and ADHESION_EVENT_FAILED when the queue refuses it), collection on the due date by the
 * scheduled debit job, and dunning. On MySQL + Redis the jobs run in the real worker process;
 * time moves with PUT /test-helpers/clock and the suite polls for the workers' results.
 */
describeEachDatabase(
  'direct debit collection',
  ({ api }) => {
    const dd = directDebitApi(api);
    const { http, tenant, register, methods, enroll, cancel, v2, legacy, getDebt, debtOf, moveClock, runDebitJob, settled, attempts, eventObjects } = dd;

    afterEach(() => {
      api().queue.down = false;
    });

    describe('the adhesion request and collection when due', () => {
      it('enrolls the user in the product and collects a debt due today at once', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY })), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amount: 150, amountPaid: 150 });
        expect(await attempts(t, debt.externalRequestId as string)).to.deep.equal([[1, 'SUCCEEDED', null, null]]);
        // The user is now enrolled: enrolling again changes nothing.
        expect(expectOk(await enroll(t, { externalClientId: 'ana', productId }), 200)).to.deep.include({ status: 'ACTIVE' });
      });

      it('leaves a debt due later PENDING, and collects it on its due date (scheduled job, organization clock)', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: '2031-05-12' })), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING' });
        await moveClock(t, '2031-05-11T23:59:59.999Z');
        await runDebitJob();
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
        await moveClock(t, '2031-05-12T00:00:00.000Z');
        await runDebitJob();
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amountPaid: 150 });
        const [succeeded] = await eventObjects(t, 'direct_debit.succeeded');
        expect(succeeded).to.deep.include({ debtId: debt.debtId, attemptNumber: 1, amount: 150, currency: 'MXN', status: 'SUCCEEDED', failureCode: null });
      });

      it('no longer collects debts of a user whose adhesion was cancelled', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: '2031-05-11' })), 201);
        await settled(t, debt.debtId as string);
        expectOk(await cancel(t, { externalClientId: 'ana', productId }));
        await moveClock(t, '2031-05-11T09:00:00Z');
        await runDebitJob();
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PENDING' });
        expect(await attempts(t, debt.externalRequestId as string)).to.deep.equal([]);
      });

      it('legacy autopay debts are collected like v2 ones', async () => {
        const { t } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await legacy(t, { externalClientId: 'ana', amount: 30, dueDate: TODAY, productName: 'Gym', autopay: true }), 201);
        expect(await settled(t, debt.debtId as string)).to.deep.include({ status: 'PAID', amountPaid: 30 });
      });

      it('enrolls subscription users once and marks every cycle autopay; a user without a method is not collected', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const subscribe = (externalSubscriptionId: string, externalClientId: string) =>
          http().post('/subscriptions').set(t.headers).send({
            externalSubscriptionId, externalClientId, amount: 50, intervalUnit: 'month', intervalCount: 1,
            startDate: TODAY, totalCycles: 3, productName: 'Gym', autopay: true,
          });
        const sub = expectOk(await subscribe('gym-ana', 'ana'), 201);
        const manual = expectOk(await subscribe('gym-bob', 'bob'), 201);
        await api().drainJobs();
        const cycles = async (id: unknown) =>
          expectOk<Body[]>(await http().get(`/subscriptions/${id}/debts`).set(t.headers)).map((c) => [c.externalRequestId, c.status]).sort();
        // The first cycle is due today: collected at once; the others wait for their due dates.
        expect(await cycles(sub.subscriptionId)).to.deep.equal([
          ['gym-ana-cycle-0', 'PAID'],
          ['gym-ana-cycle-1', 'PENDING'],
          ['gym-ana-cycle-2', 'PENDING'],
        ]);
        // bob has no method (NO_DEFAULT_PAYMENT_METHOD): nothing is collected, even when due.
        await runDebitJob();
        expect((await cycles(manual.subscriptionId))[0]).to.deep.equal(['gym-bob-cycle-0', 'PENDING']);
        expect(await dd.adhesionOf(t, 'bob', productId)).to.equal(null);
        expect(await dd.adhesionOf(t, 'ana', productId)).to.deep.include({ status: 'ACTIVE' });
      });
    });

    describe('ADHESION_EVENT_FAILED (the queue refuses the adhesion request)', () => {
      it('creates the debt with ADHESION_EVENT_FAILED, keeps the request for the next debt of the product, and never debits that debt', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        expectOk(await register(t, { externalClientId: 'bob', paymentMethodType: 'CARD_TOKENIZED' }), 201);
        api().queue.down = true;
        const failed = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY })), 201);
        expect(failed).to.deep.include({ autopay: false, autopayReason: 'ADHESION_EVENT_FAILED', status: 'PENDING' });
        expect(failed).to.not.have.property('autopayInstrument');
        // Earlier reasons still come first while the queue is away.
        const card = expectOk(await v2(t, debtOf(productId, { externalClientId: 'bob' })), 201);
        expect(card).to.deep.include({ autopay: false, autopayReason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED' });
        expect(expectOk(await v2(t, debtOf(null)), 201)).to.deep.include({ autopay: false, autopayReason: 'NO_PRODUCT' });
        expect(api().queue.refused.map((j) => j.name)).to.include('direct-debit.request-adhesion');
        api().queue.down = false;
        expectOk(await getDebt(t, failed.debtId as string));
        await api().drainJobs();
        // Only where no other process dispatches the outbox can the wait be observed without a race:
        // the worker process's periodic dispatcher could take the entry in the instant before it is
        // deferred, since this test fails only the API's queue (a real Redis outage fails both).
        if (!api().withWorker) expect(await dd.adhesionOf(t, 'ana', productId)).to.equal(null);
        // The next debt of the product (another user, without a method even) emits it.
        const next = expectOk(await v2(t, debtOf(productId, { externalClientId: 'bob', dueDate: LATER })), 201);
        expect(next).to.deep.include({ autopayReason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED' });
        await api().drainJobs();
        expect(await dd.adhesionOf(t, 'ana', productId)).to.deep.include({ status: 'ACTIVE' });
        // The debt that answered autopay false stays so: payable through its paymentUrl, never debited.
        await runDebitJob();
        expect(await settled(t, failed.debtId as string)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
        expect(await attempts(t, failed.externalRequestId as string)).to.deep.equal([]);
        // Later autopay debts of the enrolled user are collected as usual.
        const later = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY, amount: 20 })), 201);
        expect(later).to.deep.include({ autopay: true });
        expect(await settled(t, later.debtId as string)).to.deep.include({ status: 'PAID', amountPaid: 20 });
      });

      it('answers ADHESION_EVENT_FAILED for every batch item and legacy debt whose request could not go out', async () => {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        api().queue.down = true;
        const batch = expectOk<Body[]>(
          await http().post('/v2/debts').set(t.headers).send({
            debts: [
              { externalRequestId: 'q-1', ...debtOf(productId) },
              { externalRequestId: 'q-2', ...debtOf(productId, { amount: 20 }) },
              { externalRequestId: 'q-3', ...debtOf(productId, { externalClientId: 'bob' }) },
            ],
          }),
          201,
        );
        expect(batch.map((d) => [d.externalRequestId, d.autopay, d.autopayReason])).to.deep.equal([
          ['q-1', false, 'ADHESION_EVENT_FAILED'],
          ['q-2', false, 'ADHESION_EVENT_FAILED'],
          ['q-3', false, 'NO_DEFAULT_PAYMENT_METHOD'],
        ]);
        const old = expectOk(await legacy(t, { externalClientId: 'ana', amount: 10, dueDate: TODAY, productName: 'Gym', autopay: true }), 201);
        expect(old).to.deep.include({ autopay: false, autopayReason: 'ADHESION_EVENT_FAILED' });
        expect(old).to.not.have.property('autopayInstrument');
        api().queue.down = false;
        for (const id of ['q-1', 'q-2']) expect(expectOk(await getDebt(t, `debt_${id}`))).to.deep.include({ status: 'PENDING' });
      });
    });

    describe('dunning', () => {
      /** ana with a bank account and a debt due today of `amount` (its cents pick the simulated bank's answer), attempted once. */
      async function refusedOnce(amount: number) {
        const { t, productId } = await tenant();
        expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT' }), 201);
        const debt = expectOk(await v2(t, debtOf(productId, { dueDate: TODAY, amount })), 201);
        expect(debt).to.deep.include({ autopay: true });
        await api().drainJobs();
        return { t, productId, debt, key: debt.externalRequestId as string, id: debt.debtId as string };
      }

      it('retries INSUFFICIENT_FUNDS (.13) 1, 3 and 7 days after the first refusal, then gives up; the debt stays payable', async () => {
        const { t, key, id } = await refusedOnce(99.13);
        expect(await attempts(t, key)).to.deep.equal([[1, 'FAILED', 'INSUFFICIENT_FUNDS', '2031-05-11']]);
        for (const [now, count] of [
          ['2031-05-10T23:00:00Z', 1],
          ['2031-05-11T08:00:00Z', 2],
          ['2031-05-12T08:00:00Z', 2],
          ['2031-05-13T08:00:00Z', 3],
          ['2031-05-16T08:00:00Z', 3],
          ['2031-05-17T08:00:00Z', 4],
          ['2031-06-30T08:00:00Z', 4],
        ] as const) {
          await moveClock(t, now);
          await runDebitJob();
          expect(await attempts(t, key), now).to.have.length(count);
        }
        expect(await attempts(t, key)).to.deep.equal([
          [1, 'FAILED', 'INSUFFICIENT_FUNDS', null],
          [2, 'FAILED', 'INSUFFICIENT_FUNDS', null],
          [3, 'FAILED', 'INSUFFICIENT_FUNDS', null],
          [4, 'FAILED', 'INSUFFICIENT_FUNDS', null],
        ]);
        const failed = await eventObjects(t, 'direct_debit.failed');
        expect(failed.map((o) => [o.attemptNumber, o.nextAttemptOn])).to.deep.equal([
          [1, '2031-05-11'],
          [2, '2031-05-13'],
          [3, '2031-05-17'],
          [4, null],
        ]);
        expect(new Set(failed.map((o) => o.debitAttemptId)).size).to.equal(4);
        expect((await eventObjects(t, 'direct_debit.attempted')).map((o) => o.attemptNumber)).to.deep.equal([1, 2, 3, 4]);
        expect(await settled(t, id)).to.deep.include({ status: 'OVERDUE', amountPaid: 0 });
        expect(expectOk(await http().post(`/test-helpers/debts/${id}/pay`).set(t.headers).send({}), 201)).to.deep.include({ status: 'PAID', amountPaid: 99.13 });
      });

      it('collects on the first retry once the account has the funds (.14), applying the payment once', async () => {
        const { t, key, id } = await refusedOnce(40.14);
        expect(await settled(t, id)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
        await moveClock(t, '2031-05-11T06:00:00Z');
        await runDebitJob();
        await runDebitJob();
        expect(await settled(t, id)).to.deep.include({ status: 'PAID', amountPaid: 40.14 });
        expect(await attempts(t, key)).to.deep.equal([
          [1, 'FAILED', 'INSUFFICIENT_FUNDS', null],
          [2, 'SUCCEEDED', null, null],
        ]);
        const paid = (await eventObjects(t, 'debt.paid')).filter((o) => o.debtId === id);
        expect(paid).to.have.length(1);
      });

      it('ACCOUNT_CLOSED (.15) is final and ends the payment method: INACTIVE, no longer the default, the next registration is', async () => {
        const { t, productId, key } = await refusedOnce(70.15);
        expect(await attempts(t, key)).to.deep.equal([[1, 'FAILED', 'ACCOUNT_CLOSED', null]]);
        const [closed] = expectOk<Body[]>(await methods(t, { externalClientId: 'ana' }));
        expect(closed).to.deep.include({ paymentMethodType: 'BANK_ACCOUNT', isDefault: false, status: 'INACTIVE' });
        const [event] = await eventObjects(t, 'direct_debit.failed');
        expect(event).to.deep.include({ attemptNumber: 1, failureCode: 'ACCOUNT_CLOSED', nextAttemptOn: null, paymentMethodStatus: 'INACTIVE' });
        await moveClock(t, '2031-05-20T08:00:00Z');
        await runDebitJob();
        expect(await attempts(t, key)).to.have.length(1);
        // New debts: the user has no default until they register a method, which becomes it.
        expect(expectOk(await v2(t, debtOf(productId)), 201)).to.deep.include({ autopay: false, autopayReason: 'NO_DEFAULT_PAYMENT_METHOD' });
        const replacement = expectOk(await register(t, { externalClientId: 'ana', paymentMethodType: 'BANK_ACCOUNT', isDefault: false }), 201);
        expect(replacement).to.deep.include({ isDefault: true, status: 'ACTIVE' });
        expect(expectOk(await v2(t, debtOf(productId)), 201)).to.deep.include({ autopay: true, autopayInstrument: replacement });
      });
    });
  },
  { withWorker: true },
);
