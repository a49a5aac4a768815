import { expect } from 'chai';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import type { LoggedEvent } from '../../../ports/event-log';
import { memoryWorld } from '../../support/memory-world';

/** Every state change of the debts module appends its event in the change's transaction. */

const T0 = new Date('2031-05-10T15:00:00.000Z');
const DAY_MS = 86_400_000;

async function world() {
  const w = memoryWorld(T0);
  const { scope } = await w.newTenant();
  await w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, scope);
  const draft = (overrides: Partial<DebtDraft> = {}): DebtDraft => ({
    debtor: { externalClientId: 'ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-20', evaluateAutopay: true, ...overrides,
  });
  const events = async (): Promise<LoggedEvent[]> => (await w.repos.events.list(scope.company.id, {}, { page: 1, limit: 500 })).items.reverse();
  const since = async (count: number) => (await events()).slice(count);
  return { w, scope, draft, events, since };
}

const summary = (events: LoggedEvent[]) =>
  events.map((e) => {
    const object = (e.payload.data as { object: Record<string, unknown> }).object;
    return [e.type, e.resourceId, object.status ?? null];
  });

describe('debts: events (memory)', () => {
  it('debt.created for a single debt, with the debt as GET shows it and the request that caused it', async () => {
    const { w, scope, draft, events } = await world();
    const { debt } = await w.app.commands.createDebt.execute(draft(), 'order-1', { ...scope, requestId: 'req_abc' });
    const [event] = (await events()).filter((e) => e.type.startsWith('debt.'));
    expect(event).to.deep.include({ type: 'debt.created', resourceId: 'debt_order-1', requestId: 'req_abc', createdAt: debt.createdAt });
    expect(event!.payload).to.deep.include({ type: 'debt.created', companyCode: scope.company.code, requestId: 'req_abc', createdAt: T0.toISOString() });
    const object = (event!.payload.data as { object: Record<string, unknown> }).object;
    expect(object).to.deep.include({ debtId: 'debt_order-1', status: 'PENDING', amount: 100, amountPaid: 0, dueDate: '2031-05-20' });
    expect(object).to.not.have.property('autopay');
  });

  it('a replay writes no event', async () => {
    const { w, scope, draft, events } = await world();
    await w.app.commands.createDebt.execute(draft(), 'order-1', scope);
    const before = (await events()).length;
    await w.app.commands.createDebt.execute(draft(), 'order-1', scope);
    expect(await events()).to.have.length(before);
  });

  it('contact.created / contact.updated for contactData, product.created for a legacy productName', async () => {
    const { w, scope, draft, since, events } = await world();
    const start = (await events()).length;
    await w.app.commands.createDebt.execute(
      draft({ debtor: { contactData: { externalClientId: 'bob', name: 'Bob', email: 'bob@example.com' } }, product: { productName: 'Gym' }, evaluateAutopay: false }),
      'legacy-1',
      scope,
    );
    await w.app.commands.createDebt.execute(draft({ debtor: { contactData: { externalClientId: 'bob', name: 'Bobby', email: 'bob@example.com' } } }), 'v2-1', scope);
    expect((await since(start)).map((e) => e.type)).to.deep.equal(['product.created', 'contact.created', 'debt.created', 'contact.updated', 'debt.created']);
  });

  it('debt.created for each debt a batch writes, none for an item that already existed', async () => {
    const { w, scope, draft, since, events } = await world();
    await w.app.commands.createDebt.execute(draft(), 'b-0', scope);
    const start = (await events()).length;
    await w.app.commands.createDebtBatch.execute(['b-0', 'b-1', 'b-2'].map((key) => ({ externalRequestId: key, draft: draft() })), scope);
    expect(summary(await since(start))).to.deep.equal([
      ['debt.created', 'debt_b-1', 'PENDING'],
      ['debt.created', 'debt_b-2', 'PENDING'],
    ]);
  });

  it('debt.updated, debt.partially_paid, debt.paid and debt.cancelled, each with the new state', async () => {
    const { w, scope, draft, since, events } = await world();
    await w.app.commands.createDebt.execute(draft(), 'd-1', scope);
    await w.app.commands.createDebt.execute(draft(), 'd-2', scope);
    const start = (await events()).length;
    await w.app.commands.updateDebt.execute('d-1', { amountCents: 20_000 }, scope);
    await w.app.commands.payDebt.execute('d-1', 5_000, 'test-helper', scope);
    await w.app.commands.payDebt.execute('d-1', undefined, 'test-helper', scope);
    await w.app.commands.cancelDebt.execute('d-2', scope);
    expect(summary(await since(start))).to.deep.equal([
      ['debt.updated', 'debt_d-1', 'PENDING'],
      ['debt.partially_paid', 'debt_d-1', 'PARTIALLY_PAID'],
      ['debt.paid', 'debt_d-1', 'PAID'],
      ['debt.cancelled', 'debt_d-2', 'CANCELLED'],
    ]);
  });

  it('a failed change writes no event (the transaction rolls back)', async () => {
    const { w, scope, draft, events } = await world();
    await w.app.commands.createDebt.execute(draft({ allowPartialPayments: false }), 'd-1', scope);
    const before = (await events()).length;
    await w.app.commands.payDebt.execute('d-1', 10, 'test-helper', scope).catch(() => undefined);
    await w.app.commands.cancelDebt.execute('d-1', scope);
    await w.app.commands.cancelDebt.execute('d-1', scope).catch(() => undefined);
    expect((await events()).slice(before).map((e) => e.type)).to.deep.equal(['debt.cancelled']);
  });

  it('debt.overdue once per debt when the job persists OVERDUE, on the organization clock', async () => {
    const { w, scope, draft, since, events } = await world();
    await w.app.commands.createDebt.execute(draft({ dueDate: '2031-05-11' }), 'late', scope);
    const start = (await events()).length;
    expect(await w.app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 0 });
    w.clock.advance(2 * DAY_MS);
    expect(await w.app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 1 });
    expect(await w.app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 0 });
    const overdue = await since(start);
    expect(summary(overdue)).to.deep.equal([['debt.overdue', 'debt_late', 'OVERDUE']]);
    expect(overdue[0]).to.deep.include({ requestId: null, clientUserId: null });
  });

  it('payment_link.paid when paying a single-use link\'s debt directly makes the link PAID', async () => {
    const { w, scope, since, events } = await world();
    const link = await w.app.commands.createPaymentLink.execute(
      { amountCents: 3_000, description: 'Invoice', expiresAt: new Date(T0.getTime() + DAY_MS) },
      scope,
    );
    const start = (await events()).length;
    await w.app.commands.payDebt.execute(`debt_${link.debtExternalRequestId}`, undefined, 'test-helper', scope);
    expect(summary(await since(start))).to.deep.equal([
      ['debt.paid', `debt_${link.debtExternalRequestId}`, 'PAID'],
      ['payment_link.paid', `plk_${link.code}`, 'PAID'],
    ]);
  });
});
