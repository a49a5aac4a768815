import { expect } from 'chai';
import { SandboxPaymentProcessor } from '../../../adapters/gateways/sandbox-payment-processor';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { EnrollmentExpiredError } from '../../../internal/direct-debit/enrollment-grant';
import { NotPayableError, PaymentDeclinedError } from '../../../internal/portal/payment-declined';
import { BusinessRuleViolationError, InvalidRequestError, NotFoundError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { ChargeRequest, ChargeResult } from '../../../ports/payment-processor';
import { type MemoryWorld, memoryWorld } from '../../support/memory-world';

const T0 = new Date('2031-05-10T15:00:00.000Z');
const KEY = 'submission0000000000001';

/** The sandbox, counting charges; `during` runs while a charge is in flight (another payment path racing it). */
class RecordingProcessor extends SandboxPaymentProcessor {
  readonly charged: ChargeRequest[] = [];
  during: (() => Promise<void>) | null = null;

  override async charge(request: ChargeRequest): Promise<ChargeResult> {
    this.charged.push(request);
    const result = await super.charge(request);
    const during = this.during;
    this.during = null;
    await during?.();
    return result;
  }
}

async function world(): Promise<{ w: MemoryWorld; scope: TenantScope; processor: RecordingProcessor; debt: (key: string, overrides?: Partial<DebtDraft>) => Promise<string> }> {
  const processor = new RecordingProcessor();
  const w = memoryWorld(T0, { ports: { paymentProcessor: processor } });
  const { scope } = await w.newTenant({ settings: { directDebitEnabled: true, privateLinks: true } });
  const debt = async (key: string, overrides: Partial<DebtDraft> = {}) => {
    const draft: DebtDraft = {
      debtor: { contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' } }, product: null, amountCents: 10_000,
      dueDate: '2031-06-01', evaluateAutopay: false, ...overrides,
    };
    return `debt_${(await w.app.commands.createDebt.execute(draft, key, scope)).debt.externalRequestId}`;
  };
  return { w, scope, processor, debt };
}

const rejection = async (promise: Promise<unknown>): Promise<unknown> => promise.then(() => expect.fail('resolved'), (error: unknown) => error);

describe('hosted portal use cases (memory)', () => {
  it('GetPortalPage: a debt with its payability, 404 for another company or an unknown one', async () => {
    const { w, scope, debt } = await world();
    const id = await debt('order-1');
    const page = await w.app.queries.getPortalPage.execute({ kind: 'debt', companyCode: scope.company.code, debtId: id });
    expect(page.kind).to.equal('debt');
    if (page.kind !== 'debt') return;
    expect(page.company).to.deep.equal({ code: scope.company.code, name: scope.company.name });
    expect(page.charge).to.deep.include({ debtId: id, amountCents: 10_000, remainingCents: 10_000, status: 'PENDING' });
    expect(page.charge.payability).to.deep.equal({ payable: true, partial: true, methods: ['CARD', 'TRANSFER', 'CASH', 'WALLET'] });
    const other = await w.newTenant();
    expect(await rejection(w.app.queries.getPortalPage.execute({ kind: 'debt', companyCode: other.scope.company.code, debtId: id }))).to.be.instanceOf(NotFoundError);
    expect(await rejection(w.app.queries.getPortalPage.execute({ kind: 'short-code', shortCode: 'nope' }))).to.be.instanceOf(NotFoundError);
  });

  it('PayThroughPortal: charges, applies through applyDebtPayment with its receipt, and answers a resent form from the receipt', async () => {
    const { w, scope, processor, debt } = await world();
    const id = await debt('order-1');
    const target = { kind: 'debt' as const, companyCode: scope.company.code, debtId: id };
    const input = { target, amountCents: 2_500, method: 'WALLET', submissionKey: KEY };
    const first = await w.app.commands.payThroughPortal.execute(input);
    expect(first).to.deep.include({ successUrl: null, replayed: false });
    const again = await w.app.commands.payThroughPortal.execute(input);
    expect(again).to.deep.equal({ ...first, replayed: true });
    expect(processor.charged).to.have.length(1);
    expect(processor.charged[0]).to.deep.include({ idempotencyKey: `${scope.company.code}:${KEY}`, amountCents: 2_500, currency: 'MXN', method: 'WALLET' });
    const read = await w.app.queries.getDebt.execute(id, scope);
    expect(read).to.deep.include({ status: 'PARTIALLY_PAID', amountPaidCents: 2_500 });
    const receipt = await w.app.queries.getPortalReceipt.execute(first.receiptCode);
    expect(receipt).to.deep.include({ amountCents: 2_500, method: 'WALLET' });
    expect(receipt.origin).to.deep.equal({ kind: 'debt', debtId: id });
    expect(receipt.debt.remainingCents).to.equal(7_500);
    const events = (await w.repos.events.list(scope.company.id, {}, { page: 1, limit: 50 })).items.map((e) => e.type);
    expect(events).to.include('debt.partially_paid');
  });

  it('refunds the charge when the payment cannot be applied any more, and that form never pays again', async () => {
    const { w, scope, processor, debt } = await world();
    const id = await debt('order-1');
    const input = { target: { kind: 'debt' as const, companyCode: scope.company.code, debtId: id }, method: 'WALLET', submissionKey: KEY };
    processor.during = async () => void (await w.app.commands.cancelDebt.execute(id, scope));
    expect(await rejection(w.app.commands.payThroughPortal.execute(input))).to.be.instanceOf(BusinessRuleViolationError);
    expect([...processor.refunds.keys()]).to.deep.equal([`refund:${scope.company.code}:${KEY}`]);
    expect(await w.repos.portal.findPaymentBySubmission(scope.company.id, KEY)).to.equal(null);
    expect(await rejection(w.app.commands.payThroughPortal.execute(input))).to.be.instanceOf(NotPayableError);

    const other = await debt('order-2');
    const sameKeyAfterRefund = { ...input, target: { ...input.target, debtId: other } };
    // The processor remembers the refunded key: a replay of that submission is declined.
    expect(await rejection(w.app.commands.payThroughPortal.execute(sameKeyAfterRefund))).to.be.instanceOf(PaymentDeclinedError);
    expect((await w.app.queries.getDebt.execute(other, scope)).amountPaidCents).to.equal(0);
  });

  it('refuses what the page would not offer: amounts, methods, cards, a bad form key, a paid debt', async () => {
    const { w, scope, debt } = await world();
    const id = await debt('order-1', { allowPartialPayments: false, paymentMethods: ['CARD', 'CASH'] });
    const target = { kind: 'debt' as const, companyCode: scope.company.code, debtId: id };
    const pay = (extra: Record<string, unknown>) => w.app.commands.payThroughPortal.execute({ target, method: 'CARD', submissionKey: KEY, ...extra });
    const fieldsOf = async (extra: Record<string, unknown>) => ((await rejection(pay(extra))) as InvalidRequestError).details.map((d) => d.field);
    expect(await fieldsOf({ amountCents: 100 })).to.deep.equal(['amount']);
    expect(await fieldsOf({ amountCents: 20_000 })).to.deep.equal(['amount']);
    expect(await fieldsOf({ method: 'CASH' })).to.deep.equal(['method']);
    expect(await fieldsOf({ card: { number: '1', expiry: 'x', cvc: '' } })).to.deep.equal(['cardNumber', 'cardExpiry', 'cardCvc']);
    expect(await fieldsOf({ submissionKey: 'short' })).to.deep.equal(['submission']);
    await w.app.commands.payDebt.execute(id, undefined, 'test-helper', scope);
    const refused = await rejection(pay({ card: { number: '4242424242424242', expiry: '12/40', cvc: '123' } }));
    expect(refused).to.be.instanceOf(NotPayableError);
    expect((refused as NotPayableError).reason).to.equal('PAID');
  });

  it('InstructThroughPortal: transfer and cash give the page\'s charge an instruction (the same one when sent again); cards are the processor\'s', async () => {
    const { w, scope, debt } = await world();
    const id = await debt('order-9', { paymentMethods: ['CARD', 'BANK_TRANSFER'] });
    const target = { kind: 'debt' as const, companyCode: scope.company.code, debtId: id };
    const given = await w.app.commands.instructThroughPortal.execute({ target, method: 'TRANSFER', amountCents: 1_000 });
    expect(given.paymentInstructionId).to.match(/^pin_/);
    expect(await w.app.commands.instructThroughPortal.execute({ target, method: 'TRANSFER' })).to.deep.equal(given);
    const [instruction] = await w.app.queries.listDebtPaymentInstructions.execute(id, scope);
    expect(instruction).to.deep.include({ method: 'TRANSFER', amountCents: 1_000, status: 'PENDING' });
    for (const method of ['CARD', 'CASH', 'CHEQUE']) {
      expect(((await rejection(w.app.commands.instructThroughPortal.execute({ target, method }))) as InvalidRequestError).details.map((d) => d.field)).to.deep.equal(['method']);
    }
    await w.app.commands.payDebt.execute(id, undefined, 'test-helper', scope);
    expect(await rejection(w.app.commands.instructThroughPortal.execute({ target, method: 'TRANSFER' }))).to.be.instanceOf(NotPayableError);
  });

  it('a private single-use link: its page by short code, its payment through applyLinkPayment, its successUrl', async () => {
    const { w, scope } = await world();
    const link = await w.app.commands.createPaymentLink.execute(
      { amountCents: 5_000, description: 'Entrada', expiresAt: new Date('2031-06-01T00:00:00Z'), successUrl: 'https://shop.example.com/ok' },
      scope,
    );
    const target = { kind: 'short-code' as const, shortCode: link.shortCode! };
    const outcome = await w.app.commands.payThroughPortal.execute({ target, method: 'WALLET', submissionKey: KEY });
    expect(outcome).to.deep.include({ successUrl: 'https://shop.example.com/ok', replayed: false });
    expect((await w.app.queries.getPaymentLink.execute(`plk_${link.code}`, scope)).status).to.equal('PAID');
    const page = await w.app.queries.getPortalPage.execute(target);
    expect(page.kind === 'link' && page.charge.payability).to.deep.equal({ payable: false, reason: 'LINK_PAID' });
    const receipt = await w.app.queries.getPortalReceipt.execute(outcome.receiptCode);
    expect(receipt.origin).to.deep.include({ kind: 'link', shortCode: link.shortCode });
  });

  it('enrollment: links need direct debit and a valid user; expired grants register nothing; a resent form registers once', async () => {
    const { w, scope } = await world();
    const issue = w.app.commands.issueEnrollmentLink;
    expect(await rejection(Promise.resolve().then(() => issue.execute({ externalClientId: 'a;b' }, scope)))).to.be.instanceOf(InvalidRequestError);
    expect(await rejection(Promise.resolve().then(() => issue.execute({ externalClientId: 'ana', expiresInSeconds: 1.5 }, scope)))).to.be.instanceOf(InvalidRequestError);
    const plain = await w.newTenant();
    expect(await rejection(Promise.resolve().then(() => issue.execute({ externalClientId: 'ana' }, plain.scope)))).to.be.instanceOf(BusinessRuleViolationError);
    expect(await rejection(issue.forCompany('NOPE', { externalClientId: 'ana' }))).to.be.instanceOf(NotFoundError);
    const grant = await issue.forCompany(scope.company.code, { externalClientId: 'ana', expiresInSeconds: 600 });
    expect(grant).to.deep.equal({ companyCode: scope.company.code, externalClientId: 'ana', currency: 'MXN', expiresAt: new Date(T0.getTime() + 600_000) });

    const input = { grant, type: 'BANK_ACCOUNT', accountNumber: '002010077777777771', makeDefault: false, submissionKey: KEY };
    const first = await w.app.commands.enrollThroughPage.execute(input);
    const again = await w.app.commands.enrollThroughPage.execute(input);
    expect(again).to.deep.equal({ method: first.method, replayed: true });
    expect(first.method).to.deep.include({ type: 'BANK_ACCOUNT', isDefault: true, maskedReference: 'CLABE •••• 7771' });
    expect(await w.app.queries.listPaymentMethods.execute('ana', scope)).to.have.length(1);

    w.clock.set(new Date(T0.getTime() + 600_000));
    expect((await w.app.queries.getEnrollmentPage.execute(grant)).status).to.equal('EXPIRED');
    expect(await rejection(w.app.commands.enrollThroughPage.execute({ ...input, submissionKey: 'submission0000000000002' }))).to.be.instanceOf(EnrollmentExpiredError);
    expect(await w.app.queries.listPaymentMethods.execute('ana', scope)).to.have.length(1);
  });
});
