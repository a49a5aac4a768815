/**
 * Direct-debit storage: payment method references (one default per user), adhesions (one per
 * user and product), debit attempts (one per debt and attempt number), the debts the debit job
 * collects (first attempts and due retries), and the
 * outbox groups that hold adhesion requests.
 */
import { expect } from 'chai';
import type { PaymentMethodReference, PaymentMethodType } from '../../internal/direct-debit/payment-method';
import type { NewDebitAttempt } from '../../ports/debit-attempt-repository';
import type { NewPaymentMethod } from '../../ports/payment-method-repository';
import type { Job } from '../../ports/job-queue';
import type { Repositories } from '../../ports/unit-of-work';
import { expectConflict, newContact, newDebt, newProduct, newTenant, T1, T2, type TenantFixture, uid } from './fixtures';
import type { ContractContext } from './repositories.contract';
import { contend, expectDidNotWait, expectWaited } from './contention';

function newMethod(t: TenantFixture, externalClientId: string, overrides: Partial<NewPaymentMethod> = {}): NewPaymentMethod {
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    code: `pm${uid()}`,
    externalClientId,
    type: 'BANK_ACCOUNT' as PaymentMethodType,
    isDefault: false,
    status: 'ACTIVE',
    maskedReference: 'CLABE •••• 1234',
    createdAt: T1,
    ...overrides,
  };
}

async function autopayFixture(repos: Repositories) {
  const t = await newTenant(repos);
  const contact = await repos.contacts.insert(newContact(t.organization.id, { externalClientId: `user-${uid()}` }));
  const product = await repos.products.insert(newProduct(t.company));
  const method = await repos.paymentMethods.insert(newMethod(t, contact.externalClientId, { isDefault: true }));
  const autopayDebt = (key: string, dueDate: string, overrides = {}) =>
    repos.debts.insert(newDebt({ ...t, contact }, { externalRequestId: key, dueDate, productId: product.id, autopay: true, autopayPaymentMethodId: method.id, ...overrides }));
  const enroll = (status: 'ACTIVE' | 'INACTIVE' = 'ACTIVE') =>
    repos.adhesions.insert({
      organizationId: t.organization.id, companyId: t.company.id, code: `adh${uid()}`, externalClientId: contact.externalClientId,
      productId: product.id, status, createdAt: T1, updatedAt: T1,
    });
  const attempt = (debtId: number, overrides: Partial<NewDebitAttempt> = {}) =>
    repos.debitAttempts.insert({
      organizationId: t.organization.id, companyId: t.company.id, code: `dda${uid()}`, debtId, attemptNumber: 1, paymentMethodId: method.id,
      amountCents: 10_000, status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS', retryOn: null, createdAt: T1, completedAt: T1, ...overrides,
    });
  return { t, contact, product, method, autopayDebt, enroll, attempt };
}

export function describeDirectDebitContract({ repos, uow, contention }: ContractContext): void {
  describe('PaymentMethodRepository', () => {
    it('round-trips a reference, and lists a user\'s methods oldest first in its company only', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const first = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      const second = await repos().paymentMethods.insert(newMethod(t, 'u-1', { type: 'CARD_TOKENIZED', maskedReference: null, createdAt: T2 }));
      await repos().paymentMethods.insert(newMethod({ ...t, company: t.companies[1]! }, 'u-1'));
      expect(first).to.deep.include({ externalClientId: 'u-1', type: 'BANK_ACCOUNT', isDefault: true, status: 'ACTIVE', maskedReference: 'CLABE •••• 1234', createdAt: T1 });
      expect(await repos().paymentMethods.listOfClient(t.company.id, 'u-1')).to.deep.equal([first, second]);
      expect(await repos().paymentMethods.listOfClient(t.company.id, 'u-2')).to.deep.equal([]);
      expect(await repos().paymentMethods.findById(t.company.id, second.id)).to.deep.equal(second);
      expect(await repos().paymentMethods.findById(t.companies[1]!.id, second.id)).to.equal(null);
    });

    it('keeps one default per user: a second default is a conflict until the first is cleared', async () => {
      const t = await newTenant(repos());
      const first = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      await expectConflict(repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true })));
      await repos().paymentMethods.insert(newMethod(t, 'u-2', { isDefault: true }));
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-1')).to.deep.equal(first);
      await repos().paymentMethods.clearDefault(t.company.id, 'u-1');
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-1')).to.equal(null);
      const next = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-1')).to.deep.equal(next);
      expect((await repos().paymentMethods.findById(t.company.id, first.id))!.isDefault).to.equal(false);
    });

    it('clears a default only for that user and company; with no default it is a no-op', async () => {
      const t = await newTenant(repos(), { companies: 2 });
      const mine = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      const other = await repos().paymentMethods.insert(newMethod(t, 'u-2', { isDefault: true }));
      const sibling = await repos().paymentMethods.insert(newMethod({ ...t, company: t.companies[1]! }, 'u-1', { isDefault: true }));
      await repos().paymentMethods.clearDefault(t.company.id, 'u-3');
      await repos().paymentMethods.clearDefault(t.company.id, 'u-1');
      await repos().paymentMethods.clearDefault(t.company.id, 'u-1');
      expect(await repos().paymentMethods.findById(t.company.id, mine.id)).to.deep.equal({ ...mine, isDefault: false });
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-2')).to.deep.equal(other);
      expect(await repos().paymentMethods.findDefault(t.companies[1]!.id, 'u-1')).to.deep.equal(sibling);
    });

    it('deactivates a method: INACTIVE, no longer the default, and the user may get a new default', async () => {
      const t = await newTenant(repos());
      const closed = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      const other = await repos().paymentMethods.insert(newMethod(t, 'u-1', { createdAt: T2 }));
      const deactivated = await repos().paymentMethods.deactivate(t.company.id, closed.id);
      expect(deactivated).to.deep.equal({ ...closed, status: 'INACTIVE', isDefault: false });
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-1')).to.equal(null);
      expect(await repos().paymentMethods.findDefaults(t.company.id, ['u-1'])).to.deep.equal([]);
      expect(await repos().paymentMethods.listOfClient(t.company.id, 'u-1')).to.deep.equal([deactivated, other]);
      const next = await repos().paymentMethods.insert(newMethod(t, 'u-1', { isDefault: true }));
      expect(await repos().paymentMethods.findDefault(t.company.id, 'u-1')).to.deep.equal(next);
      const again = await repos().paymentMethods.deactivate(t.company.id, next.id);
      expect(again).to.deep.include({ status: 'INACTIVE', isDefault: false });
    });

    it('of 10 concurrent first registrations as default, exactly one becomes the default', async () => {
      const t = await newTenant(repos());
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () => uow().run((tx) => tx.paymentMethods.insert(newMethod(t, 'racer', { isDefault: true })))),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      expect((await repos().paymentMethods.listOfClient(t.company.id, 'racer')).filter((m) => m.isDefault)).to.have.length(1);
    });

    it('finds the defaults of many users in one call', async () => {
      const t = await newTenant(repos());
      const a = await repos().paymentMethods.insert(newMethod(t, 'a', { isDefault: true }));
      await repos().paymentMethods.insert(newMethod(t, 'b'));
      const c = await repos().paymentMethods.insert(newMethod(t, 'c', { isDefault: true }));
      const found = await repos().paymentMethods.findDefaults(t.company.id, ['a', 'b', 'c', 'nobody']);
      expect(found.map((m: PaymentMethodReference) => m.id).sort()).to.deep.equal([a.id, c.id].sort());
      expect(await repos().paymentMethods.findDefaults(t.company.id, [])).to.deep.equal([]);
    });
  });

  describe('AdhesionRepository', () => {
    it('round-trips an adhesion with its product, one per user and product, and changes its status', async () => {
      const { t, contact, product, enroll } = await autopayFixture(repos());
      const inserted = await enroll();
      expect(inserted).to.deep.include({ externalClientId: contact.externalClientId, productId: product.id, status: 'ACTIVE', createdAt: T1 });
      expect(inserted).to.not.have.property('product');
      const adhesion = { ...inserted, product: { id: product.id, name: product.name, active: true } };
      await expectConflict(enroll());
      // The conflict leaves the transaction it ran in usable (EnrollAdhesion locks the adhesion next).
      expect(
        await uow().run(async (tx) => {
          await expectConflict(tx.adhesions.insert({ ...inserted, code: `adh${uid()}` }));
          return tx.adhesions.lock(t.company.id, contact.externalClientId, product.id);
        }),
      ).to.deep.equal(adhesion);
      expect(await repos().adhesions.find(t.company.id, contact.externalClientId, product.id)).to.deep.equal(adhesion);
      expect(await uow().run((tx) => tx.adhesions.lock(t.company.id, contact.externalClientId, product.id))).to.deep.equal(adhesion);
      const cancelled = await repos().adhesions.setStatus(t.company.id, adhesion.id, 'INACTIVE', T2);
      expect(cancelled).to.deep.equal({ ...adhesion, status: 'INACTIVE', updatedAt: T2 });
      expect(await repos().adhesions.find(t.company.id, 'someone-else', product.id)).to.equal(null);
    });
  });

  describe('AdhesionRepository: lock', () => {
    it('holds a second lock until the first commits: it reads the status the first one set', async () => {
      const { t, contact, product, enroll } = await autopayFixture(repos());
      const adhesion = await enroll();
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.adhesions.lock(t.company.id, contact.externalClientId, product.id))!;
          await hold();
          return tx.adhesions.setStatus(t.company.id, locked.id, 'INACTIVE', T2);
        },
        (tx) => tx.adhesions.lock(t.company.id, contact.externalClientId, product.id),
      );
      expectWaited(outcome, contention());
      expect(outcome.second).to.deep.equal({ ...adhesion, status: 'INACTIVE', updatedAt: T2, product: { id: product.id, name: product.name, active: true } });
    });
  });

  describe('DebtRepository: direct debit', () => {
    it('reads an autopay debt with its instrument', async () => {
      const { t, method, autopayDebt } = await autopayFixture(repos());
      const debt = await autopayDebt('ap-1', '2026-06-01');
      const read = await repos().debts.findByExternalRequestId(t.company.id, 'ap-1');
      expect(read!.autopayPaymentMethodId).to.equal(method.id);
      expect(read!.autopayInstrument).to.deep.equal(method);
      expect(await repos().debts.findById(t.company.id, debt.id)).to.deep.equal(read);
    });

    it('finds autopay debts due by today, unpaid, not attempted, whose user has an ACTIVE adhesion, by due date', async () => {
      const { t, contact, product, autopayDebt, enroll, attempt } = await autopayFixture(repos());
      const adhesion = await enroll();
      await autopayDebt('due-later', '2026-06-02');
      await autopayDebt('due-today', '2026-06-01');
      await autopayDebt('overdue', '2026-05-01', { status: 'OVERDUE' });
      await autopayDebt('partly', '2026-05-15', { status: 'PARTIALLY_PAID', amountPaidCents: 100 });
      await autopayDebt('paid', '2026-05-01', { status: 'PAID', amountPaidCents: 10_000 });
      await autopayDebt('cancelled', '2026-05-01', { status: 'CANCELLED' });
      await autopayDebt('manual', '2026-05-01', { autopay: false, autopayPaymentMethodId: null });
      const attempted = await autopayDebt('attempted', '2026-05-02');
      await attempt(attempted.id, { failureCode: 'ACCOUNT_CLOSED' });
      const scope = { organizationId: t.organization.id, today: '2026-06-01' };
      expect((await repos().debts.dueForDebit(scope, 50)).map((d) => d.externalRequestId)).to.deep.equal(['overdue', 'partly', 'due-today']);
      expect((await repos().debts.dueForDebit(scope, 1)).map((d) => d.externalRequestId)).to.deep.equal(['overdue']);
      const only = { companyId: t.company.id, externalClientId: contact.externalClientId, productId: product.id };
      expect(await repos().debts.dueForDebit({ ...scope, only: { ...only, externalClientId: 'other' } }, 50)).to.deep.equal([]);
      expect(await repos().debts.dueForDebit({ ...scope, only }, 50)).to.have.length(3);
      await repos().adhesions.setStatus(t.company.id, adhesion.id, 'INACTIVE', T2);
      expect(await repos().debts.dueForDebit(scope, 50)).to.deep.equal([]);
    });

    it('finds refused debts again once their retry is due, and never while an attempt is PENDING or after a final one', async () => {
      const { t, autopayDebt, enroll, attempt } = await autopayFixture(repos());
      await enroll();
      const retryToday = await autopayDebt('retry-today', '2026-05-20');
      await attempt(retryToday.id, { retryOn: '2026-06-01' });
      const retryLater = await autopayDebt('retry-later', '2026-05-10');
      await attempt(retryLater.id, { retryOn: '2026-06-02' });
      const second = await autopayDebt('second-due', '2026-05-01');
      await attempt(second.id, { retryOn: null });
      await attempt(second.id, { attemptNumber: 2, retryOn: '2026-05-31' });
      const inFlight = await autopayDebt('in-flight', '2026-05-01');
      await attempt(inFlight.id, { retryOn: null });
      await attempt(inFlight.id, { attemptNumber: 2, status: 'PENDING', failureCode: null, completedAt: null });
      const succeeded = await autopayDebt('succeeded', '2026-05-01', { status: 'PARTIALLY_PAID', amountPaidCents: 100 });
      await attempt(succeeded.id, { status: 'SUCCEEDED', failureCode: null });
      const scope = { organizationId: t.organization.id, today: '2026-06-01' };
      expect((await repos().debts.dueForDebit(scope, 50)).map((d) => d.externalRequestId)).to.deep.equal(['second-due', 'retry-today']);
      expect((await repos().debts.dueForDebit({ ...scope, today: '2026-06-02' }, 50)).map((d) => d.externalRequestId)).to.deep.equal([
        'second-due', 'retry-later', 'retry-today',
      ]);
    });

    it('withdraws autopay from the debts named, with the reason, and nothing else', async () => {
      const { t, autopayDebt } = await autopayFixture(repos());
      const one = await autopayDebt('w-1', '2026-06-01');
      await autopayDebt('w-2', '2026-06-01');
      await repos().debts.withdrawAutopay(t.company.id, [one.id], 'ADHESION_EVENT_FAILED', T2);
      const [w1, w2] = await repos().debts.findByExternalRequestIds(t.company.id, ['w-1', 'w-2']).then((d) => d.sort((a, b) => a.id - b.id));
      expect(w1).to.deep.include({ autopay: false, autopayReason: 'ADHESION_EVENT_FAILED', autopayPaymentMethodId: null, autopayInstrument: null, updatedAt: T2 });
      expect(w2).to.deep.include({ autopay: true });
    });
  });

  describe('DebitAttemptRepository', () => {
    it('keeps one attempt per debt and number, completes it once with its retry date, and finds stale PENDING ones of its organization', async () => {
      const { t, method, autopayDebt } = await autopayFixture(repos());
      const debt = await autopayDebt('d-1', '2026-06-01');
      const input = {
        organizationId: t.organization.id, companyId: t.company.id, code: `dda${uid()}`, debtId: debt.id, attemptNumber: 1, paymentMethodId: method.id,
        amountCents: 10_000, status: 'PENDING' as const, failureCode: null, retryOn: null, createdAt: T1, completedAt: null,
      };
      const attempt = await repos().debitAttempts.insert(input);
      expect(attempt).to.deep.equal({ ...input, id: attempt.id });
      await expectConflict(repos().debitAttempts.insert({ ...input, code: `dda${uid()}` }));
      expect(await repos().debitAttempts.listByDebt(debt.id)).to.deep.equal([attempt]);
      expect((await repos().debitAttempts.stalePending(t.organization.id, T2, 10)).map((a) => a.id)).to.include(attempt.id);
      expect((await repos().debitAttempts.stalePending(t.organization.id, T1, 10)).map((a) => a.id)).to.not.include(attempt.id);
      const other = await newTenant(repos());
      expect(await repos().debitAttempts.stalePending(other.organization.id, T2, 10)).to.deep.equal([]);
      expect(await uow().run((tx) => tx.debitAttempts.lockPending(attempt.id))).to.deep.equal(attempt);
      const done = await repos().debitAttempts.complete(attempt.id, 'FAILED', 'INSUFFICIENT_FUNDS', T2, '2026-06-02');
      expect(done).to.deep.equal({ ...attempt, status: 'FAILED', failureCode: 'INSUFFICIENT_FUNDS', retryOn: '2026-06-02', completedAt: T2 });
      expect(await uow().run((tx) => tx.debitAttempts.lockPending(attempt.id))).to.equal(null);
      expect((await repos().debitAttempts.stalePending(t.organization.id, T2, 10)).map((a) => a.id)).to.not.include(attempt.id);
      // The retry: attempt 2 of the same debt, with a key of its own; attempt 1 no longer waits.
      const retry = await repos().debitAttempts.insert({ ...input, code: `dda${uid()}`, attemptNumber: 2, createdAt: T2 });
      await repos().debitAttempts.clearRetry(attempt.id);
      const succeeded = await repos().debitAttempts.complete(retry.id, 'SUCCEEDED', null, T2);
      expect(await repos().debitAttempts.listByDebt(debt.id)).to.deep.equal([{ ...done, retryOn: null }, succeeded]);
      expect(succeeded).to.deep.include({ attemptNumber: 2, status: 'SUCCEEDED', failureCode: null, retryOn: null });
    });

    it('of 10 concurrent inserts of the same attempt, exactly one is stored', async () => {
      const { t, method, autopayDebt } = await autopayFixture(repos());
      const debt = await autopayDebt('racer', '2026-06-01');
      const outcomes = await Promise.allSettled(
        Array.from({ length: 10 }, () =>
          uow().run((tx) =>
            tx.debitAttempts.insert({
              organizationId: t.organization.id, companyId: t.company.id, code: `dda${uid()}`, debtId: debt.id, attemptNumber: 2, paymentMethodId: method.id,
              amountCents: 10_000, status: 'PENDING', failureCode: null, retryOn: null, createdAt: T1, completedAt: null,
            }),
          ),
        ),
      );
      expect(outcomes.filter((o) => o.status === 'fulfilled')).to.have.length(1);
      expect(await repos().debitAttempts.listByDebt(debt.id)).to.have.length(1);
    });
  });

  describe('DebitAttemptRepository: lockPending', () => {
    it('of two workers settling one PENDING attempt, only the first gets it: the second waits, then finds it settled (null)', async () => {
      const { t, method, autopayDebt } = await autopayFixture(repos());
      const debt = await autopayDebt('settle', '2026-06-01');
      const attempt = await repos().debitAttempts.insert({
        organizationId: t.organization.id, companyId: t.company.id, code: `dda${uid()}`, debtId: debt.id, attemptNumber: 1, paymentMethodId: method.id,
        amountCents: 10_000, status: 'PENDING', failureCode: null, retryOn: null, createdAt: T1, completedAt: null,
      });
      const settle = async (tx: Repositories, status: 'SUCCEEDED' | 'FAILED') => {
        const locked = await tx.debitAttempts.lockPending(attempt.id);
        return locked && tx.debitAttempts.complete(locked.id, status, status === 'FAILED' ? 'INSUFFICIENT_FUNDS' : null, T2);
      };
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.debitAttempts.lockPending(attempt.id))!;
          await hold();
          return tx.debitAttempts.complete(locked.id, 'SUCCEEDED', null, T2);
        },
        (tx) => settle(tx, 'FAILED'),
      );
      expectWaited(outcome, contention());
      expect(outcome.second, 'the second worker found nothing PENDING to settle').to.equal(null);
      expect(await repos().debitAttempts.listByDebt(debt.id)).to.deep.equal([{ ...attempt, status: 'SUCCEEDED', completedAt: T2 }]);
    });
  });

  describe('JobOutbox: groups', () => {
    // Any payload round-trips (the outbox stores JSON); cast, since this one is not an adhesion request.
    const job = (jobId: string) => ({ name: 'direct-debit.request-adhesion', jobId, data: { n: jobId } }) as unknown as Required<Job>;

    it('hands a deferred entry only to its group, and a group sees its deferred and pending entries', async () => {
      const group = `g-${uid()}`;
      const [a, b, c] = [`a-${uid()}`, `b-${uid()}`, `c-${uid()}`];
      await repos().outbox.add(job(a), T1, { group });
      await repos().outbox.add(job(b), T1, { group });
      await repos().outbox.add(job(c), T1);
      const inGroup = await repos().outbox.pendingInGroup(group, 10);
      expect(inGroup.map((e) => e.jobId)).to.deep.equal([a, b]);
      expect(inGroup[0]!.data).to.deep.equal({ n: a });
      await repos().outbox.defer([inGroup[0]!.jobId]);
      const general = (await repos().outbox.pending(1000)).map((e) => e.jobId);
      expect(general).to.include.members([b, c]);
      expect(general).to.not.include(a);
      expect((await repos().outbox.pendingInGroup(group, 10)).map((e) => e.jobId)).to.deep.equal([a, b]);
      await repos().outbox.markDispatched([inGroup[0]!.jobId], T2);
      expect((await repos().outbox.pendingInGroup(group, 10)).map((e) => e.jobId)).to.deep.equal([b]);
    });

    it('hands pending entries oldest first, at most `limit`, each with its name, jobId and data, until dispatched', async () => {
      const [a, b, c] = [`a-${uid()}`, `b-${uid()}`, `c-${uid()}`];
      for (const jobId of [a, b, c]) await repos().outbox.add(job(jobId), T1);
      const mine = async () => (await repos().outbox.pending(100_000)).filter((e) => [a, b, c].includes(e.jobId));
      const listed = await mine();
      expect(listed.map((e) => e.jobId)).to.deep.equal([a, b, c]);
      expect(listed[1]).to.deep.equal({ id: listed[1]!.id, name: 'direct-debit.request-adhesion', jobId: b, data: { n: b } });
      expect(listed[0]!.id).to.be.below(listed[1]!.id);
      const all = await repos().outbox.pending(100_000);
      expect(await repos().outbox.pending(2), 'a limit takes the oldest').to.deep.equal(all.slice(0, 2));
      await repos().outbox.markDispatched([listed[0]!.jobId, listed[2]!.jobId], T2);
      expect((await mine()).map((e) => e.jobId)).to.deep.equal([b]);
      await repos().outbox.markDispatched([], T2);
      expect((await mine()).map((e) => e.jobId)).to.deep.equal([b]);
    });

    it('marks dispatched without waiting for an entry another dispatcher is marking: that one is left to it, the rest are marked', async () => {
      const [a, b] = [`a-${uid()}`, `b-${uid()}`];
      await repos().outbox.add(job(a), T1);
      await repos().outbox.add(job(b), T1);
      const mine = async () => (await repos().outbox.pending(100_000)).filter((e) => [a, b].includes(e.jobId));
      const [first, second] = await mine();
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          await tx.outbox.markDispatched([first!.jobId], T1);
          await hold();
        },
        (tx) => tx.outbox.markDispatched([first!.jobId, second!.jobId], T2),
      );
      expectDidNotWait(outcome, contention());
      expect(await mine(), 'both dispatched').to.deep.equal([]);
    });

    it('never defers an entry already dispatched', async () => {
      const group = `g-${uid()}`;
      const a = `a-${uid()}`;
      await repos().outbox.add(job(a), T1, { group });
      const [entry] = await repos().outbox.pendingInGroup(group, 10);
      await repos().outbox.markDispatched([entry!.jobId], T2);
      await repos().outbox.defer([entry!.jobId]);
      expect(await repos().outbox.pendingInGroup(group, 10)).to.deep.equal([]);
    });
  });
}
