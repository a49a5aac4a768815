import { expect } from 'chai';
import { SandboxPaymentInstructionProvider } from '../../adapters/gateways/sandbox-payment-instruction-provider';
import { describeEachDatabase, JWT_TEST_SECRET, type Tenant } from '../support/harness';
import { expectError, expectInvalid, expectNotFound, expectOk, expectRuleViolation } from '../support/http-expect';

/**
 * Money coming in (decisions.md section 8): the signed provider notification is the only way,
 * the sandbox helper goes through it; the amount rules split it between a payment (the same use
 * case as every payment) and an unapplied payment; a notification delivered twice records once;
 * unapplied payments are listed, applied and refunded; links and subscription cycles
 * (enforcePaymentOrder) take instructions like any debt.
 */

const NOW = '2031-05-10T15:00:00.000Z';
type Body = Record<string, any>;

/** The sandbox provider as the API derives it from its JWT secret: the tests sign like the provider. */
const provider = SandboxPaymentInstructionProvider.derivedFrom(JWT_TEST_SECRET);

describeEachDatabase('provider notifications and unapplied payments', ({ api }) => {
  const http = () => api().http;
  const contactData = { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' };
  const debtOf = async (t: Tenant, body: Body) =>
    expectOk(await http().post('/v2/debts').set(t.headers).send({ contactData, dueDate: '2031-06-15', ...body }), 201);
  const instructionFor = async (t: Tenant, debtId: string, method = 'TRANSFER', amount?: number) =>
    expectOk(await http().post(`/debts/${debtId}/payment-instructions`).set(t.headers).send(amount === undefined ? { method } : { method, amount }), 201);
  const receive = (t: Tenant, id: string, body: Body = {}) => http().post(`/test-helpers/payment-instructions/${id}/receive`).set(t.headers).send(body);
  const debt = async (t: Tenant, id: string) => expectOk(await http().get(`/debts/${id}`).set(t.headers));
  const instruction = async (t: Tenant, id: string) => expectOk(await http().get(`/payment-instructions/${id}`).set(t.headers));
  const unapplied = async (t: Tenant, query: Body = {}) => expectOk<Body[]>(await http().get('/unapplied-payments').query(query).set(t.headers));
  const freeze = async (t: Tenant, now: string) => expectOk(await http().put('/test-helpers/clock').set(t.headers).send({ now }));
  const eventTypes = async (t: Tenant) => expectOk<Body[]>(await http().get('/events').query({ limit: 100 }).set(t.headers)).map((e) => e.type).reverse();
  const notify = (body: string, headers: Record<string, string> = provider.sandbox.sign(body, new Date())) =>
    http().post('/provider-notifications/sandbox').set(headers).set('content-type', 'application/json').send(body);
  const notification = (i: Body, amount: number, id = `txn-${Math.random().toString(36).slice(2)}`) =>
    JSON.stringify({ id, type: 'payment.received', instruction: i.transfer?.accountNumber ?? i.cash.barcodeValue, amount, currency: i.currency, receivedAt: NOW });

  async function tenant(): Promise<Tenant> {
    const t = await api().newTenant();
    await freeze(t, NOW);
    return t;
  }

  describe('the sandbox helper and the amount rules', () => {
    it('full amount: 202, the debt is PAID through the payment use case, the instruction PAID, the other PENDING one cancelled, events in order', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 1500 });
      const transfer = await instructionFor(t, d.debtId, 'TRANSFER');
      const cash = await instructionFor(t, d.debtId, 'CASH');
      const sent = expectOk(await receive(t, transfer.paymentInstructionId), 202);
      expect(sent).to.deep.equal({ paymentInstructionId: transfer.paymentInstructionId, provider: 'sandbox', transactionId: sent.transactionId, amount: 1500, currency: 'MXN' });
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PAID', amountPaid: 1500 });
      expect(await instruction(t, transfer.paymentInstructionId)).to.deep.include({ status: 'PAID', amountReceived: 1500, paidAt: NOW });
      expect((await instruction(t, cash.paymentInstructionId)).status).to.equal('CANCELLED');
      expect(await unapplied(t)).to.deep.equal([]);
      expect((await eventTypes(t)).slice(-5)).to.deep.equal([
        'payment_instruction.created', 'payment_instruction.created', 'payment_instruction.paid', 'debt.paid', 'payment_instruction.cancelled',
      ]);
    });

    it('less than owed: a partial payment where allowed (the instruction stays PENDING until its amount is in); else all unapplied NOT_APPLICABLE', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      expectOk(await receive(t, i.paymentInstructionId, { amount: 30 }), 202);
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 30 });
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ status: 'PENDING', amountReceived: 30 });
      expectOk(await receive(t, i.paymentInstructionId, { amount: 70 }), 202);
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PAID', amountPaid: 100 });
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ status: 'PAID', amountReceived: 100 });

      const whole = await debtOf(t, { amount: 100, allowPartialPayments: false });
      const w = await instructionFor(t, whole.debtId, 'CASH');
      expectOk(await receive(t, w.paymentInstructionId, { amount: 60 }), 202);
      expect(await debt(t, whole.debtId)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      const [kept] = await unapplied(t);
      expect(kept).to.deep.equal({
        unappliedPaymentId: kept!.unappliedPaymentId, amount: 60, currency: 'MXN', paymentInstructionId: w.paymentInstructionId, debtId: whole.debtId,
        reason: 'NOT_APPLICABLE', status: 'OPEN', receivedAt: NOW, resolvedAt: null, resolution: null,
      });
      expect(await instruction(t, w.paymentInstructionId)).to.deep.include({ status: 'PENDING', amountReceived: 60 });
    });

    it('more than owed: pays the debt and keeps the excess as OVERPAYMENT', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId, 'CASH');
      expectOk(await receive(t, i.paymentInstructionId, { amount: 130.55 }), 202);
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PAID', amountPaid: 100 });
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ status: 'PAID', amountReceived: 130.55 });
      const [excess] = await unapplied(t);
      expect(excess).to.deep.include({ amount: 30.55, reason: 'OVERPAYMENT', debtId: d.debtId, status: 'OPEN' });
      expect((await eventTypes(t)).slice(-1)).to.deep.equal(['unapplied_payment.created']);
    });

    it('money for an instruction no longer PENDING (paid otherwise, expired) is kept as INSTRUCTION_NOT_PENDING', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      expectOk(await http().post(`/test-helpers/debts/${d.debtId}/pay`).set(t.headers).send({}), 201);
      expectOk(await receive(t, i.paymentInstructionId), 202);
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PAID', amountPaid: 100 });
      const late = await debtOf(t, { amount: 50 });
      const voucher = await instructionFor(t, late.debtId, 'CASH');
      await freeze(t, '2031-05-14T00:00:00.000Z');
      expectOk(await receive(t, voucher.paymentInstructionId), 202);
      expect(await debt(t, late.debtId)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      expect((await instruction(t, voucher.paymentInstructionId)).status).to.equal('EXPIRED');
      expect((await unapplied(t)).map((u) => [u.amount, u.reason])).to.deep.equal([[50, 'INSTRUCTION_NOT_PENDING'], [100, 'INSTRUCTION_NOT_PENDING']]);
      // The notification persisted the expiry it saw; the job finds nothing more to do for it.
      await api().app.jobs.expirePaymentInstructions.execute();
      expect((await eventTypes(t)).filter((e) => e === 'payment_instruction.expired')).to.have.length(1);
    });

    it('records an audit entry per notification, beside the events it caused', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      const sent = expectOk(await receive(t, i.paymentInstructionId, { amount: 100 }), 202);
      const log = await api().app.queries.readAuditLog.execute({ organization: String(t.organizationId), resourceId: i.paymentInstructionId, limit: 10 });
      const entry = log.records.find((r) => r.action === 'provider_notification.received');
      expect(entry).to.deep.include({ source: 'audit', resourceType: 'payment_instruction', resourceId: i.paymentInstructionId, actor: { type: 'system', name: 'provider:sandbox' } });
      expect(entry!.details).to.deep.include({ transactionId: sent.transactionId, amountCents: 10000, outcome: 'APPLIED', appliedCents: 10000, unappliedCents: 0 });
    });

    it('404 for an unknown instruction; 400 for a bad amount', async () => {
      const t = await tenant();
      expectNotFound(await receive(t, 'pin_nothing'));
      const d = await debtOf(t, { amount: 10 });
      const i = await instructionFor(t, d.debtId);
      expectInvalid(await receive(t, i.paymentInstructionId, { amount: 0 }), 'amount');
    });
  });

  describe('POST /provider-notifications/{provider}', () => {
    it('applies a signed notification once: delivered again, the first outcome (replayed) and nothing recorded twice', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      const body = notification(i, 40);
      const first = expectOk(await notify(body));
      expect(first).to.deep.include({ replayed: false, outcome: 'APPLIED', appliedAmount: 40, unappliedAmount: 0, currency: 'MXN' });
      const again = expectOk(await notify(body));
      expect(again).to.deep.equal({ ...first, replayed: true });
      expect(await debt(t, d.debtId)).to.deep.include({ amountPaid: 40 });
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ amountReceived: 40 });
      // The same transaction with other values is a conflict, not a second payment.
      expectError(await notify(body.replace('"amount":40', '"amount":41')), 409, 'RESOURCE_CONFLICT');
    });

    it('refuses (401) an unsigned, wrongly signed or replayed notification, and records nothing', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      const body = notification(i, 100);
      expectError(await notify(body, {}), 401, 'AUTHENTICATION_FAILED');
      expectError(await notify(body, provider.sandbox.sign(body.replace('100', '1'), new Date())), 401, 'AUTHENTICATION_FAILED');
      expectError(await notify(body, new SandboxPaymentInstructionProvider('another-secret-that-is-32-characters!').sandbox.sign(body, new Date())), 401, 'AUTHENTICATION_FAILED');
      expectError(await notify(body, provider.sandbox.sign(body, new Date(Date.now() - 6 * 60_000))), 401, 'AUTHENTICATION_FAILED');
      expectError(await notify(body, { 'X-Sandbox-Signature': 't=abc,v1=zz' }), 401, 'AUTHENTICATION_FAILED');
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      expectOk(await notify(body, provider.sandbox.sign(body, new Date(Date.now() - 4 * 60_000))));
      expect(await debt(t, d.debtId)).to.deep.include({ status: 'PAID' });
    });

    it('400 for a signed body it cannot read, 404 for an unknown provider, and UNMATCHED (kept, 200) for money no instruction names', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      expectInvalid(await notify('{"id":'), 'body');
      const bad = JSON.stringify({ id: 'x1', type: 'payment.received', instruction: i.transfer.accountNumber, amount: -1, currency: 'EUR', receivedAt: 'yesterday' });
      const res = await notify(bad);
      for (const field of ['amount', 'currency', 'receivedAt']) expectInvalid(res, field);
      expectNotFound(await http().post('/provider-notifications/acme').set(provider.sandbox.sign(notification(i, 1), new Date())).send(notification(i, 1)));
      const stray = JSON.stringify({ id: 'stray-1', type: 'payment.received', instruction: '646180990000000000', amount: 12, currency: 'MXN', receivedAt: NOW });
      expect(expectOk(await notify(stray))).to.deep.include({ outcome: 'UNMATCHED', appliedAmount: 0, unappliedAmount: 0 });
      expect(await unapplied(t)).to.deep.equal([]);
    });

    it('money in another currency is kept unapplied (NOT_APPLICABLE) in that currency', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      expect(expectOk(await notify(notification(i, 100).replace('"MXN"', '"USD"')))).to.deep.include({ outcome: 'UNAPPLIED', unappliedAmount: 100, currency: 'USD' });
      expect((await unapplied(t))[0]).to.deep.include({ currency: 'USD', reason: 'NOT_APPLICABLE', amount: 100 });
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ status: 'PENDING', amountReceived: 0 });
    });
  });

  describe('unapplied payments', () => {
    async function overpaid(t: Tenant): Promise<Body> {
      const d = await debtOf(t, { amount: 100 });
      const i = await instructionFor(t, d.debtId);
      expectOk(await receive(t, i.paymentInstructionId, { amount: 125 }), 202);
      return (await unapplied(t, { status: 'OPEN' }))[0]!;
    }

    it('lists by status, newest first, and reads one by id', async () => {
      const t = await tenant();
      const a = await overpaid(t);
      await freeze(t, '2031-05-10T16:00:00.000Z');
      const b = await overpaid(t);
      const list = await http().get('/unapplied-payments').set(t.headers);
      expect(list.body.meta).to.deep.equal({ page: 1, limit: 50, total: 2, hasMore: false });
      expect((list.body.data as Body[]).map((u) => u.unappliedPaymentId)).to.deep.equal([b.unappliedPaymentId, a.unappliedPaymentId]);
      expect(await unapplied(t, { status: 'RESOLVED' })).to.deep.equal([]);
      expect(expectOk(await http().get(`/unapplied-payments/${a.unappliedPaymentId}`).set(t.headers))).to.deep.equal(a);
      expect(expectOk(await http().get(`/unapplied-payments/${a.unappliedPaymentId.slice(4)}`).set(t.headers))).to.deep.equal(a);
      expectInvalid(await http().get('/unapplied-payments').query({ status: 'open' }).set(t.headers), 'status');
      expectNotFound(await http().get('/unapplied-payments/upy_nothing').set(t.headers));
    });

    it('applies one to a debt through the payment rules (422 when they refuse), once', async () => {
      const t = await tenant();
      const money = await overpaid(t);
      const big = await debtOf(t, { amount: 10, allowPartialPayments: false });
      expectRuleViolation(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({ debtId: big.debtId }));
      const ars = await debtOf(t, { amount: 100, currency: 'ARS' });
      expectRuleViolation(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({ debtId: ars.debtId }));
      expectNotFound(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({ debtId: 'debt_nobody' }));
      const target = await debtOf(t, { amount: 60 });
      const applied = expectOk(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({ debtId: target.externalRequestId }));
      expect(applied).to.deep.include({ status: 'RESOLVED', resolvedAt: NOW, resolution: { action: 'APPLIED', debtId: target.debtId, reference: null } });
      expect(await debt(t, target.debtId)).to.deep.include({ status: 'PARTIALLY_PAID', amountPaid: 25 });
      expectRuleViolation(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({ debtId: target.debtId }));
      expectRuleViolation(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/refund`).set(t.headers));
      expectInvalid(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/apply`).set(t.headers).send({}), 'debtId');
      expect((await eventTypes(t)).slice(-2)).to.deep.equal(['debt.partially_paid', 'unapplied_payment.resolved']);
    });

    it('refunds one through the provider, once', async () => {
      const t = await tenant();
      const money = await overpaid(t);
      const refunded = expectOk(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/refund`).set(t.headers));
      expect(refunded).to.deep.include({ status: 'RESOLVED', resolvedAt: NOW });
      expect(refunded.resolution).to.deep.include({ action: 'REFUNDED', debtId: null });
      expect(refunded.resolution.reference).to.match(/^sbx_rfd_/);
      expectRuleViolation(await http().post(`/unapplied-payments/${money.unappliedPaymentId}/refund`).set(t.headers));
      expect((await unapplied(t, { status: 'RESOLVED' })).map((u) => u.unappliedPaymentId)).to.deep.equal([money.unappliedPaymentId]);
    });
  });

  describe('links and subscription cycles', () => {
    it("a single-use link's debt: the money pays it and the link becomes PAID", async () => {
      const t = await tenant();
      const link = expectOk(await http().post('/payment-links').set(t.headers).send({ amount: 80, description: 'Entrada', expiresAt: '2031-05-30T00:00:00Z' }), 201);
      const i = await instructionFor(t, link.debtId, 'CASH');
      expectOk(await receive(t, i.paymentInstructionId), 202);
      expect(expectOk(await http().get(`/payment-links/${link.paymentLinkId}`).set(t.headers))).to.deep.include({ status: 'PAID' });
      expect(await debt(t, link.debtId)).to.deep.include({ status: 'PAID', amountPaid: 80 });
    });

    it("a reusable link's instruction takes the link amount every time (the link stays ACTIVE); less is unapplied", async () => {
      const t = await tenant();
      const link = expectOk(await http().post('/payment-links').set(t.headers).send({ amount: 25, description: 'Donación', expiresAt: '2031-05-30T00:00:00Z', singleUse: false }), 201);
      const i = await instructionFor(t, link.debtId);
      expect(i.amount).to.equal(25);
      expectRuleViolation(await http().post(`/debts/${link.debtId}/payment-instructions`).set(t.headers).send({ method: 'CASH', amount: 10 }));
      expectOk(await receive(t, i.paymentInstructionId), 202);
      expectOk(await receive(t, i.paymentInstructionId), 202);
      expectOk(await receive(t, i.paymentInstructionId, { amount: 5 }), 202);
      const after = expectOk(await http().get(`/payment-links/${link.paymentLinkId}/payments`).set(t.headers).query({ status: 'PAID' }));
      expect(after).to.have.length(2);
      expect(await instruction(t, i.paymentInstructionId)).to.deep.include({ status: 'PENDING', amountReceived: 55 });
      expect((await unapplied(t)).map((u) => [u.amount, u.reason])).to.deep.equal([[5, 'NOT_APPLICABLE']]);
    });

    it('enforcePaymentOrder: money for a later cycle that arrives first is unapplied, not lost; in order it pays', async () => {
      const t = await tenant();
      const subscription = expectOk(await http().post('/subscriptions').set(t.headers).send({
        externalSubscriptionId: 'gym', contactData, amount: 50, intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles: 3,
        productName: 'Gym', enforcePaymentOrder: true,
      }), 201);
      await api().drainJobs();
      const second = await instructionFor(t, 'gym-cycle-1');
      const first = await instructionFor(t, 'gym-cycle-0', 'CASH');
      expectOk(await receive(t, second.paymentInstructionId), 202);
      expect(await debt(t, 'gym-cycle-1')).to.deep.include({ status: 'PENDING', amountPaid: 0 });
      expect((await unapplied(t))[0]).to.deep.include({ reason: 'NOT_APPLICABLE', amount: 50, debtId: 'debt_gym-cycle-1' });
      expect(await instruction(t, second.paymentInstructionId)).to.deep.include({ status: 'PENDING', amountReceived: 50 });
      expectOk(await receive(t, first.paymentInstructionId), 202);
      expectOk(await receive(t, second.paymentInstructionId), 202);
      expect(await debt(t, 'gym-cycle-0')).to.deep.include({ status: 'PAID' });
      expect(await debt(t, 'gym-cycle-1')).to.deep.include({ status: 'PAID' });
      expect(subscription.enforcePaymentOrder).to.equal(true);
    });
  });

  describe('metrics', () => {
    it('counts the money received by method and reports the unapplied amount open', async () => {
      const t = await tenant();
      const d = await debtOf(t, { amount: 100, currency: 'PEN' });
      const i = await instructionFor(t, d.debtId, 'CASH');
      expectOk(await receive(t, i.paymentInstructionId, { amount: 120 }), 202);
      const text = (await http().get('/metrics')).text;
      const sample = (name: string) => Number(new RegExp(`^${name} ([0-9.e+]+)$`, 'm').exec(text)?.[1] ?? NaN);
      expect(sample('cf_money_received_total\\{method="CASH",currency="PEN",process="api"\\}')).to.be.at.least(120);
      expect(sample('cf_unapplied_payments_open_amount\\{currency="PEN",process="api"\\}')).to.be.at.least(20);
      expect(sample('cf_provider_notifications_total\\{provider="sandbox",outcome="PARTIALLY_APPLIED",process="api"\\}')).to.be.at.least(1);
    });
  });
});
