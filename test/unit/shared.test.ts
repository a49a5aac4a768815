import { expect } from 'chai';
import fc from 'fast-check';
import { daysInMonth, isCalendarDate, isWireInstant, toIsoUtc, utcDateOf, utcDay } from '../../internal/shared/calendar-date';
import { InvalidRequestError } from '../../internal/shared/errors';
import { amountFromCents, centsFromAmount } from '../../internal/shared/money';
import { COUNT_SCAN_CAP, cappedTotal, MAX_OFFSET, offsetOf, pageOfMatches, totalFromPage } from '../../internal/shared/page';

/** The 400 a bad amount becomes: INVALID_REQUEST naming the field. */
function expectInvalidAmount(amount: number, field = 'amount'): void {
  let thrown: unknown;
  try {
    centsFromAmount(amount, field);
  } catch (error) {
    thrown = error;
  }
  expect(thrown, `centsFromAmount(${amount})`).to.be.instanceOf(InvalidRequestError);
  const error = thrown as InvalidRequestError;
  expect(error.code).to.equal('INVALID_REQUEST');
  expect(error.details).to.have.length(1);
  expect(error.details[0]!.field).to.equal(field);
}

/** `<units>.<2 digits>` as the wire would carry it, e.g. 12.05, 7.1, 3. */
const twoDecimalAmount = fc
  .record({ units: fc.integer({ min: 0, max: 9_999_999_999_999 }), fraction: fc.integer({ min: 0, max: 99 }) })
  .filter(({ units, fraction }) => units > 0 || fraction > 0)
  .map(({ units, fraction }) => ({
    cents: units * 100 + fraction,
    amount: Number(`${units}.${String(fraction).padStart(2, '0')}`),
  }));

describe('money', () => {
  describe('centsFromAmount', () => {
    it('converts through the decimal text, not float multiplication', () => {
      expect(centsFromAmount(0.01)).to.equal(1);
      expect(centsFromAmount(10.5)).to.equal(1050);
      expect(centsFromAmount(0.29)).to.equal(29);
      expect(centsFromAmount(1.15)).to.equal(115);
      expect(centsFromAmount(19.99)).to.equal(1999);
      expect(centsFromAmount(100)).to.equal(10000);
      expect(centsFromAmount(4.35)).to.equal(435);
    });

    it('refuses more than 2 decimals', () => {
      expectInvalidAmount(1.005);
      expectInvalidAmount(0.001);
      expectInvalidAmount(10.123);
      expectInvalidAmount(1e-7);
    });

    it('refuses zero and negative amounts', () => {
      expectInvalidAmount(0);
      expectInvalidAmount(-0);
      expectInvalidAmount(-1);
      expectInvalidAmount(-0.01);
    });

    it('refuses NaN and infinities', () => {
      expectInvalidAmount(Number.NaN);
      expectInvalidAmount(Number.POSITIVE_INFINITY);
      expectInvalidAmount(Number.NEGATIVE_INFINITY);
    });

    it('refuses amounts too large to count in safe-integer cents', () => {
      expectInvalidAmount(1e21);
      expectInvalidAmount(1e300);
      expectInvalidAmount(Number.MAX_SAFE_INTEGER);
    });

    it('refuses a non-number', () => {
      expectInvalidAmount('10' as unknown as number);
    });

    it('names the field it was given', () => {
      expectInvalidAmount(0, 'price');
    });
  });

  describe('amountFromCents', () => {
    it('gives the wire number in currency units', () => {
      expect(amountFromCents(1)).to.equal(0.01);
      expect(amountFromCents(29)).to.equal(0.29);
      expect(amountFromCents(1050)).to.equal(10.5);
      expect(amountFromCents(10000)).to.equal(100);
      expect(amountFromCents(0)).to.equal(0);
    });

    it('gives exactly the number the two-decimal string parses to, for any whole number of cents', () => {
      const viaDecimalString = (cents: number) => Number((cents / 100).toFixed(2));
      fc.assert(
        fc.property(fc.oneof(fc.integer({ min: -10_000_000, max: 10_000_000 }), fc.maxSafeInteger(), fc.maxSafeNat().map((n) => -n)), (cents) => {
          expect(amountFromCents(cents)).to.equal(viaDecimalString(cents));
          // And the same on the wire.
          expect(JSON.stringify(amountFromCents(cents))).to.equal(JSON.stringify(viaDecimalString(cents)));
        }),
        { numRuns: 20_000 },
      );
    });
  });

  describe('properties', () => {
    it('an amount with at most 2 decimals round-trips through cents exactly', () => {
      fc.assert(
        fc.property(twoDecimalAmount, ({ cents, amount }) => {
          expect(centsFromAmount(amount)).to.equal(cents);
          expect(amountFromCents(cents)).to.equal(amount);
        }),
        { numRuns: 2000 },
      );
    });

    it('any count of cents round-trips through the wire amount', () => {
      fc.assert(
        fc.property(fc.integer({ min: 1, max: 999_999_999_999_999 }), (cents) => {
          expect(centsFromAmount(amountFromCents(cents))).to.equal(cents);
        }),
        { numRuns: 2000 },
      );
    });

    it('an amount with a third significant decimal is always refused', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: 999_999_999 }), fc.integer({ min: 0, max: 999 }).filter((f) => f % 10 !== 0), (units, fraction) => {
          expectInvalidAmount(Number(`${units}.${String(fraction).padStart(3, '0')}`));
        }),
        { numRuns: 1000 },
      );
    });
  });
});

describe('calendar-date', () => {
  describe('isCalendarDate', () => {
    it('accepts real days, leap days of leap years included', () => {
      for (const date of ['2024-02-29', '2000-02-29', '2026-01-01', '2026-12-31', '2026-04-30', '1999-02-28']) {
        expect(isCalendarDate(date), date).to.equal(true);
      }
    });

    it('refuses days that do not exist', () => {
      for (const date of ['2023-02-29', '1900-02-29', '2026-02-30', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00', '2026-01-32']) {
        expect(isCalendarDate(date), date).to.equal(false);
      }
    });

    it('refuses other shapes', () => {
      for (const date of ['2026-1-01', '2026-01-1', '26-01-01', '2026/01/01', '2026-01-01T00:00:00Z', ' 2026-01-01', '2026-01-01 ', '', '２０２６-01-01']) {
        expect(isCalendarDate(date), JSON.stringify(date)).to.equal(false);
      }
    });
  });

  it('daysInMonth and utcDay take years 0 to 99 as they are, not as 1900 to 1999', () => {
    expect(daysInMonth(0, 2)).to.equal(29); // year 0 is a leap year; 1900 is not
    expect(daysInMonth(4, 2)).to.equal(29);
    expect(daysInMonth(99, 2)).to.equal(28);
    expect(utcDay(50, 1, 1).toISOString()).to.equal('0050-01-01T00:00:00.000Z');
    expect(utcDay(99, 12, 32).toISOString()).to.equal('0100-01-01T00:00:00.000Z');
    expect(utcDay(2024, 3, 0).toISOString()).to.equal('2024-02-29T00:00:00.000Z');
  });

  it('isWireInstant: the instants YYYY-MM-DDTHH:mm:ss.sssZ can carry, year 0000 to 9999 in UTC', () => {
    expect(isWireInstant(Date.parse('9999-12-31T23:59:59.999Z'))).to.equal(true);
    expect(isWireInstant(Date.parse('0000-01-01T00:00:00Z'))).to.equal(true);
    expect(isWireInstant(Date.parse('9999-12-31T23:59:59-00:01'))).to.equal(false); // 10000-01-01T00:00:59Z
    expect(isWireInstant(Date.parse('0000-01-01T00:00:00+00:01'))).to.equal(false); // -000001-12-31T23:59:00Z
    expect(isWireInstant(Number.NaN)).to.equal(false);
  });

  it('daysInMonth knows February of leap years', () => {
    expect(daysInMonth(2024, 2)).to.equal(29);
    expect(daysInMonth(2023, 2)).to.equal(28);
    expect(daysInMonth(1900, 2)).to.equal(28);
    expect(daysInMonth(2000, 2)).to.equal(29);
    expect(daysInMonth(2026, 4)).to.equal(30);
    expect(daysInMonth(2026, 12)).to.equal(31);
  });

  describe('utcDateOf', () => {
    it('is the UTC calendar date, whatever the offset the instant was written with', () => {
      expect(utcDateOf(new Date('2026-03-01T02:00:00+05:00'))).to.equal('2026-02-28');
      expect(utcDateOf(new Date('2026-02-28T22:00:00-05:00'))).to.equal('2026-03-01');
      expect(utcDateOf(new Date('2024-12-31T23:59:59.999Z'))).to.equal('2024-12-31');
      expect(utcDateOf(new Date('2025-01-01T00:00:00.000Z'))).to.equal('2025-01-01');
    });

    it('always yields a valid calendar date', () => {
      fc.assert(
        fc.property(fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true }), (instant) => {
          expect(isCalendarDate(utcDateOf(instant))).to.equal(true);
        }),
      );
    });

    it('answers each instant its own date, whatever day was asked before (the last one is kept)', () => {
      const instant = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
      fc.assert(
        fc.property(fc.array(instant, { minLength: 1, maxLength: 8 }), (instants) => {
          for (const at of [...instants, ...instants]) expect(utcDateOf(at)).to.equal(at.toISOString().slice(0, 10));
        }),
      );
      expect(utcDateOf(new Date('2026-12-07T23:59:59.999Z'))).to.equal('2026-12-07');
      expect(utcDateOf(new Date('2026-12-08T00:00:00.000Z'))).to.equal('2026-12-08');
      expect(() => utcDateOf(new Date(Number.NaN))).to.throw(RangeError);
    });
  });

  describe('toIsoUtc', () => {
    it('writes UTC with milliseconds and a trailing Z, from a Date or epoch ms', () => {
      expect(toIsoUtc(new Date('2030-01-01T10:00:00-05:00'))).to.equal('2030-01-01T15:00:00.000Z');
      expect(toIsoUtc(0)).to.equal('1970-01-01T00:00:00.000Z');
      expect(toIsoUtc(Date.UTC(2026, 1, 3, 4, 5, 6, 7))).to.equal('2026-02-03T04:05:06.007Z');
    });

    it("writes what Date's toISOString writes, for any instant of the wire range (years 0000-9999, negative epochs included) and past it, Date or number", () => {
      const earliest = utcDay(0, 1, 1).getTime();
      const latest = utcDay(10000, 1, 1).getTime() - 1;
      fc.assert(
        fc.property(fc.integer({ min: earliest - 10 * 86_400_000, max: latest + 10 * 86_400_000 }), (ms) => {
          const expected = new Date(ms).toISOString();
          expect(toIsoUtc(ms)).to.equal(expected);
          expect(toIsoUtc(new Date(ms))).to.equal(expected);
        }),
        { numRuns: 2000 },
      );
      for (const ms of [earliest, latest, -1, 0, 86_399_999, 86_400_000]) expect(toIsoUtc(ms)).to.equal(new Date(ms).toISOString());
      expect(() => toIsoUtc(Number.NaN)).to.throw(RangeError);
    });

    it('round-trips every instant to the millisecond', () => {
      fc.assert(
        fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31) }), (ms) => {
          const text = toIsoUtc(ms);
          expect(text).to.match(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
          expect(Date.parse(text)).to.equal(ms);
        }),
      );
    });
  });
});

describe('page', () => {
  it('offsetOf skips the pages before, and stops at MAX_OFFSET (every page past it is empty)', () => {
    expect(offsetOf({ page: 1, limit: 50 })).to.equal(0);
    expect(offsetOf({ page: 3, limit: 20 })).to.equal(40);
    expect(offsetOf({ page: Number.MAX_SAFE_INTEGER, limit: 500 })).to.equal(MAX_OFFSET);
    expect(Number.isSafeInteger(MAX_OFFSET + 500), 'offset + limit stays exact').to.equal(true);
  });

  describe('totalFromPage', () => {
    it('tells the total from a page that is not full, and defers to a count otherwise', () => {
      expect(totalFromPage({ page: 1, limit: 50 }, 0)).to.equal(0);
      expect(totalFromPage({ page: 1, limit: 50 }, 11)).to.equal(11);
      expect(totalFromPage({ page: 3, limit: 2 }, 1)).to.equal(5);
      expect(totalFromPage({ page: 1, limit: 50 }, 50), 'a full page').to.equal(null);
      expect(totalFromPage({ page: 4, limit: 2 }, 0), 'past the end').to.equal(null);
    });

    it('property: whenever it answers, it answers the number of matches', () => {
      fc.assert(
        fc.property(fc.nat(3000), fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 500 }), (matches, page, limit) => {
          const found = Math.max(0, Math.min(limit, matches - offsetOf({ page, limit })));
          const told = totalFromPage({ page, limit }, found);
          return told === null || told === matches;
        }),
      );
    });
  });

  it('pageOfMatches slices the page from the matches in hand and counts them all', () => {
    expect(pageOfMatches(['a'], { page: 1, limit: 50 })).to.deep.equal({ items: ['a'], total: 1, capped: false });
    expect(pageOfMatches(['a'], { page: 2, limit: 1 })).to.deep.equal({ items: [], total: 1, capped: false });
    expect(pageOfMatches(['a', 'b', 'c'], { page: 2, limit: 2 })).to.deep.equal({ items: ['c'], total: 3, capped: false });
    expect(pageOfMatches([], { page: 1, limit: 50 })).to.deep.equal({ items: [], total: 0, capped: false });
  });

  it('cappedTotal stops at the scan cap and says so', () => {
    expect(cappedTotal(0)).to.deep.equal({ total: 0, capped: false });
    expect(cappedTotal(COUNT_SCAN_CAP)).to.deep.equal({ total: COUNT_SCAN_CAP, capped: false });
    expect(cappedTotal(COUNT_SCAN_CAP + 1)).to.deep.equal({ total: COUNT_SCAN_CAP, capped: true });
  });
});
