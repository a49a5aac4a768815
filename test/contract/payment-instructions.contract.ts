/**
 * Cash and transfer payments in storage: payment instructions (one PENDING per debt and method,
 * provider references unique, expiry and cancellation as locked transitions), provider
 * notifications (one per provider transaction) and unapplied payments (lists, resolution, the
 * open totals), rolled back with their transaction, on every adapter.
 */
import { expect } from 'chai';
import type { PaymentInstruction } from '../../internal/payment-instructions/payment-instruction';
import type { NewPaymentInstruction, PaymentInstructionView } from '../../ports/payment-instruction-repository';
import type { NewProviderNotification } from '../../ports/provider-notification-repository';
import type { NewUnappliedPayment } from '../../ports/unapplied-payment-repository';
import { at, expectConflict, HOUR, newContact, newDebt, newTenant, T1, T2, type TenantFixture, uid } from './fixtures';
import type { ContractContext } from './repositories.contract';
import { contend, expectWaited } from './contention';

function newInstruction(t: TenantFixture, debtId: number, overrides: Partial<NewPaymentInstruction> = {}): NewPaymentInstruction {
  const account = `646${uid()}${uid()}`.slice(0, 27);
  return {
    organizationId: t.organization.id,
    companyId: t.company.id,
    debtId,
    code: `I${uid()}${uid()}`,
    method: 'TRANSFER',
    status: 'PENDING',
    amountCents: 10_050,
    amountReceivedCents: 0,
    amountAppliedCents: 0,
    currency: 'MXN',
    reference: '1234567',
    provider: 'sandbox',
    providerReference: account,
    transfer: { accountType: 'CLABE', accountNumber: account, bankName: 'STP (sandbox)', beneficiary: 'Acme' },
    cash: null,
    expiresAt: T2,
    createdAt: T1,
    paidAt: null,
    updatedAt: T1,
    ...overrides,
  };
}

function newNotification(overrides: Partial<NewProviderNotification> = {}): NewProviderNotification {
  return {
    provider: 'sandbox', transactionId: `txn-${uid()}`, providerReference: `ref-${uid()}`, amountCents: 12_345, currency: 'MXN', receivedAt: T1,
    recordedAt: T2, organizationId: null, companyId: null, paymentInstructionId: null, outcome: 'UNMATCHED', appliedCents: 0, unappliedCents: 0,
    ...overrides,
  };
}

export function describePaymentInstructionsContract({ repos, uow, contention }: ContractContext): void {
  async function fixture(companies = 2) {
    const t = await newTenant(repos(), { companies });
    const contact = await repos().contacts.insert(newContact(t.organization.id));
    const debt = await repos().debts.insert(newDebt({ ...t, contact }));
    return { t, contact, debt };
  }
  const viewOf = (i: PaymentInstruction, debtExternalRequestId: string): PaymentInstructionView => ({ ...i, debtExternalRequestId });

  describe('PaymentInstructionRepository', () => {
    it('round-trips a transfer and a cash instruction (cents exact, instants to the millisecond), by code in its company and by provider reference', async () => {
      const { t, debt } = await fixture();
      const transfer = await repos().paymentInstructions.insert(newInstruction(t, debt.id, { expiresAt: at('2026-07-01T10:11:12.345Z') }));
      expect(transfer).to.deep.equal(viewOf({ ...newInstruction(t, debt.id), ...transfer }, debt.externalRequestId));
      expect(transfer.expiresAt).to.deep.equal(at('2026-07-01T10:11:12.345Z'));
      const cash = await repos().paymentInstructions.insert(newInstruction(t, debt.id, {
        method: 'CASH', transfer: null, providerReference: `99${uid()}`, cash: { barcodeValue: '9912345678901234', networks: ['OXXO', 'Farmacias del Ahorro'] }, amountCents: 1,
      }));
      expect(cash.cash).to.deep.equal({ barcodeValue: '9912345678901234', networks: ['OXXO', 'Farmacias del Ahorro'] });
      expect(cash.transfer).to.equal(null);
      expect(await repos().paymentInstructions.findByCode(t.company.id, transfer.code)).to.deep.equal(transfer);
      expect(await repos().paymentInstructions.findByCode(t.companies[1]!.id, transfer.code)).to.equal(null);
      expect(await repos().paymentInstructions.findByProviderReference('sandbox', cash.providerReference)).to.deep.equal(cash);
      expect(await repos().paymentInstructions.findByProviderReference('other', cash.providerReference)).to.equal(null);
      expect((await repos().paymentInstructions.listOfDebt(t.company.id, debt.id)).map((i) => i.id)).to.deep.equal([cash.id, transfer.id]);
      expect(await repos().paymentInstructions.listOfDebt(t.companies[1]!.id, debt.id)).to.deep.equal([]);
      expect((await repos().paymentInstructions.listPendingOfDebts(t.company.id, [debt.id, debt.id + 999_999])).map((i) => i.id)).to.deep.equal([cash.id, transfer.id]);
      expect(await repos().paymentInstructions.listPendingOfDebts(t.companies[1]!.id, [debt.id])).to.deep.equal([]);
      expect(await repos().paymentInstructions.listPendingOfDebts(t.company.id, [])).to.deep.equal([]);
    });

    it('keeps a provider reference and a code unique, and one PENDING instruction per debt and method', async () => {
      const { t, debt } = await fixture();
      const first = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      await expectConflict(repos().paymentInstructions.insert(newInstruction(t, debt.id, { method: 'CASH', providerReference: first.providerReference })));
      await expectConflict(repos().paymentInstructions.insert(newInstruction(t, debt.id, { method: 'CASH', code: first.code })));
      await expectConflict(repos().paymentInstructions.insert(newInstruction(t, debt.id)));
      await repos().paymentInstructions.insert(newInstruction(t, debt.id, { method: 'CASH' }));
      await repos().paymentInstructions.update(first.id, { status: 'PAID', paidAt: T2, amountReceivedCents: 10_050, amountAppliedCents: 10_050, updatedAt: T2 });
      const next = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      expect(next.status).to.equal('PENDING');
      expect(await repos().paymentInstructions.findByCode(t.company.id, first.code)).to.deep.include({ status: 'PAID', paidAt: T2, amountReceivedCents: 10_050, updatedAt: T2 });
    });

    it('cancels the PENDING instructions of debts, sparing one, and returns them by id', async () => {
      const { t, debt, contact } = await fixture();
      const other = await repos().debts.insert(newDebt({ ...t, contact }));
      const a = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      const b = await repos().paymentInstructions.insert(newInstruction(t, debt.id, { method: 'CASH' }));
      const c = await repos().paymentInstructions.insert(newInstruction(t, other.id));
      const untouched = await repos().paymentInstructions.insert(newInstruction(t, (await repos().debts.insert(newDebt({ ...t, contact }))).id));
      const cancelled = await uow().run((tx) => tx.paymentInstructions.cancelPendingOfDebts([debt.id, other.id], T2, b.id));
      expect(cancelled.map((i) => [i.id, i.status, i.updatedAt])).to.deep.equal([[a.id, 'CANCELLED', T2], [c.id, 'CANCELLED', T2]]);
      expect((await repos().paymentInstructions.findByCode(t.company.id, b.code))!.status).to.equal('PENDING');
      expect((await repos().paymentInstructions.findByCode(t.company.id, untouched.code))!.status).to.equal('PENDING');
      expect(await repos().paymentInstructions.cancelPendingOfDebts([debt.id, other.id], T2, b.id)).to.deep.equal([]);
    });

    it('expires an organization\'s PENDING instructions due by now, oldest expiry first, at most `limit` at a time', async () => {
      const { t, debt, contact } = await fixture();
      const soon = (h: number) => new Date(T1.getTime() + h * HOUR);
      const debts = await Promise.all([1, 2, 3].map(() => repos().debts.insert(newDebt({ ...t, contact }))));
      const late = await repos().paymentInstructions.insert(newInstruction(t, debts[0]!.id, { expiresAt: soon(3) }));
      const early = await repos().paymentInstructions.insert(newInstruction(t, debts[1]!.id, { expiresAt: soon(1) }));
      const future = await repos().paymentInstructions.insert(newInstruction(t, debts[2]!.id, { expiresAt: soon(10) }));
      const paid = await repos().paymentInstructions.insert(newInstruction(t, debt.id, { expiresAt: soon(1), status: 'PAID' }));
      const elsewhere = await newTenant(repos());
      const elsewhereContact = await repos().contacts.insert(newContact(elsewhere.organization.id));
      const foreignDebt = await repos().debts.insert(newDebt({ ...elsewhere, contact: elsewhereContact }));
      const foreign = await repos().paymentInstructions.insert(newInstruction(elsewhere, foreignDebt.id, { expiresAt: soon(1) }));
      const first = await uow().run((tx) => tx.paymentInstructions.markExpired(t.organization.id, soon(5), T2, 1));
      expect(first.map((i) => [i.id, i.status])).to.deep.equal([[early.id, 'EXPIRED']]);
      const rest = await uow().run((tx) => tx.paymentInstructions.markExpired(t.organization.id, soon(5), T2, 10));
      expect(rest.map((i) => i.id)).to.deep.equal([late.id]);
      expect(await repos().paymentInstructions.markExpired(t.organization.id, soon(5), T2, 10)).to.deep.equal([]);
      expect((await repos().paymentInstructions.findByCode(t.company.id, future.code))!.status).to.equal('PENDING');
      expect((await repos().paymentInstructions.findByCode(t.company.id, paid.code))!.status).to.equal('PAID');
      expect((await repos().paymentInstructions.findByCode(elsewhere.company.id, foreign.code))!.status).to.equal('PENDING');
      // An expired instruction frees its debt and method for a new PENDING one.
      expect((await repos().paymentInstructions.insert(newInstruction(t, debts[1]!.id))).status).to.equal('PENDING');
    });

    it('serializes concurrent read-modify-write transactions on one instruction (no lost update)', async () => {
      const { t, debt } = await fixture();
      const instruction = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      const receive = () =>
        uow().run(async (tx) => {
          const locked = (await tx.paymentInstructions.lockById(instruction.id))!;
          await tx.paymentInstructions.update(locked.id, { amountReceivedCents: locked.amountReceivedCents + 100, updatedAt: T2 });
        });
      await Promise.all(Array.from({ length: 8 }, receive));
      expect((await repos().paymentInstructions.findByCode(t.company.id, instruction.code))!.amountReceivedCents).to.equal(800);
    });

    it('markExpired waits for an instruction another transaction holds, and never expires one that transaction paid', async () => {
      const { t, debt, contact } = await fixture();
      const soon = new Date(T1.getTime() + HOUR);
      const held = await repos().paymentInstructions.insert(newInstruction(t, debt.id, { expiresAt: soon }));
      const other = await repos().paymentInstructions.insert(newInstruction(t, (await repos().debts.insert(newDebt({ ...t, contact }))).id, { expiresAt: soon }));
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.paymentInstructions.lockById(held.id))!;
          await hold();
          // Pay only what is still PENDING: should the two deadlock on InnoDB, the unit of work runs
          // the payment again, and it then reads what markExpired committed.
          if (locked.status !== 'PENDING') return null;
          return tx.paymentInstructions.update(locked.id, { status: 'PAID', amountReceivedCents: locked.amountCents, paidAt: T2, updatedAt: T2 });
        },
        (tx) => tx.paymentInstructions.markExpired(t.organization.id, T2, T2, 10),
      );
      expectWaited(outcome, contention());
      const stored = (await repos().paymentInstructions.findByCode(t.company.id, held.code))!;
      if (outcome.first) {
        expect(outcome.second.map((i) => [i.id, i.status]), 'only the instruction still PENDING').to.deep.equal([[other.id, 'EXPIRED']]);
        expect(stored.status).to.equal('PAID');
      } else {
        expect(outcome.second.map((i) => i.id).sort((a, b) => a - b)).to.deep.equal([held.id, other.id].sort((a, b) => a - b));
        expect(stored).to.deep.include({ status: 'EXPIRED', paidAt: null });
      }
    });

    it('cancelPendingOfDebts and a concurrent payment holding the instruction serialize: one of them wins, neither overwrites the other', async () => {
      const { t, debt } = await fixture();
      const instruction = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      // A payment: lock, and pay only what is still PENDING. (On InnoDB the two can deadlock, the
      // payment through the primary key, the cancellation through the (debt, method) index; the
      // unit of work then runs the loser again, which reads what the winner committed.)
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.paymentInstructions.lockById(instruction.id))!;
          await hold();
          if (locked.status !== 'PENDING') return null;
          return tx.paymentInstructions.update(locked.id, { status: 'PAID', amountReceivedCents: locked.amountCents, paidAt: T2, updatedAt: T2 });
        },
        (tx) => tx.paymentInstructions.cancelPendingOfDebts([debt.id], T2),
      );
      const stored = (await repos().paymentInstructions.findByCode(t.company.id, instruction.code))!;
      if (outcome.first) {
        expect(outcome.second, 'paid first: the cancellation finds nothing PENDING').to.deep.equal([]);
        expect(stored).to.deep.include({ status: 'PAID', paidAt: T2, amountReceivedCents: instruction.amountCents });
      } else {
        expect(outcome.second.map((i) => i.id), 'cancelled first: the payment found it CANCELLED').to.deep.equal([instruction.id]);
        expect(stored).to.deep.include({ status: 'CANCELLED', paidAt: null, amountReceivedCents: 0 });
      }
    });

    it('rolls an instruction back with its transaction', async () => {
      const { t, debt } = await fixture();
      const instruction = newInstruction(t, debt.id);
      const failure = await uow().run(async (tx) => {
        await tx.paymentInstructions.insert(instruction);
        throw new Error('rolled back');
      }).catch((e: Error) => e.message);
      expect(failure).to.equal('rolled back');
      expect(await repos().paymentInstructions.findByCode(t.company.id, instruction.code)).to.equal(null);
    });
  });

  describe('ProviderNotificationRepository', () => {
    it('keeps one notification per provider transaction, with its outcome', async () => {
      const { t, debt } = await fixture();
      const stored = await repos().providerNotifications.insert(newNotification());
      expect(await repos().providerNotifications.find('sandbox', stored.transactionId)).to.deep.equal(stored);
      expect(await repos().providerNotifications.findById(stored.id)).to.deep.equal(stored);
      expect(await repos().providerNotifications.find('other', stored.transactionId)).to.equal(null);
      await expectConflict(repos().providerNotifications.insert(newNotification({ transactionId: stored.transactionId })));
      expect((await repos().providerNotifications.insert(newNotification({ provider: 'other', transactionId: stored.transactionId }))).provider).to.equal('other');
      const instruction = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      const outcome = {
        organizationId: t.organization.id, companyId: t.company.id, paymentInstructionId: instruction.id, outcome: 'PARTIALLY_APPLIED' as const,
        appliedCents: 10_000, unappliedCents: 2_345,
      };
      expect(await repos().providerNotifications.recordOutcome(stored.id, outcome)).to.deep.equal({ ...stored, ...outcome });
    });

    it('a duplicate inside a transaction rolls back everything with it', async () => {
      const stored = await repos().providerNotifications.insert(newNotification());
      const other = newNotification();
      const failure = await uow().run(async (tx) => {
        await tx.providerNotifications.insert(other);
        await tx.providerNotifications.insert(newNotification({ transactionId: stored.transactionId }));
      }).catch((e: Error) => e.constructor.name);
      expect(failure).to.equal('ConflictError');
      expect(await repos().providerNotifications.find('sandbox', other.transactionId)).to.equal(null);
    });
  });

  describe('UnappliedPaymentRepository', () => {
    async function withMoney() {
      const { t, debt, contact } = await fixture();
      const instruction = await repos().paymentInstructions.insert(newInstruction(t, debt.id));
      const notification = await repos().providerNotifications.insert(newNotification());
      const make = (overrides: Partial<NewUnappliedPayment> = {}): NewUnappliedPayment => ({
        organizationId: t.organization.id, companyId: t.company.id, code: `U${uid()}${uid()}`, amountCents: 2_345, currency: 'MXN',
        paymentInstructionId: instruction.id, debtId: debt.id, reason: 'OVERPAYMENT', status: 'OPEN', receivedAt: T1, resolvedAt: null, resolution: null,
        notificationId: notification.id, refundRequestedAt: null, ...overrides,
      });
      return { t, debt, contact, instruction, make };
    }

    it('round-trips one with the public ids of its instruction and debt; another company\'s reads null', async () => {
      const { t, debt, instruction, make } = await withMoney();
      const stored = await repos().unappliedPayments.insert(make());
      expect(stored).to.deep.equal({
        ...make(), code: stored.code, id: stored.id, paymentInstructionCode: instruction.code, debtExternalRequestId: debt.externalRequestId,
        resolutionDebtExternalRequestId: null,
      });
      expect(await repos().unappliedPayments.findByCode(t.company.id, stored.code)).to.deep.equal(stored);
      expect(await repos().unappliedPayments.findByCode(t.companies[1]!.id, stored.code)).to.equal(null);
      expect(await uow().run((tx) => tx.unappliedPayments.lockByCode(t.company.id, stored.code))).to.deep.equal(stored);
      await expectConflict(repos().unappliedPayments.insert(make({ code: stored.code })));
    });

    it('lists a company\'s by status, newest first (receivedAt, then id), with total and pages', async () => {
      const { t, make } = await withMoney();
      const a = await repos().unappliedPayments.insert(make({ receivedAt: T1 }));
      const b = await repos().unappliedPayments.insert(make({ receivedAt: T2 }));
      const c = await repos().unappliedPayments.insert(make({ receivedAt: T2 }));
      const d = await repos().unappliedPayments.insert(make({ receivedAt: T1, status: 'RESOLVED', resolvedAt: T2, resolution: { action: 'REFUNDED', debtId: null, reference: 'r1' } }));
      const page = await repos().unappliedPayments.list(t.company.id, {}, { page: 1, limit: 2 });
      expect(page.items.map((u) => u.id)).to.deep.equal([c.id, b.id]);
      expect(page.total).to.equal(4);
      expect((await repos().unappliedPayments.list(t.company.id, {}, { page: 2, limit: 2 })).items.map((u) => u.id)).to.deep.equal([d.id, a.id]);
      const open = await repos().unappliedPayments.list(t.company.id, { status: 'OPEN' }, { page: 1, limit: 50 });
      expect(open.items.map((u) => u.id)).to.deep.equal([c.id, b.id, a.id]);
      expect(open.total).to.equal(3);
      expect((await repos().unappliedPayments.list(t.companies[1]!.id, {}, { page: 1, limit: 50 })).total).to.equal(0);
    });

    it('holds a second lockByCode until the first commits: it reads the resolution, so the money is never applied twice', async () => {
      const { t, contact, make } = await withMoney();
      const target = await repos().debts.insert(newDebt({ ...t, contact }));
      const money = await repos().unappliedPayments.insert(make());
      const outcome = await contend(
        uow(),
        contention(),
        async (tx, hold) => {
          const locked = (await tx.unappliedPayments.lockByCode(t.company.id, money.code))!;
          await hold();
          return tx.unappliedPayments.resolve(locked.id, { action: 'APPLIED', debtId: target.id, reference: null }, T2);
        },
        (tx) => tx.unappliedPayments.lockByCode(t.company.id, money.code),
      );
      expectWaited(outcome, contention());
      expect(outcome.second).to.deep.equal(outcome.first);
      expect(outcome.second).to.deep.include({ status: 'RESOLVED', resolvedAt: T2, resolutionDebtExternalRequestId: target.externalRequestId });
    });

    it('resolves one (applied to a debt, or refunded), claims it for a refund, and sums what is OPEN by currency', async () => {
      const { t, contact, make } = await withMoney();
      const target = await repos().debts.insert(newDebt({ ...t, contact }));
      const before = new Map((await repos().unappliedPayments.openTotals()).map((x) => [x.currency, x]));
      const applied = await repos().unappliedPayments.insert(make({ amountCents: 100 }));
      const open = await repos().unappliedPayments.insert(make({ amountCents: 250, currency: 'CLP' }));
      await repos().unappliedPayments.insert(make({ amountCents: 7, currency: 'CLP' }));
      const resolved = await repos().unappliedPayments.resolve(applied.id, { action: 'APPLIED', debtId: target.id, reference: null }, T2);
      expect(resolved).to.deep.include({ status: 'RESOLVED', resolvedAt: T2, resolution: { action: 'APPLIED', debtId: target.id, reference: null } });
      expect(resolved.resolutionDebtExternalRequestId).to.equal(target.externalRequestId);
      expect((await repos().unappliedPayments.setRefundRequested(open.id, T2)).refundRequestedAt).to.deep.equal(T2);
      expect((await repos().unappliedPayments.setRefundRequested(open.id, null)).refundRequestedAt).to.equal(null);
      const after = new Map((await repos().unappliedPayments.openTotals()).map((x) => [x.currency, x]));
      const clp = after.get('CLP')!;
      expect([clp.count - (before.get('CLP')?.count ?? 0), clp.amountCents - (before.get('CLP')?.amountCents ?? 0)]).to.deep.equal([2, 257]);
      expect((after.get('MXN')?.amountCents ?? 0) - (before.get('MXN')?.amountCents ?? 0)).to.equal(0);
    });
  });
}
