import { expect } from 'chai';
import { STALE_ATTEMPT_MS } from '../../../internal/direct-debit/jobs/execute-due-debits';
import { directDebitWorld, TODAY } from './direct-debit-world';

/** Attempts as [number, status, failureCode, retryOn]. */
type Row = [number, string, string | null, string | null];
const rows = (attempts: { attemptNumber: number; status: string; failureCode: string | null; retryOn: string | null }[]): Row[] =>
  attempts.map((a) => [a.attemptNumber, a.status, a.failureCode, a.retryOn]);
const at = (date: string) => new Date(`${date}T09:00:00.000Z`);

describe('direct debit: dunning (ExecuteDueDebits over memory)', () => {
  it('retries an INSUFFICIENT_FUNDS refusal on days 1, 3 and 7, each attempt with its own key, then gives up; the debt stays payable', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('broke', { dueDate: TODAY, amountCents: 10_013 });
    await d.drain();
    expect(rows(await d.attempts('broke'))).to.deep.equal([[1, 'FAILED', 'INSUFFICIENT_FUNDS', '2031-05-11']]);
    // Nothing before the retry date, however often the job runs.
    d.w.clock.set(new Date('2031-05-10T23:59:59.999Z'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    d.w.clock.set(at('2031-05-11'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 1, succeeded: 0, failed: 1 });
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    d.w.clock.set(at('2031-05-12'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    d.w.clock.set(at('2031-05-13'));
    await d.runDebits();
    d.w.clock.set(at('2031-05-17'));
    await d.runDebits();
    d.w.clock.set(at('2031-06-30'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    expect(rows(await d.attempts('broke'))).to.deep.equal([
      [1, 'FAILED', 'INSUFFICIENT_FUNDS', null],
      [2, 'FAILED', 'INSUFFICIENT_FUNDS', null],
      [3, 'FAILED', 'INSUFFICIENT_FUNDS', null],
      [4, 'FAILED', 'INSUFFICIENT_FUNDS', null],
    ]);
    expect(d.gateway.debits.map((r) => r.attemptNumber)).to.deep.equal([1, 2, 3, 4]);
    expect(new Set(d.gateway.debitKeys).size).to.equal(4);
    // Events per attempt, with the attempt number and the retry each refusal scheduled.
    const failed = await d.eventObjects('direct_debit.failed');
    expect(failed.map((o) => [o.attemptNumber, o.failureCode, o.nextAttemptOn])).to.deep.equal([
      [1, 'INSUFFICIENT_FUNDS', '2031-05-11'],
      [2, 'INSUFFICIENT_FUNDS', '2031-05-13'],
      [3, 'INSUFFICIENT_FUNDS', '2031-05-17'],
      [4, 'INSUFFICIENT_FUNDS', null],
    ]);
    expect((await d.eventObjects('direct_debit.attempted')).map((o) => o.attemptNumber)).to.deep.equal([1, 2, 3, 4]);
    expect(await d.debt('broke')).to.include({ amountPaidCents: 0 });
    await d.w.app.commands.payDebt.execute('broke', undefined, 'test-helper', d.scope);
    expect(await d.debt('broke')).to.include({ status: 'PAID' });
  });

  it('collects on a retry once the account has the funds, applying the payment once', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('recovers', { dueDate: TODAY, amountCents: 10_014 });
    await d.drain();
    expect(await d.debt('recovers')).to.include({ status: 'PENDING', amountPaidCents: 0 });
    d.w.clock.set(at('2031-05-11'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 1, succeeded: 1, failed: 0 });
    expect(await d.debt('recovers')).to.include({ status: 'PAID', amountPaidCents: 10_014 });
    expect(rows(await d.attempts('recovers'))).to.deep.equal([
      [1, 'FAILED', 'INSUFFICIENT_FUNDS', null],
      [2, 'SUCCEEDED', null, null],
    ]);
    d.w.clock.set(at('2031-05-20'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    const succeeded = await d.eventObjects('direct_debit.succeeded');
    expect(succeeded).to.have.length(1);
    expect(succeeded[0]).to.deep.include({ attemptNumber: 2, status: 'SUCCEEDED', amount: 100.14, failureCode: null, nextAttemptOn: null });
    expect((await d.eventTypes()).filter((t) => t === 'debt.paid')).to.have.length(1);
  });

  it('retries with the amount still owed, after a partial payment made meanwhile', async () => {
    let calls = 0;
    const d = await directDebitWorld(undefined, { outcome: () => (++calls === 1 ? 'INSUFFICIENT_FUNDS' : 'SUCCEEDED') });
    await d.register('ana');
    await d.createDebt('partly', { dueDate: TODAY, amountCents: 10_000 });
    await d.drain();
    await d.w.app.commands.payDebt.execute('partly', 2_500, 'test-helper', d.scope);
    d.w.clock.set(at('2031-05-11'));
    await d.runDebits();
    expect(d.gateway.debits.map((r) => [r.attemptNumber, r.amountCents])).to.deep.equal([[1, 10_000], [2, 7_500]]);
    expect(await d.debt('partly')).to.include({ status: 'PAID', amountPaidCents: 10_000 });
  });

  it('makes no retry for a debt paid or cancelled meanwhile', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('paid-by-hand', { dueDate: TODAY, amountCents: 10_013 });
    await d.createDebt('cancelled', { dueDate: TODAY, amountCents: 20_013 });
    await d.drain();
    await d.w.app.commands.payDebt.execute('paid-by-hand', undefined, 'test-helper', d.scope);
    await d.w.app.commands.cancelDebt.execute('cancelled', d.scope);
    d.w.clock.set(at('2031-05-11'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    expect(await d.attempts('paid-by-hand')).to.have.length(1);
    expect(await d.attempts('cancelled')).to.have.length(1);
  });

  it('holds a retry while the adhesion is INACTIVE and makes it once the user is enrolled again', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('paused', { dueDate: TODAY, amountCents: 10_014 });
    await d.drain();
    const ref = { productNumber: d.product.id };
    await d.w.app.commands.cancelAdhesion.execute('ana', ref, d.scope);
    d.w.clock.set(at('2031-05-12'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    await d.w.app.commands.enrollAdhesion.execute('ana', ref, d.scope);
    expect(await d.runDebits()).to.deep.equal({ attempted: 1, succeeded: 1, failed: 0 });
    expect(rows(await d.attempts('paused')).map((r) => r[1])).to.deep.equal(['FAILED', 'SUCCEEDED']);
  });

  it('gives a debt that does not allow overdue payment no retry (the retry would fall after its due date)', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('strict', { dueDate: TODAY, amountCents: 10_013, allowOverduePayment: false });
    await d.drain();
    expect(rows(await d.attempts('strict'))).to.deep.equal([[1, 'FAILED', 'INSUFFICIENT_FUNDS', null]]);
  });

  it('ACCOUNT_CLOSED is final: no retry, and the payment method becomes INACTIVE and stops being the default', async () => {
    const d = await directDebitWorld();
    const method = await d.register('ana');
    // The later debt first, so it is promised to the account before the first debit closes it
    // (the in-process queue may run the adhesion request as soon as a debt is created).
    await d.createDebt('next-month', { dueDate: '2031-06-10', amountCents: 5_000 });
    await d.drain();
    await d.createDebt('closed', { dueDate: TODAY, amountCents: 10_015 });
    await d.drain();
    expect(rows(await d.attempts('closed'))).to.deep.equal([[1, 'FAILED', 'ACCOUNT_CLOSED', null]]);
    const [listed] = await d.w.app.queries.listPaymentMethods.execute('ana', d.scope);
    expect(listed).to.include({ id: method.id, status: 'INACTIVE', isDefault: false });
    const [failed] = await d.eventObjects('direct_debit.failed');
    expect(failed).to.deep.include({ attemptNumber: 1, failureCode: 'ACCOUNT_CLOSED', nextAttemptOn: null, paymentMethodStatus: 'INACTIVE' });
    d.w.clock.set(at('2031-05-30'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    // A debt already promised to the closed account fails on its due date without reaching the bank.
    d.w.clock.set(at('2031-06-10'));
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 1 });
    expect(rows(await d.attempts('next-month'))).to.deep.equal([[1, 'FAILED', 'PAYMENT_METHOD_INACTIVE', null]]);
    expect(d.gateway.debits).to.have.length(1);
    // New debts see no default; the next registration becomes the default by itself.
    expect(await d.createDebt('after-close')).to.include({ autopay: false, autopayReason: 'NO_DEFAULT_PAYMENT_METHOD' });
    const replacement = await d.register('ana', 'BANK_ACCOUNT', false);
    expect(replacement).to.include({ isDefault: true, status: 'ACTIVE' });
    expect(await d.createDebt('with-new-account')).to.include({ autopay: true, autopayPaymentMethodId: replacement.id });
  });

  it('fails a subscription cycle whose earlier cycle is unpaid (enforcePaymentOrder) without charging and refunding it', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.w.app.commands.createSubscription.execute(
      {
        externalSubscriptionId: 'ordered',
        debtor: { externalClientId: 'ana' },
        amountCents: 5_013,
        schedule: { intervalUnit: 'month', intervalCount: 1, startDate: TODAY, totalCycles: 2 },
        productName: 'Gym',
        autopay: true,
        enforcePaymentOrder: true,
      },
      d.scope,
    );
    await d.drain();
    expect(rows(await d.attempts('ordered-cycle-0'))[0]).to.deep.equal([1, 'FAILED', 'INSUFFICIENT_FUNDS', '2031-05-11']);
    d.w.clock.set(at('2031-06-10'));
    await d.runDebits();
    // Cycle 0 is still unpaid (its overdue retry was refused again): cycle 1 cannot be paid before it.
    expect(rows(await d.attempts('ordered-cycle-1'))).to.deep.equal([[1, 'FAILED', 'DEBT_NOT_PAYABLE', null]]);
    expect(d.gateway.debits.map((r) => r.debtId)).to.not.include('debt_ordered-cycle-1');
    expect([...d.gateway.refunds]).to.deep.equal([]);
  });

  it('completes a crashed retry with its own key, charging it once, never reusing the key of the refused attempt', async () => {
    let calls = 0;
    const d = await directDebitWorld(undefined, { outcome: () => (++calls === 1 ? 'INSUFFICIENT_FUNDS' : 'SUCCEEDED') });
    await d.register('ana');
    await d.createDebt('crash-retry', { dueDate: TODAY });
    await d.drain();
    d.w.clock.set(at('2031-05-11'));
    d.gateway.crashAfterDebit = true;
    expect(await d.runDebits()).to.deep.equal({ attempted: 1, succeeded: 0, failed: 0 });
    expect(rows(await d.attempts('crash-retry'))).to.deep.equal([
      [1, 'FAILED', 'INSUFFICIENT_FUNDS', null],
      [2, 'PENDING', null, null],
    ]);
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    d.w.clock.advance(STALE_ATTEMPT_MS + 1);
    expect(await d.runDebits()).to.deep.equal({ attempted: 0, succeeded: 1, failed: 0 });
    const [first, retry, recovered] = d.gateway.debitKeys;
    expect(recovered).to.equal(retry);
    expect(first).to.not.equal(retry);
    expect(calls).to.equal(2);
    expect(await d.debt('crash-retry')).to.include({ status: 'PAID', amountPaidCents: 10_000 });
    expect((await d.eventTypes()).filter((t) => t === 'debt.paid')).to.have.length(1);
  });

  it('recovers stale attempts on their organization clock (a frozen future clock included)', async () => {
    const d = await directDebitWorld();
    await d.register('ana');
    await d.createDebt('frozen', { dueDate: TODAY });
    await d.drain();
    // The world clock (the real time of this test, 2031-05-10) stays; the organization's is frozen weeks ahead.
    await d.w.app.commands.setOrganizationClock.execute(new Date('2031-06-01T00:00:00.000Z'), d.scope);
    await d.createDebt('due-june', { dueDate: '2031-06-01' });
    d.gateway.crashAfterDebit = true;
    expect(await d.runDebits()).to.deep.include({ attempted: 1, succeeded: 0 });
    await d.w.app.commands.setOrganizationClock.execute(new Date(Date.UTC(2031, 5, 1) + STALE_ATTEMPT_MS + 1), d.scope);
    expect(await d.runDebits()).to.deep.include({ succeeded: 1 });
    expect(await d.debt('due-june')).to.include({ status: 'PAID' });
  });
});
