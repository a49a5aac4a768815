import { expect } from 'chai';
import fc from 'fast-check';
import {
  allowsPartialPayment,
  applyPayment,
  assertCancellable,
  assertEditable,
  type Debt,
  DEBT_STATUSES,
  type DebtStatus,
  debtIdOf,
  effectiveStatus,
  remainingCents,
} from '../../../internal/debts/debt';
import { dailyCreatedRange } from '../../../internal/shared/created-range';
import { BusinessRuleViolationError, InvalidRequestError } from '../../../internal/shared/errors';
import { centsFromAmount } from '../../../internal/shared/money';

// ---------------------------------------------------------------------------------------------
// Helpers

type PayableDebt = Pick<Debt, 'status' | 'dueDate' | 'amountCents' | 'amountPaidCents' | 'allowOverduePayment' | 'allowPartialPayments'>;

const TODAY = '2031-05-10';
const YESTERDAY = '2031-05-09';
const TOMORROW = '2031-05-11';
const DAY_MS = 86_400_000;

/** A PENDING debt of 100.00 due today, both payment flags on. */
function debt(overrides: Partial<PayableDebt> = {}): PayableDebt {
  return {
    status: 'PENDING',
    dueDate: TODAY,
    amountCents: 10_000,
    amountPaidCents: 0,
    allowOverduePayment: true,
    allowPartialPayments: true,
    ...overrides,
  };
}

/** The BusinessRuleViolation `fn` throws (its message); fails when it does not throw one. */
function ruleViolation(fn: () => unknown): string {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected a BusinessRuleViolationError').to.be.instanceOf(BusinessRuleViolationError);
  expect((thrown as BusinessRuleViolationError).code).to.equal('BUSINESS_RULE_VIOLATION');
  return (thrown as Error).message;
}

/** The InvalidRequestError `fn` throws; fails when it does not throw one. */
function invalidRequest(fn: () => unknown): InvalidRequestError {
  let thrown: unknown;
  try {
    fn();
  } catch (error) {
    thrown = error;
  }
  expect(thrown, 'expected an InvalidRequestError').to.be.instanceOf(InvalidRequestError);
  expect((thrown as InvalidRequestError).code).to.equal('INVALID_REQUEST');
  return thrown as InvalidRequestError;
}

/** Epoch ms of 00:00:00.000Z of a `YYYY-MM-DD` day, and of 23:59:59.999Z. */
const startOf = (day: string): number => Date.parse(`${day}T00:00:00.000Z`);
const endOf = (day: string): number => startOf(day) + DAY_MS - 1;
const NOW = new Date('2031-05-10T15:04:05.678Z');

/** YYYY-MM-DD of a day number (days since 1970-01-01). */
const dayText = (dayNumber: number): string => new Date(dayNumber * DAY_MS).toISOString().slice(0, 10);
/** Days between 2000-01-01 and 2099-12-31. */
const dayNumber = fc.integer({ min: 10_957, max: 47_481 });

// ---------------------------------------------------------------------------------------------

describe('debts: state functions (internal/debts/debt.ts)', () => {
  describe('debtIdOf', () => {
    it('is "debt_" followed by the externalRequestId, unchanged', () => {
      expect(debtIdOf({ externalRequestId: 'order-17' })).to.equal('debt_order-17');
      expect(debtIdOf({ externalRequestId: 'A.b:c_d-1' })).to.equal('debt_A.b:c_d-1');
    });

    it('prefixes a key that already starts with debt_ again', () => {
      expect(debtIdOf({ externalRequestId: 'debt_x' })).to.equal('debt_debt_x');
    });
  });

  describe('remainingCents', () => {
    it('is the amount minus what was paid', () => {
      expect(remainingCents({ amountCents: 10_000, amountPaidCents: 0 })).to.equal(10_000);
      expect(remainingCents({ amountCents: 10_000, amountPaidCents: 2_501 })).to.equal(7_499);
      expect(remainingCents({ amountCents: 10_000, amountPaidCents: 10_000 })).to.equal(0);
    });
  });

  describe('effectiveStatus', () => {
    it('keeps PENDING while the due date is today or later', () => {
      expect(effectiveStatus({ status: 'PENDING', dueDate: TODAY }, TODAY)).to.equal('PENDING');
      expect(effectiveStatus({ status: 'PENDING', dueDate: TOMORROW }, TODAY)).to.equal('PENDING');
    });

    it('reads a PENDING debt due before today as OVERDUE', () => {
      expect(effectiveStatus({ status: 'PENDING', dueDate: YESTERDAY }, TODAY)).to.equal('OVERDUE');
      expect(effectiveStatus({ status: 'PENDING', dueDate: '2001-01-01' }, TODAY)).to.equal('OVERDUE');
    });

    it('compares calendar dates across month and year boundaries', () => {
      expect(effectiveStatus({ status: 'PENDING', dueDate: '2031-12-31' }, '2032-01-01')).to.equal('OVERDUE');
      expect(effectiveStatus({ status: 'PENDING', dueDate: '2032-01-01' }, '2031-12-31')).to.equal('PENDING');
      expect(effectiveStatus({ status: 'PENDING', dueDate: '2031-04-30' }, '2031-05-01')).to.equal('OVERDUE');
      expect(effectiveStatus({ status: 'PENDING', dueDate: '2032-02-29' }, '2032-02-29')).to.equal('PENDING');
    });

    for (const status of ['PARTIALLY_PAID', 'PAID', 'CANCELLED', 'OVERDUE'] as const) {
      it(`leaves ${status} as stored, past due or not`, () => {
        expect(effectiveStatus({ status, dueDate: YESTERDAY }, TODAY)).to.equal(status);
        expect(effectiveStatus({ status, dueDate: TOMORROW }, TODAY)).to.equal(status);
      });
    }

    it('property: PENDING reads OVERDUE exactly when the due day is before today', () => {
      fc.assert(
        fc.property(dayNumber, dayNumber, (due, today) => {
          const status = effectiveStatus({ status: 'PENDING', dueDate: dayText(due) }, dayText(today));
          expect(status).to.equal(due < today ? 'OVERDUE' : 'PENDING');
        }),
      );
    });
  });

  describe('applyPayment', () => {
    it('pays a PENDING debt in full: PAID with the whole amount paid', () => {
      expect(applyPayment(debt(), 10_000, TODAY)).to.deep.equal({ status: 'PAID', amountPaidCents: 10_000 });
    });

    it('pays a PENDING debt in part: PARTIALLY_PAID', () => {
      expect(applyPayment(debt(), 2_500, TODAY)).to.deep.equal({ status: 'PARTIALLY_PAID', amountPaidCents: 2_500 });
    });

    it('completes a PARTIALLY_PAID debt: PAID', () => {
      const partly = debt({ status: 'PARTIALLY_PAID', amountPaidCents: 2_500 });
      expect(applyPayment(partly, 7_500, TODAY)).to.deep.equal({ status: 'PAID', amountPaidCents: 10_000 });
    });

    it('keeps a PARTIALLY_PAID debt PARTIALLY_PAID while something remains', () => {
      const partly = debt({ status: 'PARTIALLY_PAID', amountPaidCents: 2_500 });
      expect(applyPayment(partly, 7_499, TODAY)).to.deep.equal({ status: 'PARTIALLY_PAID', amountPaidCents: 9_999 });
    });

    it('accumulates exact cents: 0.10 + 0.20 pays a 0.30 debt', () => {
      const amountCents = centsFromAmount(0.3);
      const first = applyPayment(debt({ amountCents }), centsFromAmount(0.1), TODAY);
      expect(first).to.deep.equal({ status: 'PARTIALLY_PAID', amountPaidCents: 10 });
      const second = applyPayment(debt({ amountCents, ...first }), centsFromAmount(0.2), TODAY);
      expect(second).to.deep.equal({ status: 'PAID', amountPaidCents: 30 });
    });

    it('accumulates exact cents over many 0.01 payments', () => {
      let state = debt({ amountCents: 100 });
      for (let i = 1; i <= 100; i++) {
        const next = applyPayment(state, 1, TODAY);
        expect(next.amountPaidCents).to.equal(i);
        state = { ...state, ...next };
      }
      expect(state.status).to.equal('PAID');
    });

    it('does not modify the debt it is given', () => {
      const original = debt();
      const before = { ...original };
      applyPayment(original, 2_500, TODAY);
      expect(original).to.deep.equal(before);
    });

    it('refuses a PAID debt', () => {
      const paid = debt({ status: 'PAID', amountPaidCents: 10_000 });
      expect(ruleViolation(() => applyPayment(paid, 1, TODAY))).to.equal('A PAID debt cannot be paid');
    });

    it('refuses a CANCELLED debt, paid in part or not', () => {
      expect(ruleViolation(() => applyPayment(debt({ status: 'CANCELLED' }), 10_000, TODAY))).to.equal('A CANCELLED debt cannot be paid');
      const partlyCancelled = debt({ status: 'CANCELLED', amountPaidCents: 500 });
      expect(ruleViolation(() => applyPayment(partlyCancelled, 9_500, TODAY))).to.equal('A CANCELLED debt cannot be paid');
    });

    it('refuses a debt past its due date when overdue payment is not allowed', () => {
      const late = debt({ dueDate: YESTERDAY, allowOverduePayment: false });
      expect(ruleViolation(() => applyPayment(late, 10_000, TODAY))).to.equal(
        'The debt is past its due date and does not allow overdue payment',
      );
    });

    it('applies the overdue rule to stored OVERDUE and PARTIALLY_PAID debts too', () => {
      const overdue = debt({ status: 'OVERDUE', dueDate: YESTERDAY, allowOverduePayment: false });
      expect(ruleViolation(() => applyPayment(overdue, 10_000, TODAY))).to.match(/does not allow overdue payment/);
      const partly = debt({ status: 'PARTIALLY_PAID', amountPaidCents: 100, dueDate: YESTERDAY, allowOverduePayment: false });
      expect(ruleViolation(() => applyPayment(partly, 9_900, TODAY))).to.match(/does not allow overdue payment/);
    });

    it('accepts a payment on the due date itself when overdue payment is not allowed', () => {
      expect(applyPayment(debt({ dueDate: TODAY, allowOverduePayment: false }), 10_000, TODAY)).to.deep.equal({
        status: 'PAID',
        amountPaidCents: 10_000,
      });
    });

    it('accepts a late payment when overdue payment is allowed: OVERDUE to PAID', () => {
      expect(applyPayment(debt({ dueDate: YESTERDAY }), 10_000, TODAY)).to.deep.equal({ status: 'PAID', amountPaidCents: 10_000 });
      expect(applyPayment(debt({ status: 'OVERDUE', dueDate: YESTERDAY }), 10_000, TODAY)).to.deep.equal({
        status: 'PAID',
        amountPaidCents: 10_000,
      });
    });

    it('refuses a partial payment of an OVERDUE debt, persisted or by time (the table takes OVERDUE only to PAID)', () => {
      const message = 'An OVERDUE debt can only be paid in full (its remaining amount)';
      expect(ruleViolation(() => applyPayment(debt({ status: 'OVERDUE', dueDate: YESTERDAY }), 4_000, TODAY))).to.equal(message);
      expect(ruleViolation(() => applyPayment(debt({ dueDate: YESTERDAY }), 9_999, TODAY))).to.equal(message);
      expect(allowsPartialPayment(debt({ dueDate: YESTERDAY }), TODAY)).to.equal(false);
      expect(allowsPartialPayment(debt({ dueDate: TODAY }), TODAY)).to.equal(true);
    });

    it('keeps taking partial payments of a PARTIALLY_PAID debt past due (it never becomes OVERDUE)', () => {
      const partly = debt({ status: 'PARTIALLY_PAID', amountPaidCents: 1_000, dueDate: YESTERDAY });
      expect(applyPayment(partly, 4_000, TODAY)).to.deep.equal({ status: 'PARTIALLY_PAID', amountPaidCents: 5_000 });
      expect(allowsPartialPayment(partly, TODAY)).to.equal(true);
    });

    it('refuses more than the remaining amount', () => {
      expect(ruleViolation(() => applyPayment(debt(), 10_001, TODAY))).to.equal('The payment exceeds the remaining amount');
      const partly = debt({ status: 'PARTIALLY_PAID', amountPaidCents: 9_000 });
      expect(ruleViolation(() => applyPayment(partly, 1_001, TODAY))).to.equal('The payment exceeds the remaining amount');
    });

    it('refuses a partial payment when partial payments are not allowed', () => {
      const whole = debt({ allowPartialPayments: false });
      expect(ruleViolation(() => applyPayment(whole, 9_999, TODAY))).to.equal('The debt does not allow partial payments');
    });

    it('accepts the exact amount when partial payments are not allowed', () => {
      expect(applyPayment(debt({ allowPartialPayments: false }), 10_000, TODAY)).to.deep.equal({ status: 'PAID', amountPaidCents: 10_000 });
    });

    describe('rule order', () => {
      it('a final state wins over every other rule', () => {
        const paid = debt({ status: 'PAID', amountPaidCents: 10_000, dueDate: YESTERDAY, allowOverduePayment: false, allowPartialPayments: false });
        expect(ruleViolation(() => applyPayment(paid, 50_000, TODAY))).to.equal('A PAID debt cannot be paid');
      });

      it('the overdue rule wins over the amount rules', () => {
        const late = debt({ dueDate: YESTERDAY, allowOverduePayment: false, allowPartialPayments: false });
        expect(ruleViolation(() => applyPayment(late, 50_000, TODAY))).to.match(/overdue payment/);
        expect(ruleViolation(() => applyPayment(late, 1, TODAY))).to.match(/overdue payment/);
      });

      it('more than remaining wins over the partial rule', () => {
        const whole = debt({ allowPartialPayments: false });
        expect(ruleViolation(() => applyPayment(whole, 10_001, TODAY))).to.equal('The payment exceeds the remaining amount');
      });
    });

    describe('properties', () => {
      const amount = fc.integer({ min: 1, max: 100_000_000_000 });

      it('any sequence of payments never exceeds the amount, and ends PAID exactly when the sum reaches it', () => {
        fc.assert(
          fc.property(amount, fc.array(fc.integer({ min: 1, max: 100_000_000_000 }), { maxLength: 30 }), (amountCents, payments) => {
            let state = debt({ amountCents });
            let accepted = 0;
            for (const payment of payments) {
              const remaining = remainingCents(state);
              if (state.status === 'PAID') {
                expect(ruleViolation(() => applyPayment(state, payment, TODAY))).to.equal('A PAID debt cannot be paid');
              } else if (payment > remaining) {
                expect(ruleViolation(() => applyPayment(state, payment, TODAY))).to.equal('The payment exceeds the remaining amount');
              } else {
                state = { ...state, ...applyPayment(state, payment, TODAY) };
                accepted += payment;
              }
              expect(state.amountPaidCents).to.equal(accepted);
              expect(state.amountPaidCents).to.be.at.most(amountCents);
              expect(state.status).to.equal(state.amountPaidCents === amountCents ? 'PAID' : accepted > 0 ? 'PARTIALLY_PAID' : 'PENDING');
            }
          }),
        );
      });

      it('an amount split into any parts is paid exactly: PARTIALLY_PAID until the last part, then PAID', () => {
        const split = fc.integer({ min: 2, max: 100_000_000_000 }).chain((amountCents) =>
          fc
            .uniqueArray(fc.integer({ min: 1, max: amountCents - 1 }), { maxLength: Math.min(20, amountCents - 1) })
            .map((cuts) => {
              const points = [0, ...cuts.sort((a, b) => a - b), amountCents];
              return { amountCents, parts: points.slice(1).map((p, i) => p - points[i]!) };
            }),
        );
        fc.assert(
          fc.property(split, ({ amountCents, parts }) => {
            let state = debt({ amountCents });
            parts.forEach((part, i) => {
              state = { ...state, ...applyPayment(state, part, TODAY) };
              expect(state.status).to.equal(i === parts.length - 1 ? 'PAID' : 'PARTIALLY_PAID');
            });
            expect(state.amountPaidCents).to.equal(amountCents);
          }),
        );
      });

      it('without partial payments, only the exact remaining amount is accepted', () => {
        fc.assert(
          fc.property(amount, amount, (amountCents, payment) => {
            const whole = debt({ amountCents, allowPartialPayments: false });
            if (payment === amountCents) {
              expect(applyPayment(whole, payment, TODAY)).to.deep.equal({ status: 'PAID', amountPaidCents: amountCents });
            } else {
              ruleViolation(() => applyPayment(whole, payment, TODAY));
            }
          }),
        );
      });
    });
  });

  describe('assertCancellable', () => {
    const cancellable: [string, Pick<Debt, 'status' | 'dueDate'>][] = [
      ['PENDING', { status: 'PENDING', dueDate: TODAY }],
      ['PENDING past due (reads OVERDUE)', { status: 'PENDING', dueDate: YESTERDAY }],
      ['PARTIALLY_PAID', { status: 'PARTIALLY_PAID', dueDate: TODAY }],
      ['PARTIALLY_PAID past due', { status: 'PARTIALLY_PAID', dueDate: YESTERDAY }],
      ['OVERDUE', { status: 'OVERDUE', dueDate: YESTERDAY }],
    ];
    for (const [label, d] of cancellable) {
      it(`allows cancelling a ${label} debt`, () => {
        expect(() => assertCancellable(d, TODAY)).to.not.throw();
      });
    }

    it('refuses a PAID debt', () => {
      expect(ruleViolation(() => assertCancellable({ status: 'PAID', dueDate: TODAY }, TODAY))).to.equal('A PAID debt cannot be cancelled');
    });

    it('refuses a CANCELLED debt', () => {
      expect(ruleViolation(() => assertCancellable({ status: 'CANCELLED', dueDate: YESTERDAY }, TODAY))).to.equal(
        'A CANCELLED debt cannot be cancelled',
      );
    });
  });

  describe('assertEditable', () => {
    it('allows editing a PENDING debt due today or later', () => {
      expect(() => assertEditable({ status: 'PENDING', dueDate: TODAY }, TODAY)).to.not.throw();
      expect(() => assertEditable({ status: 'PENDING', dueDate: TOMORROW }, TODAY)).to.not.throw();
    });

    it('refuses a PENDING debt past due, naming it OVERDUE', () => {
      expect(ruleViolation(() => assertEditable({ status: 'PENDING', dueDate: YESTERDAY }, TODAY))).to.equal(
        'A OVERDUE debt cannot be modified',
      );
    });

    for (const status of ['PARTIALLY_PAID', 'PAID', 'OVERDUE', 'CANCELLED'] as const) {
      it(`refuses a ${status} debt`, () => {
        expect(ruleViolation(() => assertEditable({ status, dueDate: TOMORROW }, TODAY))).to.equal(`A ${status} debt cannot be modified`);
      });
    }

    it('property: editable exactly when the effective status is PENDING', () => {
      fc.assert(
        fc.property(fc.constantFrom<DebtStatus>(...DEBT_STATUSES), dayNumber, dayNumber, (status, due, today) => {
          const d = { status, dueDate: dayText(due) };
          const editable = effectiveStatus(d, dayText(today)) === 'PENDING';
          if (editable) expect(() => assertEditable(d, dayText(today))).to.not.throw();
          else ruleViolation(() => assertEditable(d, dayText(today)));
        }),
      );
    });
  });
});

describe('debts: createdAtFrom/createdAtTo rules (internal/shared/created-range.ts)', () => {
  const range = (from: string | undefined, to: string | undefined, now = NOW) => dailyCreatedRange(from, to, now);

  describe('rule 1: a date or an RFC 3339 date-time, anything else 400', () => {
    const invalid = [
      '',
      ' ',
      'yesterday',
      '2031-5-04',
      '2031-05-4',
      '20310504',
      '2031/05/04',
      '04-05-2031',
      '2031-02-30',
      '2031-13-01',
      '2031-00-10',
      '2031-02-29',
      ' 2031-05-04',
      '2031-05-04 ',
      '2031-05-04T10:00Z',
      '2031-05-04T10:00:00',
      '2031-05-04 10:00:00Z',
      '2031-05-04T10:00:00+0200',
      '2031-05-04T10:00:00+02',
      '2031-05-04T10:60:00Z',
      '2031-05-04T10:00:61Z',
      '2031-05-04T25:00:00Z',
      '2031-05-04T24:00:00Z',
      '2031-02-30T10:00:00Z',
      '2031-05-04T10:00:00+24:00',
      '2031-05-04T10:00:00.Z',
      '1715000000000',
    ];
    for (const text of invalid) {
      it(`refuses createdAtFrom ${JSON.stringify(text)} with field createdAtFrom`, () => {
        const error = invalidRequest(() => range(text, undefined));
        expect(error.details).to.deep.equal([{ field: 'createdAtFrom', issue: 'must be a date (YYYY-MM-DD) or an RFC 3339 date-time' }]);
      });

      it(`refuses createdAtTo ${JSON.stringify(text)} with field createdAtTo`, () => {
        const error = invalidRequest(() => range('2031-05-01', text));
        expect(error.details.map((d) => d.field)).to.deep.equal(['createdAtTo']);
      });
    }

    it('names createdAtFrom when both are invalid', () => {
      expect(invalidRequest(() => range('nope', 'nope')).details.map((d) => d.field)).to.deep.equal(['createdAtFrom']);
    });

    it('accepts lower-case t and z, fractions of any length, and -00:00', () => {
      expect(range('2031-05-03t10:00:00z', '2031-05-03t10:00:00z')).to.deep.equal({
        from: startOf('2031-05-03'),
        to: endOf('2031-05-03'),
        empty: false,
      });
      expect(range('2031-05-03T10:00:00.1234567Z', '2031-05-03T10:00:00.5Z').from).to.equal(startOf('2031-05-03'));
      expect(range('2031-05-03T10:00:00-00:00', undefined).from).to.equal(startOf('2031-05-03'));
    });
  });

  describe('rule 2: a date covers its whole UTC day, both ends inclusive', () => {
    it('without either bound there is no range', () => {
      expect(range(undefined, undefined)).to.deep.equal({ from: null, to: null, empty: false });
    });

    it('the same date in both is that day, 00:00:00.000Z to 23:59:59.999Z', () => {
      expect(range('2031-05-03', '2031-05-03')).to.deep.equal({
        from: Date.UTC(2031, 4, 3, 0, 0, 0, 0),
        to: Date.UTC(2031, 4, 3, 23, 59, 59, 999),
        empty: false,
      });
    });

    it('two dates span from the start of the first day to the end of the last', () => {
      expect(range('2031-04-28', '2031-05-03')).to.deep.equal({
        from: Date.UTC(2031, 3, 28),
        to: Date.UTC(2031, 4, 3, 23, 59, 59, 999),
        empty: false,
      });
    });

    it('a leap day is a day', () => {
      expect(range('2032-02-29', '2032-02-29')).to.deep.equal({ from: startOf('2032-02-29'), to: endOf('2032-02-29'), empty: false });
    });

    it('property: the range of d1..d2 holds exactly the instants of those UTC days', () => {
      const instant = fc.integer({ min: Date.UTC(2000, 0, 1), max: Date.UTC(2100, 0, 1) });
      fc.assert(
        fc.property(dayNumber, fc.integer({ min: 0, max: 400 }), instant, (d1, length, t) => {
          const d2 = d1 + length;
          const r = range(dayText(d1), dayText(d2), new Date(Date.UTC(2101, 0, 1)));
          const inRange = t >= r.from! && t <= r.to!;
          const day = Math.floor(t / DAY_MS);
          expect(inRange).to.equal(day >= d1 && day <= d2);
          expect(r.empty).to.equal(false);
        }),
      );
    });
  });

  describe('rule 3: a date-time stands for its UTC day, daily precision', () => {
    it('a Z date-time in the middle of a day covers that whole day', () => {
      expect(range('2031-05-03T13:45:12.345Z', '2031-05-04T08:00:00Z')).to.deep.equal({
        from: startOf('2031-05-03'),
        to: endOf('2031-05-04'),
        empty: false,
      });
    });

    it('converts a negative offset to UTC first (the UTC day can be the next one)', () => {
      // 23:30 at -02:00 is 01:30Z of the 4th.
      expect(range('2031-05-03T23:30:00-02:00', '2031-05-03T23:30:00-02:00')).to.deep.equal({
        from: startOf('2031-05-04'),
        to: endOf('2031-05-04'),
        empty: false,
      });
    });

    it('converts a positive offset to UTC first (the UTC day can be the previous one)', () => {
      // 01:00 at +05:00 is 20:00Z of the 3rd.
      expect(range('2031-05-04T01:00:00+05:00', '2031-05-04T01:00:00+05:00')).to.deep.equal({
        from: startOf('2031-05-03'),
        to: endOf('2031-05-03'),
        empty: false,
      });
    });

    it('two date-times of the same UTC day, the later one first, are that day (not from > to)', () => {
      expect(range('2031-05-04T20:00:00Z', '2031-05-04T10:00:00Z')).to.deep.equal({
        from: startOf('2031-05-04'),
        to: endOf('2031-05-04'),
        empty: false,
      });
    });

    it('a createdAtTo at exactly 00:00:00Z excludes that day', () => {
      expect(range('2031-05-01', '2031-05-04T00:00:00Z').to).to.equal(endOf('2031-05-03'));
      expect(range('2031-05-01', '2031-05-04T00:00:00.000Z').to).to.equal(endOf('2031-05-03'));
      expect(range(undefined, '2031-05-04T00:00:00Z')).to.deep.equal({ from: null, to: Date.UTC(2031, 4, 3, 23, 59, 59, 999), empty: false });
    });

    it('a createdAtTo at UTC midnight written with an offset also excludes that day', () => {
      // 02:00+02:00 and 19:00-05:00 of the day before are both 00:00Z of the 4th.
      expect(range(undefined, '2031-05-04T02:00:00+02:00').to).to.equal(endOf('2031-05-03'));
      expect(range(undefined, '2031-05-03T19:00:00-05:00').to).to.equal(endOf('2031-05-03'));
    });

    it('a createdAtTo one millisecond after midnight includes the day', () => {
      expect(range(undefined, '2031-05-04T00:00:00.001Z').to).to.equal(endOf('2031-05-04'));
    });

    it('a createdAtTo at local midnight that is not UTC midnight includes its UTC day', () => {
      // 00:00-03:00 is 03:00Z of the same date.
      expect(range(undefined, '2031-05-04T00:00:00-03:00').to).to.equal(endOf('2031-05-04'));
    });

    it('a createdAtFrom at exactly 00:00:00Z starts that day (the midnight rule is for createdAtTo only)', () => {
      expect(range('2031-05-04T00:00:00Z', '2031-05-05').from).to.equal(startOf('2031-05-04'));
    });

    it('a plain createdAtTo date is never read as midnight: it includes its day', () => {
      expect(range(undefined, '2031-05-04').to).to.equal(endOf('2031-05-04'));
    });

    it('property: a date-time at any offset covers the UTC day of the instant it names', () => {
      const offsetMinutes = fc.integer({ min: -(23 * 60 + 59), max: 23 * 60 + 59 });
      const instant = fc.integer({ min: Date.UTC(2000, 0, 2), max: Date.UTC(2099, 11, 30) });
      fc.assert(
        fc.property(instant, offsetMinutes, (t, offset) => {
          const text = withOffset(t, offset);
          const utcDay = new Date(t).toISOString().slice(0, 10);
          expect(range(text, undefined, new Date(Date.UTC(2101, 0, 1))).from, text).to.equal(startOf(utcDay));
          const midnight = t === startOf(utcDay);
          expect(range(undefined, text).to, text).to.equal(midnight ? startOf(utcDay) - 1 : endOf(utcDay));
        }),
      );
    });
  });

  describe('rule 4: without createdAtTo the range runs to today', () => {
    it('a past createdAtFrom alone runs to the end of the current UTC day', () => {
      expect(range('2031-05-01', undefined)).to.deep.equal({ from: startOf('2031-05-01'), to: endOf('2031-05-10'), empty: false });
    });

    it("today's date alone is today", () => {
      expect(range('2031-05-10', undefined)).to.deep.equal({ from: startOf('2031-05-10'), to: endOf('2031-05-10'), empty: false });
    });

    it('a createdAtFrom later today (date-time) still covers today', () => {
      expect(range('2031-05-10T23:00:00Z', undefined)).to.deep.equal({ from: startOf('2031-05-10'), to: endOf('2031-05-10'), empty: false });
    });

    it('a future createdAtFrom alone is empty', () => {
      expect(range('2031-05-11', undefined)).to.deep.equal({ from: startOf('2031-05-11'), to: endOf('2031-05-10'), empty: true });
      expect(range('2031-05-11T00:00:00Z', undefined).empty).to.equal(true);
      expect(range('2099-01-01', undefined).empty).to.equal(true);
    });

    it('a date-time that is today in UTC but tomorrow in its own offset is not in the future', () => {
      // 01:00+05:00 of the 11th is 20:00Z of the 10th.
      expect(range('2031-05-11T01:00:00+05:00', undefined)).to.deep.equal({ from: startOf('2031-05-10'), to: endOf('2031-05-10'), empty: false });
    });

    it('"today" follows the clock it is given, to the millisecond', () => {
      expect(range('2031-05-11', undefined, new Date('2031-05-10T23:59:59.999Z')).empty).to.equal(true);
      expect(range('2031-05-11', undefined, new Date('2031-05-11T00:00:00.000Z'))).to.deep.equal({
        from: startOf('2031-05-11'),
        to: endOf('2031-05-11'),
        empty: false,
      });
    });

    it('a future createdAtFrom with a createdAtTo is a plain range, not empty', () => {
      expect(range('2031-06-01', '2031-06-02')).to.deep.equal({ from: startOf('2031-06-01'), to: endOf('2031-06-02'), empty: false });
    });

    it('a createdAtTo alone has no lower bound', () => {
      expect(range(undefined, '2031-05-03')).to.deep.equal({ from: null, to: endOf('2031-05-03'), empty: false });
    });
  });

  describe('rule 5: createdAtFrom later than createdAtTo is 400', () => {
    const message = 'createdAtFrom must be earlier than or equal to createdAtTo';

    it('refuses a later date with the exact message, naming createdAtFrom', () => {
      const error = invalidRequest(() => range('2031-05-05', '2031-05-04'));
      expect(error.message).to.equal(message);
      expect(error.details).to.deep.equal([{ field: 'createdAtFrom', issue: 'must be earlier than or equal to createdAtTo' }]);
    });

    it('refuses date-times on later UTC days, after conversion', () => {
      // 23:00-03:00 of the 4th is the 5th in UTC; 10:00Z of the 4th is the 4th.
      expect(invalidRequest(() => range('2031-05-04T23:00:00-03:00', '2031-05-04T10:00:00Z')).message).to.equal(message);
    });

    it('refuses a createdAtFrom of the same day as a midnight createdAtTo (that day is excluded)', () => {
      expect(invalidRequest(() => range('2031-05-04', '2031-05-04T00:00:00Z')).message).to.equal(message);
    });

    it('property: two dates are refused exactly when the first is the later day', () => {
      fc.assert(
        fc.property(dayNumber, dayNumber, (d1, d2) => {
          if (d1 > d2) expect(invalidRequest(() => range(dayText(d1), dayText(d2))).message).to.equal(message);
          else expect(range(dayText(d1), dayText(d2))).to.deep.equal({ from: d1 * DAY_MS, to: (d2 + 1) * DAY_MS - 1, empty: false });
        }),
      );
    });
  });
});

/** The instant `t` written as an RFC 3339 date-time at `offsetMinutes` from UTC. */
function withOffset(t: number, offsetMinutes: number): string {
  const local = new Date(t + offsetMinutes * 60_000).toISOString().slice(0, 23);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}
