import { expect } from 'chai';
import { isValidCbu, isValidClabe, maskedBankAccount } from '../../internal/direct-debit/bank-account';
import { describeEachDatabase, type Tenant } from '../support/harness';
import { expectError, expectInvalid, expectNotFound, expectOk, expectRuleViolation } from '../support/http-expect';

/**
 * Payment instructions through HTTP (decisions.md section 8): creation per debt and method, the
 * accounts per currency, reuse of a PENDING one, the amount and state rules, expiry (read and
 * job), cancellation when the debt is paid or cancelled otherwise, and the reads. Money coming
 * in has its own file (provider-notifications.http.test.ts).
 */

const NOW = '2031-05-10T15:00:00.000Z';
type Body = Record<string, any>;

describeEachDatabase('payment instructions', ({ api }) => {
  const http = () => api().http;
  const debtOf = async (t: Tenant, body: Body, key?: string) => {
    const req = http().post('/v2/debts').set(t.headers);
    return expectOk(await (key ? req.set('Idempotency-Key', key) : req).send({ contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, dueDate: '2031-06-15', ...body }), 201);
  };
  const legacyDebt = async (t: Tenant, body: Body) =>
    expectOk(await http().post('/debts').set(t.headers).send({ contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, dueDate: '2031-06-15', ...body }), 201);
  const create = (t: Tenant, debtId: string, body: Body) => http().post(`/debts/${debtId}/payment-instructions`).set(t.headers).send(body);
  const instructions = async (t: Tenant, debtId: string) => expectOk<Body[]>(await http().get(`/debts/${debtId}/payment-instructions`).set(t.headers));
  const instruction = async (t: Tenant, id: string) => expectOk(await http().get(`/payment-instructions/${id}`).set(t.headers));
  const freeze = async (t: Tenant, now: string) => expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
  const events = async (t: Tenant, resourceId: string) =>
    expectOk<Body[]>(await http().get('/events').query({ resourceId, limit: 50 }).set(t.headers)).map((e) => e.type).reverse();

  async function tenant(organization?: string): Promise<Tenant> {
    const t = await api().newTenant({ organization });
    await freeze(t, NOW);
    return t;
  }

  describe('POST /debts/{id}/payment-instructions', () => {
    it('gives an MXN debt a TRANSFER instruction: a valid CLABE unique to it, the remaining amount, 30 days; asked again, the same one (200)', async () => {
      const t = await tenant('Gimnasio Central');
      const debt = await debtOf(t, { amount: 1500, description: 'Mensualidad' });
      const first = expectOk(await create(t, debt.debtId, { method: 'TRANSFER' }), 201);
      expect(first).to.deep.equal({
        paymentInstructionId: first.paymentInstructionId,
        debtId: debt.debtId,
        method: 'TRANSFER',
        status: 'PENDING',
        amount: 1500,
        amountReceived: 0,
        currency: 'MXN',
        reference: first.reference,
        expiresAt: '2031-06-09T15:00:00.000Z',
        transfer: { accountType: 'CLABE', accountNumber: first.transfer.accountNumber, bankName: 'STP (sandbox)', beneficiary: 'Gimnasio Central' },
        createdAt: NOW,
        paidAt: null,
      });
      expect(first.paymentInstructionId).to.match(/^pin_[A-Za-z0-9]{24}$/);
      expect(first.reference).to.match(/^\d{7}$/);
      expect(isValidClabe(first.transfer.accountNumber), first.transfer.accountNumber).to.equal(true);
      expect(maskedBankAccount(first.transfer.accountNumber, 'MXN')).to.match(/^CLABE/);

      const again = expectOk(await create(t, debt.debtId, { method: 'TRANSFER', amount: 10 }), 200);
      expect(again).to.deep.equal(first);
      const other = expectOk(await create(t, (await debtOf(t, { amount: 1500 })).debtId, { method: 'TRANSFER' }), 201);
      expect(other.transfer.accountNumber, 'one account per instruction').to.not.equal(first.transfer.accountNumber);

      expect(await instruction(t, first.paymentInstructionId)).to.deep.equal(first);
      expect(await instruction(t, first.paymentInstructionId.slice(4))).to.deep.equal(first);
      expect(await events(t, first.paymentInstructionId)).to.deep.equal(['payment_instruction.created']);
    });

    it('gives a CASH voucher: barcode, public signed SVG and PDF URLs, the networks, 72 hours', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 250.5 });
      const cash = expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201);
      expect(cash).to.include({ method: 'CASH', status: 'PENDING', amount: 250.5, expiresAt: '2031-05-13T15:00:00.000Z' });
      expect(cash).to.not.have.property('transfer');
      expect(cash.cash.barcodeValue).to.match(/^\d{16}$/);
      expect(cash.reference).to.equal(cash.cash.barcodeValue);
      expect(cash.cash.networks).to.include('OXXO');
      expect(cash.cash.barcodeUrl).to.match(new RegExp(`^${api().baseUrl}/vouchers/[^/]+/${cash.paymentInstructionId}/[A-Za-z0-9_-]+/barcode\\.svg$`));
      expect(cash.cash.voucherUrl).to.equal(cash.cash.barcodeUrl.replace(/barcode\.svg$/, 'voucher.pdf'));
      // A debt has one PENDING instruction per method: TRANSFER and CASH side by side.
      expectOk(await create(t, debt.debtId, { method: 'TRANSFER' }), 201);
      expect((await instructions(t, debt.debtId)).map((i) => i.method)).to.deep.equal(['TRANSFER', 'CASH']);
    });

    it('issues the account of the currency: a CVU (ARS), a CCI (PEN), an account number (COP, CLP, USD)', async () => {
      const t = await tenant();
      const accountOf = async (currency: string) => {
        const debt = await debtOf(t, { amount: 100, currency });
        return expectOk(await create(t, debt.debtId, { method: 'TRANSFER' }), 201).transfer;
      };
      const cvu = await accountOf('ARS');
      expect(cvu.accountType).to.equal('CVU');
      expect(isValidCbu(cvu.accountNumber), cvu.accountNumber).to.equal(true);
      const cci = await accountOf('PEN');
      expect(cci).to.include({ accountType: 'CCI' });
      expect(cci.accountNumber).to.match(/^\d{20}$/);
      expect(maskedBankAccount(cci.accountNumber, 'PEN')).to.match(/^CCI/);
      for (const currency of ['COP', 'CLP', 'USD']) {
        const account = await accountOf(currency);
        expect(account.accountType).to.equal('ACCOUNT');
        expect(maskedBankAccount(account.accountNumber, currency as 'COP')).to.match(/^Account/);
      }
    });

    it('ends at the end of the due date when the debt takes no overdue payment, whichever comes first', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 100, dueDate: '2031-05-11', allowOverduePayment: false });
      expect(expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201).expiresAt).to.equal('2031-05-11T23:59:59.999Z');
      expect(expectOk(await create(t, debt.debtId, { method: 'TRANSFER' }), 201).expiresAt).to.equal('2031-05-11T23:59:59.999Z');
      const late = await debtOf(t, { amount: 100, dueDate: '2031-05-11' });
      expect(expectOk(await create(t, late.debtId, { method: 'TRANSFER' }), 201).expiresAt, 'overdue payments allowed').to.equal('2031-06-09T15:00:00.000Z');
    });

    it('takes a partial amount only where the debt allows partial payments, never more than remaining', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 100 });
      expect(expectOk(await create(t, debt.debtId, { method: 'TRANSFER', amount: 40.25 }), 201).amount).to.equal(40.25);
      expectRuleViolation(await create(t, debt.debtId, { method: 'CASH', amount: 100.01 }));
      const whole = await debtOf(t, { amount: 100, allowPartialPayments: false });
      expectRuleViolation(await create(t, whole.debtId, { method: 'CASH', amount: 50 }));
      expect(expectOk(await create(t, whole.debtId, { method: 'CASH' }), 201).amount).to.equal(100);
      expectOk(await http().post(`/test-helpers/debts/${debt.debtId}/pay`).set(t.headers).send({ amount: 30 }), 201);
      // The remaining amount is what an instruction asks for by default.
      expect(expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201).amount).to.equal(70);
    });

    it('refuses (422) a debt that takes no payment, or whose paymentMethods do not include the method; TRANSFER and BANK_TRANSFER are one', async () => {
      const t = await tenant();
      const paid = await debtOf(t, { amount: 10 });
      expectOk(await http().post(`/test-helpers/debts/${paid.debtId}/pay`).set(t.headers).send({}), 201);
      expectRuleViolation(await create(t, paid.debtId, { method: 'TRANSFER' }));
      const cancelled = await debtOf(t, { amount: 10 });
      expectOk(await http().post(`/debts/${cancelled.debtId}/cancel`).set(t.headers));
      expectRuleViolation(await create(t, cancelled.debtId, { method: 'CASH' }));
      const overdue = await debtOf(t, { amount: 10, dueDate: '2031-05-01', allowOverduePayment: false });
      expectRuleViolation(await create(t, overdue.debtId, { method: 'CASH' }));

      const cardOnly = await legacyDebt(t, { amount: 10, paymentMethods: ['CARD'] });
      expectRuleViolation(await create(t, cardOnly.debtId, { method: 'TRANSFER' }));
      expectRuleViolation(await create(t, cardOnly.debtId, { method: 'CASH' }));
      const bank = await legacyDebt(t, { amount: 10, paymentMethods: ['BANK_TRANSFER'] });
      expectOk(await create(t, bank.debtId, { method: 'TRANSFER' }), 201);
      expectRuleViolation(await create(t, bank.debtId, { method: 'CASH' }));
      const cash = await legacyDebt(t, { amount: 10, paymentMethods: ['CASH'] });
      expectOk(await create(t, cash.debtId, { method: 'CASH' }), 201);
    });

    it('answers 400 for a bad body and 404 for an unknown debt or instruction', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 10 });
      expectInvalid(await create(t, debt.debtId, { method: 'CHEQUE' }), 'method');
      expectInvalid(await create(t, debt.debtId, {}), 'method');
      expectInvalid(await create(t, debt.debtId, { method: 'CASH', amount: 1.005 }), 'amount');
      expectInvalid(await create(t, debt.debtId, { method: 'CASH', extra: true }), 'extra');
      expectNotFound(await create(t, 'debt_nobody', { method: 'CASH' }));
      expectNotFound(await http().get('/debts/debt_nobody/payment-instructions').set(t.headers));
      expectNotFound(await http().get('/payment-instructions/pin_nothing').set(t.headers));
      expectNotFound(await http().get('/payment-instructions/bad%20id').set(t.headers));
    });
  });

  describe('expiry and cancellation', () => {
    it('reads EXPIRED past expiresAt; the job persists it once with payment_instruction.expired; a new one can be asked for', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 100 });
      const cash = expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201);
      await freeze(t, '2031-05-13T15:00:00.000Z');
      expect((await instruction(t, cash.paymentInstructionId)).status).to.equal('EXPIRED');
      expect(await events(t, cash.paymentInstructionId)).to.deep.equal(['payment_instruction.created']);
      // The scheduled job, as the workers run it (the worker process on the third leg), twice.
      for (const run of [1, 2]) {
        await api().queue.enqueue({ name: 'payment-instructions.expire', data: {}, jobId: `expire-${cash.paymentInstructionId}-${run}` });
        await api().drainJobs();
      }
      expect(await events(t, cash.paymentInstructionId)).to.deep.equal(['payment_instruction.created', 'payment_instruction.expired']);
      const fresh = expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201);
      expect(fresh.paymentInstructionId).to.not.equal(cash.paymentInstructionId);
      expect(fresh.expiresAt).to.equal('2031-05-16T15:00:00.000Z');
    });

    it('a stored PENDING past expiresAt is expired when a new one is asked for (before the job runs)', async () => {
      const t = await tenant();
      const debt = await debtOf(t, { amount: 100 });
      const cash = expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201);
      await freeze(t, '2031-05-14T00:00:00.000Z');
      expectOk(await create(t, debt.debtId, { method: 'CASH' }), 201);
      expect(await events(t, cash.paymentInstructionId)).to.deep.equal(['payment_instruction.created', 'payment_instruction.expired']);
    });

    it('cancels the PENDING instructions when the debt is paid by other means or cancelled, in the same change', async () => {
      const t = await tenant();
      const paid = await debtOf(t, { amount: 100 });
      const transfer = expectOk(await create(t, paid.debtId, { method: 'TRANSFER' }), 201);
      const cash = expectOk(await create(t, paid.debtId, { method: 'CASH' }), 201);
      expectOk(await http().post(`/test-helpers/debts/${paid.debtId}/pay`).set(t.headers).send({ amount: 40 }), 201);
      expect((await instruction(t, transfer.paymentInstructionId)).status, 'a partial payment leaves them').to.equal('PENDING');
      expectOk(await http().post(`/test-helpers/debts/${paid.debtId}/pay`).set(t.headers).send({}), 201);
      for (const i of [transfer, cash]) {
        expect((await instruction(t, i.paymentInstructionId)).status).to.equal('CANCELLED');
        expect(await events(t, i.paymentInstructionId)).to.deep.equal(['payment_instruction.created', 'payment_instruction.cancelled']);
      }
      const cancelled = await debtOf(t, { amount: 100 });
      const other = expectOk(await create(t, cancelled.debtId, { method: 'CASH' }), 201);
      expectOk(await http().post(`/debts/${cancelled.debtId}/cancel`).set(t.headers));
      expect((await instruction(t, other.paymentInstructionId)).status).to.equal('CANCELLED');
    });

    it('cancels a link\'s instructions with the link, and a subscription\'s with its paused cycles', async () => {
      const t = await tenant();
      const link = expectOk(await http().post('/payment-links').set(t.headers).send({ amount: 80, description: 'Entrada', expiresAt: '2031-05-30T00:00:00Z' }), 201);
      const onLink = expectOk(await create(t, link.debtId, { method: 'TRANSFER' }), 201);
      expect(onLink.expiresAt, 'no later than the link').to.equal('2031-05-30T00:00:00.000Z');
      expectOk(await http().post(`/payment-links/${link.paymentLinkId}/cancel`).set(t.headers));
      expect((await instruction(t, onLink.paymentInstructionId)).status).to.equal('CANCELLED');
      expectRuleViolation(await create(t, link.debtId, { method: 'TRANSFER' }));

      const subscription = expectOk(await http().post('/subscriptions').set(t.headers).send({
        externalSubscriptionId: 'gym', contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, amount: 50,
        intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles: 2, productName: 'Gym',
      }), 201);
      await api().drainJobs();
      const cycle = expectOk(await create(t, 'gym-cycle-1', { method: 'CASH' }), 201);
      expectOk(await http().post(`/subscriptions/${subscription.subscriptionId}/pause`).set(t.headers));
      expect((await instruction(t, cycle.paymentInstructionId)).status).to.equal('CANCELLED');
    });
  });

  describe('tenancy', () => {
    it("another organization's instruction is 404, and a multi-company client names the company", async () => {
      const owner = await tenant();
      const stranger = await tenant();
      const debt = await debtOf(owner, { amount: 10 });
      const i = expectOk(await create(owner, debt.debtId, { method: 'CASH' }), 201);
      expectNotFound(await http().get(`/payment-instructions/${i.paymentInstructionId}`).set(stranger.headers));
      expectNotFound(await create(stranger, debt.debtId, { method: 'CASH' }));
      const multi = await api().newTenant({ companies: ['a', 'b'] });
      expectError(await http().post(`/debts/${debt.debtId}/payment-instructions`).set(multi.headers).send({ method: 'CASH' }), 400, 'INVALID_REQUEST', 'companyCode');
    });
  });
}, { withWorker: true });
