import { expect } from 'chai';
import fc from 'fast-check';
import {
  cciCheckDigit, SANDBOX_SIGNATURE_HEADER, SandboxPaymentInstructionProvider, sandboxAccount,
} from '../../../adapters/gateways/sandbox-payment-instruction-provider';
import { isValidCbu, isValidClabe, maskedBankAccount } from '../../../internal/direct-debit/bank-account';
import { allocate, type AllocationContext } from '../../../internal/payment-instructions/allocation';
import {
  effectiveInstructionStatus, instructionExpiry, instructionMethodsOf,
} from '../../../internal/payment-instructions/payment-instruction';
import { outcomeOf } from '../../../internal/payment-instructions/provider-notification';
import { CURRENCIES } from '../../../internal/shared/currency';
import { AuthenticationFailedError, InvalidRequestError } from '../../../internal/shared/errors';

const debt = { status: 'PENDING' as const, dueDate: '2031-06-15', amountCents: 10_000, amountPaidCents: 0, allowOverduePayment: true, allowPartialPayments: true };
const base: AllocationContext = { instructionPending: true, sameCurrency: true, blocked: null, debt, capacity: null, today: '2031-05-10' };

describe('payment instructions: rules', () => {
  describe('allocate (the amount rules of a notification)', () => {
    const cases: [string, number, Partial<AllocationContext>, ReturnType<typeof allocate>][] = [
      ['the whole amount', 10_000, {}, { appliedCents: 10_000, unapplied: null }],
      ['a partial amount where allowed', 4_000, {}, { appliedCents: 4_000, unapplied: null }],
      ['more than owed: the excess is OVERPAYMENT', 12_500, {}, { appliedCents: 10_000, unapplied: { cents: 2_500, reason: 'OVERPAYMENT' } }],
      ['partial where not allowed', 4_000, { debt: { ...debt, allowPartialPayments: false } }, { appliedCents: 0, unapplied: { cents: 4_000, reason: 'NOT_APPLICABLE' } }],
      ['partial on an OVERDUE debt', 4_000, { today: '2031-07-01' }, { appliedCents: 0, unapplied: { cents: 4_000, reason: 'NOT_APPLICABLE' } }],
      ['in full on an OVERDUE debt', 10_000, { today: '2031-07-01' }, { appliedCents: 10_000, unapplied: null }],
      ['overdue without overdue payments', 10_000, { today: '2031-07-01', debt: { ...debt, allowOverduePayment: false } }, { appliedCents: 0, unapplied: { cents: 10_000, reason: 'NOT_APPLICABLE' } }],
      ['a PAID debt', 500, { debt: { ...debt, status: 'PAID', amountPaidCents: 10_000 } }, { appliedCents: 0, unapplied: { cents: 500, reason: 'NOT_APPLICABLE' } }],
      ['a CANCELLED debt', 500, { debt: { ...debt, status: 'CANCELLED' } }, { appliedCents: 0, unapplied: { cents: 500, reason: 'NOT_APPLICABLE' } }],
      ['an instruction no longer PENDING', 10_000, { instructionPending: false }, { appliedCents: 0, unapplied: { cents: 10_000, reason: 'INSTRUCTION_NOT_PENDING' } }],
      ['another currency', 10_000, { sameCurrency: false }, { appliedCents: 0, unapplied: { cents: 10_000, reason: 'NOT_APPLICABLE' } }],
      ['an earlier cycle unpaid', 10_000, { blocked: 'EARLIER_CYCLE_UNPAID' }, { appliedCents: 0, unapplied: { cents: 10_000, reason: 'NOT_APPLICABLE' } }],
      ['a reusable link: its amount', 2_500, { capacity: { cents: 2_500, wholeOnly: true } }, { appliedCents: 2_500, unapplied: null }],
      ['a reusable link: more', 3_000, { capacity: { cents: 2_500, wholeOnly: true } }, { appliedCents: 2_500, unapplied: { cents: 500, reason: 'OVERPAYMENT' } }],
      ['a reusable link: less', 2_000, { capacity: { cents: 2_500, wholeOnly: true } }, { appliedCents: 0, unapplied: { cents: 2_000, reason: 'NOT_APPLICABLE' } }],
    ];
    for (const [name, amount, context, expected] of cases) {
      it(name, () => expect(allocate(amount, { ...base, ...context })).to.deep.equal(expected));
    }

    it('property: every cent received is applied or unapplied, never both, never lost', () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 10_000_000 }), fc.integer({ min: 0, max: 10_000 }), fc.boolean(), fc.boolean(), fc.boolean(), fc.boolean(),
          (received, paid, pending, partial, overdue, sameCurrency) => {
            const d = { ...debt, amountPaidCents: Math.min(paid, 9_999), allowPartialPayments: partial, status: paid > 0 ? ('PARTIALLY_PAID' as const) : ('PENDING' as const) };
            const a = allocate(received, { ...base, debt: d, instructionPending: pending, sameCurrency, today: overdue ? '2031-07-01' : '2031-05-10' });
            expect(a.appliedCents + (a.unapplied?.cents ?? 0)).to.equal(received);
            expect(a.appliedCents).to.be.at.most(d.amountCents - d.amountPaidCents);
            if (a.unapplied) expect(a.unapplied.cents).to.be.greaterThan(0);
          },
        ),
      );
    });
  });

  it('outcomeOf names the split', () => {
    expect([outcomeOf(10, 0), outcomeOf(10, 5), outcomeOf(0, 5)]).to.deep.equal(['APPLIED', 'PARTIALLY_APPLIED', 'UNAPPLIED']);
  });

  describe('expiry and methods', () => {
    const now = new Date('2031-05-10T15:00:00.000Z');
    it('cash 72 hours, transfer 30 days, both cut at the end of the due date without overdue payment, and at the link expiry', () => {
      expect(instructionExpiry('CASH', now, debt, null).toISOString()).to.equal('2031-05-13T15:00:00.000Z');
      expect(instructionExpiry('TRANSFER', now, debt, null).toISOString()).to.equal('2031-06-09T15:00:00.000Z');
      expect(instructionExpiry('TRANSFER', now, { ...debt, allowOverduePayment: false }, null).toISOString()).to.equal('2031-06-09T15:00:00.000Z');
      expect(instructionExpiry('TRANSFER', now, { dueDate: '2031-05-20', allowOverduePayment: false }, null).toISOString()).to.equal('2031-05-20T23:59:59.999Z');
      expect(instructionExpiry('CASH', now, { dueDate: '2031-05-10', allowOverduePayment: false }, null).toISOString()).to.equal('2031-05-10T23:59:59.999Z');
      expect(instructionExpiry('CASH', now, debt, new Date('2031-05-11T00:00:00Z')).toISOString()).to.equal('2031-05-11T00:00:00.000Z');
    });

    it('reads EXPIRED from expiresAt on; final states stay', () => {
      const i = { status: 'PENDING' as const, expiresAt: now };
      expect(effectiveInstructionStatus(i, new Date(now.getTime() - 1))).to.equal('PENDING');
      expect(effectiveInstructionStatus(i, now)).to.equal('EXPIRED');
      expect(effectiveInstructionStatus({ ...i, status: 'PAID' }, now)).to.equal('PAID');
    });

    it('TRANSFER for TRANSFER or BANK_TRANSFER, CASH for CASH, both when none are named', () => {
      expect(instructionMethodsOf(null)).to.deep.equal(['TRANSFER', 'CASH']);
      expect(instructionMethodsOf(['BANK_TRANSFER'])).to.deep.equal(['TRANSFER']);
      expect(instructionMethodsOf(['TRANSFER', 'CASH', 'CARD'])).to.deep.equal(['TRANSFER', 'CASH']);
      expect(instructionMethodsOf(['CARD', 'WALLET'])).to.deep.equal([]);
    });
  });

  describe('the sandbox provider', () => {
    const provider = new SandboxPaymentInstructionProvider('a-sandbox-secret-of-at-least-32-characters');

    it('issues accounts that pass their country\'s checks, from its own ranges, different each time', () => {
      const seen = new Set<string>();
      for (let i = 0; i < 200; i++) {
        const clabe = sandboxAccount('MXN');
        expect(isValidClabe(clabe), clabe).to.equal(true);
        expect(clabe.startsWith('64618099')).to.equal(true);
        seen.add(clabe);
        const cvu = sandboxAccount('ARS');
        expect(isValidCbu(cvu), cvu).to.equal(true);
        expect(cvu.startsWith('0000999')).to.equal(true);
        const cci = sandboxAccount('PEN');
        expect(cci).to.match(/^099999\d{14}$/);
        expect(cciCheckDigit(cci.slice(0, 6))).to.equal(Number(cci[18]));
        expect(cciCheckDigit(cci.slice(6, 18))).to.equal(Number(cci[19]));
      }
      expect(seen.size).to.equal(200);
      for (const currency of CURRENCIES) expect(() => maskedBankAccount(sandboxAccount(currency), currency)).to.not.throw();
    });

    it('signs a notification and verifies it; a changed body, another secret, a stale timestamp or no header is refused', () => {
      const { transactionId, body } = provider.sandbox.notificationFor({ providerReference: '646180991234567895', amountCents: 150_050, currency: 'MXN', receivedAt: new Date('2031-05-10T15:00:00Z') });
      const now = new Date();
      const headers = provider.sandbox.sign(body, now);
      expect(Object.keys(headers)).to.deep.equal([SANDBOX_SIGNATURE_HEADER]);
      expect(provider.verifyNotification({ headers, body }, now)).to.deep.equal({
        transactionId, providerReference: '646180991234567895', amountCents: 150_050, currency: 'MXN', receivedAt: new Date('2031-05-10T15:00:00Z'),
      });
      const lower = { [SANDBOX_SIGNATURE_HEADER.toLowerCase()]: headers[SANDBOX_SIGNATURE_HEADER]! };
      expect(provider.verifyNotification({ headers: lower, body }, now).transactionId).to.equal(transactionId);
      const refused = (h: Record<string, string>, b = body, at = now) => () => provider.verifyNotification({ headers: h, body: b }, at);
      expect(refused(headers, body.replace('1500.5', '1500.6'))).to.throw(AuthenticationFailedError);
      expect(refused(new SandboxPaymentInstructionProvider('another-sandbox-secret-of-32-characters!').sandbox.sign(body, now))).to.throw(AuthenticationFailedError);
      expect(refused(headers, body, new Date(now.getTime() + 301_000))).to.throw(AuthenticationFailedError);
      expect(refused({})).to.throw(AuthenticationFailedError);
      const signedGarbage = '{"id":"x","type":"payment.received"}';
      expect(refused(provider.sandbox.sign(signedGarbage, now), signedGarbage)).to.throw(InvalidRequestError);
    });

    it('refunds once per key (the same reference again)', async () => {
      const a = await provider.refund({ idempotencyKey: 'refund:upy_1' });
      expect(await provider.refund({ idempotencyKey: 'refund:upy_1' })).to.deep.equal(a);
      expect((await provider.refund({ idempotencyKey: 'refund:upy_2' })).reference).to.not.equal(a.reference);
    });

    it('refuses a secret shorter than 32 characters', () => {
      expect(() => new SandboxPaymentInstructionProvider('short')).to.throw(/32/);
    });
  });
});
