import { expect } from 'chai';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import { memoryWorld, type MemoryWorld } from '../../support/memory-world';

/**
 * The cash and transfer use cases over the memory adapters: a notification delivered many times
 * at once records once; a card payment racing a notification leaves every cent either applied
 * or unapplied; a refund claim stops an apply; a provider that fails the issue leaves nothing.
 */
describe('payment instruction use cases (memory)', () => {
  let world: MemoryWorld;
  let scope: TenantScope;

  beforeEach(async () => {
    world = memoryWorld(new Date('2031-05-10T15:00:00.000Z'));
    scope = (await world.newTenant()).scope;
  });

  const draft = (overrides: Partial<DebtDraft> = {}): DebtDraft => ({
    debtor: { contactData: { externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' } }, product: null, amountCents: 10_000,
    dueDate: '2031-06-15', evaluateAutopay: false, ...overrides,
  } as DebtDraft);
  const newDebt = async (key: string, overrides: Partial<DebtDraft> = {}) => (await world.app.commands.createDebt.execute(draft(overrides), key, scope)).debt;
  const instruct = (debtId: string, method: 'TRANSFER' | 'CASH' = 'TRANSFER', amountCents?: number) =>
    world.app.commands.createPaymentInstruction.execute({ debtId, method, amountCents }, scope).then((r) => r.instruction);
  const deliver = async (id: string, amountCents?: number) => {
    const n = await world.app.commands.prepareSandboxNotification.execute(id, amountCents, scope);
    return { n, send: () => world.app.commands.receiveProviderNotification.execute({ provider: 'sandbox', headers: n.sign(world.clock.now()), body: n.body, requestId: null }) };
  };
  /** What the debt received, and what is kept unapplied in the company. */
  const sums = async (debtId: number) => {
    const debt = (await world.repos.debts.findById(scope.company.id, debtId))!;
    const unapplied = await world.repos.unappliedPayments.list(scope.company.id, {}, { page: 1, limit: 500 });
    return { paid: debt.amountPaidCents, unapplied: unapplied.items.reduce((s, u) => s + u.amountCents, 0) };
  };

  it('one notification delivered ten times at once is recorded once; each answer is its outcome', async () => {
    const debt = await newDebt('d1');
    const i = await instruct('d1');
    const { send } = await deliver(`pin_${i.code}`);
    const receipts = await Promise.all(Array.from({ length: 10 }, send));
    expect(receipts.filter((r) => !r.replayed)).to.have.length(1);
    expect(new Set(receipts.map((r) => r.notification.outcome))).to.deep.equal(new Set(['APPLIED']));
    expect(await sums(debt.id)).to.deep.equal({ paid: 10_000, unapplied: 0 });
  });

  it('a card payment and a notification racing on one debt: every cent applied once or unapplied once', async () => {
    const debt = await newDebt('d2');
    const i = await instruct('d2');
    const { send } = await deliver(`pin_${i.code}`);
    const [card] = await Promise.allSettled([world.app.commands.payDebt.execute('d2', undefined, 'portal', scope), send()]);
    expect(card.status).to.equal('fulfilled');
    expect(await sums(debt.id)).to.deep.equal({ paid: 10_000, unapplied: 10_000 });
  });

  it('a claimed refund stops an apply (422), and the refund completes with the same key', async () => {
    await newDebt('d3');
    const i = await instruct('d3');
    const { send } = await deliver(`pin_${i.code}`, 12_000);
    await send();
    const [money] = (await world.repos.unappliedPayments.list(scope.company.id, {}, { page: 1, limit: 1 })).items;
    await world.repos.unappliedPayments.setRefundRequested(money!.id, new Date());
    await newDebt('d4');
    const refused = await world.app.commands.applyUnappliedPayment.execute(`upy_${money!.code}`, 'd4', scope).catch((e: Error) => e);
    expect((refused as Error).message).to.match(/being refunded/);
    const refunded = await world.app.commands.refundUnappliedPayment.execute(`upy_${money!.code}`, scope);
    expect(refunded.resolution).to.deep.include({ action: 'REFUNDED' });
  });

  it('a provider that fails to issue leaves no instruction; one that issues a taken account is asked again', async () => {
    await newDebt('d5');
    const provider = world.infra.ports.paymentInstructionProvider;
    const issue = provider.issue.bind(provider);
    let calls = 0;
    let first = '';
    (provider as { issue: typeof issue }).issue = async (request) => {
      calls += 1;
      if (calls === 1) throw new Error('provider unavailable');
      const issued = await issue(request);
      if (calls === 2) first = issued.providerReference;
      // The third call repeats the second's account: the unique reference makes it try again.
      return calls === 3 && issued.method === 'TRANSFER' ? { ...issued, providerReference: first, transfer: { ...issued.transfer, accountNumber: first } } : issued;
    };
    expect(await instruct('d5').catch((e: Error) => e.message)).to.equal('provider unavailable');
    expect(await world.repos.paymentInstructions.listOfDebt(scope.company.id, (await world.repos.debts.findByExternalRequestId(scope.company.id, 'd5'))!.id)).to.deep.equal([]);
    const a = await instruct('d5', 'TRANSFER');
    await newDebt('d6');
    const b = await instruct('d6', 'TRANSFER');
    expect(b.providerReference).to.not.equal(a.providerReference);
    expect(calls).to.equal(4);
  });
});
