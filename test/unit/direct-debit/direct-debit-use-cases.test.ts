import { expect } from 'chai';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { STALE_ATTEMPT_MS } from '../../../internal/direct-debit/jobs/execute-due-debits';
import type { Product } from '../../../internal/products/product';
import { BusinessRuleViolationError, NotFoundError } from '../../../internal/shared/errors';
import { DAY_MS, directDebitWorld, T0, TODAY } from './direct-debit-world';

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the promise to reject');
}

describe('direct debit: use cases (memory)', () => {
  describe('RegisterPaymentMethod', () => {
    it("makes the user's first method the default, whatever isDefault says", async () => {
      const d = await directDebitWorld();
      const first = await d.register('ana', 'CARD_TOKENIZED', false);
      expect(first).to.include({ externalClientId: 'ana', type: 'CARD_TOKENIZED', isDefault: true, status: 'ACTIVE' });
      expect(first.createdAt).to.deep.equal(T0);
    });

    it('does not let a later method displace the default unless it asks to', async () => {
      const d = await directDebitWorld();
      const first = await d.register('ana');
      const second = await d.register('ana', 'CARD_TOKENIZED');
      expect(second.isDefault).to.equal(false);
      const third = await d.register('ana', 'BANK_ACCOUNT', true);
      expect(third.isDefault).to.equal(true);
      const listed = await d.w.app.queries.listPaymentMethods.execute('ana', d.scope);
      expect(listed.map((m) => [m.id, m.isDefault])).to.deep.equal([
        [first.id, false],
        [second.id, false],
        [third.id, true],
      ]);
    });

    it('stores the user trimmed, as contacts store theirs, and lists by the same value', async () => {
      const d = await directDebitWorld();
      expect(await d.register(' ana ')).to.include({ externalClientId: 'ana', isDefault: true });
      expect(await d.w.app.queries.listPaymentMethods.execute('ana ', d.scope)).to.have.length(1);
      expect(await d.w.app.queries.listPaymentMethods.execute('Ana', d.scope)).to.deep.equal([]);
    });

    it('keeps methods per user and per company, and records payment_method.registered', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      expect(await d.w.app.queries.listPaymentMethods.execute('bob', d.scope)).to.deep.equal([]);
      const { scope: other } = await d.w.newTenant();
      expect(await d.w.app.queries.listPaymentMethods.execute('ana', other)).to.deep.equal([]);
      expect(await d.eventTypes()).to.include('payment_method.registered');
    });
  });

  describe('EnrollAdhesion and CancelAdhesion', () => {
    const ref = (product: Product) => ({ productNumber: product.id });

    it('enrolls once (adhesion.created), answers an ACTIVE one unchanged, and reactivates a cancelled one', async () => {
      const d = await directDebitWorld();
      const first = await d.w.app.commands.enrollAdhesion.execute('ana', ref(d.product), d.scope);
      expect(first.changed).to.equal(true);
      expect(first.adhesion).to.include({ externalClientId: 'ana', productId: d.product.id, status: 'ACTIVE' });
      const again = await d.w.app.commands.enrollAdhesion.execute('ana', ref(d.product), d.scope);
      expect(again).to.deep.equal({ adhesion: first.adhesion, changed: false });
      const cancelled = await d.w.app.commands.cancelAdhesion.execute('ana', ref(d.product), d.scope);
      expect(cancelled).to.include({ id: first.adhesion.id, status: 'INACTIVE' });
      const cancelledAgain = await d.w.app.commands.cancelAdhesion.execute('ana', ref(d.product), d.scope);
      expect(cancelledAgain).to.deep.equal(cancelled);
      const back = await d.w.app.commands.enrollAdhesion.execute('ana', ref(d.product), d.scope);
      expect(back.changed).to.equal(true);
      expect(back.adhesion).to.include({ id: first.adhesion.id, status: 'ACTIVE' });
      expect((await d.eventTypes()).filter((t) => t.startsWith('adhesion.'))).to.deep.equal(['adhesion.created', 'adhesion.cancelled', 'adhesion.created']);
    });

    it('finds the product by externalProductId too; 404 when it does not exist, 422 to enroll in an inactive one', async () => {
      const d = await directDebitWorld();
      const pool = await d.w.app.commands.createProduct.execute({ name: 'Pool', externalProductId: 'SKU-pool' }, d.scope);
      expect((await d.w.app.commands.enrollAdhesion.execute('ana', { externalProductId: 'SKU-pool' }, d.scope)).adhesion.productId).to.equal(pool.id);
      expect(await rejection(d.w.app.commands.enrollAdhesion.execute('ana', { productNumber: 999_999 }, d.scope))).to.be.instanceOf(NotFoundError);
      await d.w.app.commands.deleteProduct.execute(`prd_${pool.id}`, d.scope);
      expect(await rejection(d.w.app.commands.enrollAdhesion.execute('bob', ref(pool), d.scope))).to.be.instanceOf(BusinessRuleViolationError);
      // Cancelling does not use the product: an adhesion to a deactivated product still ends.
      expect(await d.w.app.commands.cancelAdhesion.execute('ana', ref(pool), d.scope)).to.include({ status: 'INACTIVE' });
    });

    it('cannot cancel what was never enrolled (404)', async () => {
      const d = await directDebitWorld();
      expect(await rejection(d.w.app.commands.cancelAdhesion.execute('ana', ref(d.product), d.scope))).to.be.instanceOf(NotFoundError);
    });
  });

  describe('autopay on debt creation', () => {
    it('answers autopay true with the default method as instrument, enrolls the user, and collects the debt when due', async () => {
      const d = await directDebitWorld();
      const method = await d.register('ana');
      const created = await d.createDebt('due-today', { dueDate: TODAY });
      expect(created).to.deep.include({ autopay: true, autopayReason: null, autopayPaymentMethodId: method.id });
      expect(created.autopayInstrument).to.deep.equal(method);
      await d.drain();
      expect(await d.w.repos.adhesions.find(d.scope.company.id, 'ana', d.product.id)).to.include({ status: 'ACTIVE' });
      expect(d.gateway.adhesionKeys).to.have.length(1);
      expect(await d.debt('due-today')).to.include({ status: 'PAID', amountPaidCents: 10_000 });
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'SUCCEEDED', amountCents: 10_000, paymentMethodId: method.id });
      expect((await d.eventTypes()).filter((t) => !/^(contact|product)\./.test(t))).to.deep.equal([
        'payment_method.registered',
        'debt.created', 'adhesion.created', 'direct_debit.attempted', 'debt.paid', 'direct_debit.succeeded',
      ]);
    });

    it('collects a debt due later only once its due date comes (the scheduled job, on the organization clock)', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.createDebt('later', { dueDate: '2031-05-12' });
      await d.drain();
      expect(await d.debt('later')).to.include({ status: 'PENDING' });
      await d.w.app.jobs.executeDueDebits.execute();
      expect(await d.debt('later')).to.include({ status: 'PENDING' });
      d.w.clock.advance(2 * DAY_MS);
      const run = await d.w.app.jobs.executeDueDebits.execute();
      expect(run).to.deep.equal({ attempted: 1, succeeded: 1, failed: 0 });
      expect(await d.debt('later')).to.include({ status: 'PAID' });
      expect(await d.w.app.jobs.executeDueDebits.execute()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
    });

    it('gives each reason in order when a step fails, and creates the debt anyway', async () => {
      const off = await directDebitWorld({ directDebitEnabled: false, directDebitModality: true });
      expect(await off.createDebt('a', { product: null })).to.include({ autopay: false, autopayReason: 'NO_PRODUCT' });
      expect(await off.createDebt('b')).to.include({ autopay: false, autopayReason: 'DEFAULT_PAYMENT_METHODS_DISABLED_FOR_COMPANY' });
      const noModality = await directDebitWorld({ directDebitEnabled: true, directDebitModality: false });
      expect(await noModality.createDebt('c')).to.include({ autopay: false, autopayReason: 'COMPANY_WITHOUT_PRODUCT_MODALITY' });
      const d = await directDebitWorld();
      expect(await d.createDebt('d')).to.include({ autopay: false, autopayReason: 'NO_DEFAULT_PAYMENT_METHOD' });
      await d.register('ana', 'CARD_TOKENIZED');
      expect(await d.createDebt('e')).to.include({ autopay: false, autopayReason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED', autopayInstrument: null });
      expect(await d.debt('e')).to.include({ status: 'PENDING', autopayReason: 'DEFAULT_PAYMENT_METHOD_TYPE_NOT_SUPPORTED' });
    });

    it('does not evaluate a legacy debt that did not ask for autopay', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      expect(await d.createDebt('legacy', { evaluateAutopay: false })).to.include({ autopay: false, autopayReason: null });
    });

    it('answers ADHESION_EVENT_FAILED when the request cannot be emitted, keeps it for the next debt of the product, and never debits that debt', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      d.queue.down = true;
      const failed = await d.createDebt('f-1', { dueDate: TODAY });
      expect(failed).to.include({ autopay: false, autopayReason: 'ADHESION_EVENT_FAILED', autopayPaymentMethodId: null, autopayInstrument: null });
      expect(await d.debt('f-1')).to.include({ autopay: false, autopayReason: 'ADHESION_EVENT_FAILED' });
      expect(d.queue.refused.map((j) => j.name)).to.deep.equal(['direct-debit.request-adhesion']);
      // The periodic dispatcher leaves it to the product's next debt.
      d.queue.down = false;
      await d.w.app.jobs.dispatchOutbox.execute();
      await d.drain();
      expect(await d.w.repos.adhesions.find(d.scope.company.id, 'ana', d.product.id)).to.equal(null);
      // The next debt of the product (another user, no method even) emits it.
      await d.createDebt('f-2', { debtor: { externalClientId: 'bob' } });
      await d.drain();
      expect(await d.w.repos.adhesions.find(d.scope.company.id, 'ana', d.product.id)).to.include({ status: 'ACTIVE' });
      expect(await d.debt('f-1')).to.include({ status: 'PENDING' });
      expect(await d.w.repos.outbox.pendingInGroup(`adhesion-requests:product:${d.product.id}`, 10)).to.deep.equal([]);
    });

    it('emits a deferred request with the next debt of the product even when that debt does not ask for autopay', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      d.queue.down = true;
      await d.createDebt('g-1');
      d.queue.down = false;
      await d.createDebt('g-2', { evaluateAutopay: false });
      await d.drain();
      expect(await d.w.repos.adhesions.find(d.scope.company.id, 'ana', d.product.id)).to.include({ status: 'ACTIVE' });
    });

    it('in a batch, reads each default method once and emits one request per user and product', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.register('bob');
      const items = ['ana', 'bob', 'ana', 'cy', 'bob'].map((user, i) => ({
        externalRequestId: `b-${i}`,
        draft: { debtor: { externalClientId: user }, product: { productNumber: d.product.id }, amountCents: 1_000, dueDate: '2031-06-01', evaluateAutopay: true } as DebtDraft,
      }));
      let defaultsRead = 0;
      const findDefaults = d.w.repos.paymentMethods.findDefaults.bind(d.w.repos.paymentMethods);
      d.w.repos.paymentMethods.findDefaults = async (...args) => {
        defaultsRead++;
        return findDefaults(...args);
      };
      const result = await d.w.app.commands.createDebtBatch.execute(items, d.scope);
      expect(defaultsRead).to.equal(1);
      expect(result.outcomes.map((o) => [o.debt!.autopay, o.debt!.autopayReason])).to.deep.equal([
        [true, null], [true, null], [true, null], [false, 'NO_DEFAULT_PAYMENT_METHOD'], [true, null],
      ]);
      await d.drain();
      expect(d.gateway.adhesionKeys).to.have.length(2);
    });

    it('in a batch, answers ADHESION_EVENT_FAILED for every debt whose request could not go out', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      d.queue.down = true;
      const items = [0, 1].map((i) => ({
        externalRequestId: `bf-${i}`,
        draft: { debtor: { externalClientId: 'ana' }, product: { productNumber: d.product.id }, amountCents: 1_000, dueDate: '2031-06-01', evaluateAutopay: true } as DebtDraft,
      }));
      const result = await d.w.app.commands.createDebtBatch.execute(items, d.scope);
      expect(result.outcomes.map((o) => o.debt!.autopayReason)).to.deep.equal(['ADHESION_EVENT_FAILED', 'ADHESION_EVENT_FAILED']);
      expect((await d.debt('bf-1'))!.autopay).to.equal(false);
    });
  });

  describe('debit execution', () => {
    it('records a refused debit as FAILED with the reason, and the debt stays payable', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      const created = await d.createDebt('declined', { dueDate: TODAY, amountCents: 10_013 });
      await d.drain();
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS' });
      expect(await d.debt('declined')).to.include({ status: 'PENDING', amountPaidCents: 0 });
      expect(await d.eventTypes()).to.include('direct_debit.failed');
      await d.w.app.commands.payDebt.execute('declined', undefined, 'test-helper', d.scope);
      expect(await d.debt('declined')).to.include({ status: 'PAID' });
    });

    it('fails at once, without calling the platform, a debt that can no longer be paid (overdue, no overdue payment)', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.w.app.commands.enrollAdhesion.execute('ana', { productNumber: d.product.id }, d.scope);
      const created = await d.createDebt('strict', { dueDate: TODAY, allowOverduePayment: false });
      d.w.clock.advance(DAY_MS);
      await d.w.app.jobs.executeDueDebits.execute();
      await d.drain();
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'FAILED', failureCode: 'DEBT_NOT_PAYABLE' });
    });

    it('does not collect a user whose adhesion was cancelled', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.createDebt('later', { dueDate: '2031-05-11' });
      await d.drain();
      await d.w.app.commands.cancelAdhesion.execute('ana', { productNumber: d.product.id }, d.scope);
      d.w.clock.advance(DAY_MS);
      expect(await d.w.app.jobs.executeDueDebits.execute()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 0 });
      expect(await d.debt('later')).to.include({ status: 'PENDING' });
    });

    it('completes an attempt whose worker died after the platform took the debit, with the same key, charging once', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.w.app.commands.enrollAdhesion.execute('ana', { productNumber: d.product.id }, d.scope);
      const created = await d.createDebt('crash', { dueDate: '2031-05-11' });
      await d.drain();
      d.w.clock.advance(DAY_MS);
      d.gateway.crashAfterDebit = true;
      expect(await d.w.app.jobs.executeDueDebits.execute()).to.deep.equal({ attempted: 1, succeeded: 0, failed: 0 });
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'PENDING' });
      expect(await d.debt('crash')).to.include({ status: 'PENDING' });
      // Not yet stale: nothing happens.
      await d.w.app.jobs.executeDueDebits.execute();
      expect(d.gateway.debitKeys).to.have.length(1);
      d.w.clock.advance(STALE_ATTEMPT_MS + 1);
      expect(await d.w.app.jobs.executeDueDebits.execute()).to.deep.equal({ attempted: 0, succeeded: 1, failed: 0 });
      expect(d.gateway.debitKeys).to.have.length(2);
      expect(new Set(d.gateway.debitKeys).size).to.equal(1);
      expect(await d.debt('crash')).to.include({ status: 'PAID', amountPaidCents: 10_000 });
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'SUCCEEDED' });
    });

    it('refunds a debit the debt can no longer take (paid another way meanwhile) and closes the attempt FAILED', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      await d.w.app.commands.enrollAdhesion.execute('ana', { productNumber: d.product.id }, d.scope);
      const created = await d.createDebt('raced', { dueDate: '2031-05-11' });
      await d.drain();
      d.w.clock.advance(DAY_MS);
      d.gateway.crashAfterDebit = true;
      await d.w.app.jobs.executeDueDebits.execute();
      await d.w.app.commands.payDebt.execute('raced', undefined, 'test-helper', d.scope);
      d.w.clock.advance(STALE_ATTEMPT_MS + 1);
      expect(await d.w.app.jobs.executeDueDebits.execute()).to.deep.equal({ attempted: 0, succeeded: 0, failed: 1 });
      expect((await d.w.repos.debitAttempts.listByDebt(created.id))[0]).to.include({ status: 'FAILED', failureCode: 'DEBT_NOT_PAYABLE' });
      expect([...d.gateway.refunds]).to.have.length(1);
      expect(await d.debt('raced')).to.include({ status: 'PAID', amountPaidCents: 10_000 });
    });
  });

  describe('subscription cycles', () => {
    it('evaluates the user and product once per generation and emits one request for all cycles', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      const sub = await d.w.app.commands.createSubscription.execute(
        {
          externalSubscriptionId: 'gym-ana',
          debtor: { externalClientId: 'ana' },
          amountCents: 5_000,
          schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles: 3 },
          productName: 'Gym',
          autopay: true,
        },
        d.scope,
      );
      await d.drain();
      const cycles = await d.w.repos.debts.openOfSubscription(sub.id);
      expect(cycles.map((c) => [c.autopay, c.autopayReason])).to.deep.equal([[true, null], [true, null], [true, null]]);
      expect(d.gateway.adhesionKeys).to.have.length(1);
    });

    it('gives the cycles of a subscription without autopay no evaluation', async () => {
      const d = await directDebitWorld();
      await d.register('ana');
      const sub = await d.w.app.commands.createSubscription.execute(
        {
          externalSubscriptionId: 'gym-manual',
          debtor: { externalClientId: 'ana' },
          amountCents: 5_000,
          schedule: { intervalUnit: 'month', intervalCount: 1, startDate: '2031-06-01', totalCycles: 2 },
          productName: 'Gym',
        },
        d.scope,
      );
      await d.drain();
      const cycles = await d.w.repos.debts.openOfSubscription(sub.id);
      expect(cycles.map((c) => [c.autopay, c.autopayReason])).to.deep.equal([[false, null], [false, null]]);
    });
  });
});
