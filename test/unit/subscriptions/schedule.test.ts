import { expect } from 'chai';
import fc from 'fast-check';
import { daysInMonth } from '../../../internal/shared/calendar-date';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { cycleCount, dueDates, MAX_CYCLES, parseSchedule, type ScheduleInput } from '../../../internal/subscriptions/schedule';

const fieldsOf = (input: ScheduleInput): string[] => {
  try {
    parseSchedule(input);
    return [];
  } catch (error) {
    expect(error).to.be.instanceOf(InvalidRequestError);
    return (error as InvalidRequestError).details.map((d) => d.field);
  }
};

const dateArb = fc
  .record({ y: fc.integer({ min: 2000, max: 2060 }), m: fc.integer({ min: 1, max: 12 }), d: fc.integer({ min: 1, max: 31 }) })
  .map(({ y, m, d }) => `${y}-${String(m).padStart(2, '0')}-${String(Math.min(d, daysInMonth(y, m))).padStart(2, '0')}`);

const scheduleArb = fc.record({
  intervalUnit: fc.constantFrom('day' as const, 'week' as const, 'month' as const, 'year' as const),
  intervalCount: fc.integer({ min: 1, max: 12 }),
  startDate: dateArb,
  totalCycles: fc.integer({ min: 1, max: 60 }),
});

describe('subscription schedule', () => {
  describe('validation', () => {
    it('names each invalid field', () => {
      expect(fieldsOf({ intervalUnit: 'MONTH' as never, intervalCount: 1, startDate: '2026-01-01' })).to.deep.equal(['intervalUnit']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 0, startDate: '2026-01-01' })).to.deep.equal(['intervalCount']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-02-30' })).to.deep.equal(['startDate']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01', totalCycles: 0 })).to.deep.equal(['totalCycles']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01', totalCycles: 521 })).to.deep.equal(['totalCycles']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01', totalCycles: 3, endDate: '2027-01-01' })).to.deep.equal(['endDate']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01', endDate: '2026-01-01' })).to.deep.equal(['endDate']);
      expect(fieldsOf({ intervalUnit: 'week', intervalCount: 1, startDate: '2026-01-01', billingDay: { day: 5 } })).to.deep.equal(['billingDay']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01', billingDay: { day: 5, month: 2 } })).to.deep.equal(['billingDay.month']);
      expect(fieldsOf({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-01-01', billingDay: { day: 31, month: 4 } })).to.deep.equal(['billingDay.day']);
      expect(fieldsOf({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-01-01', billingDay: { day: 1, month: 13 } })).to.deep.equal(['billingDay.month']);
      expect(fieldsOf({ intervalUnit: 'day', intervalCount: 1, startDate: '2026-01-01', endDate: '2030-01-01' })).to.deep.equal(['endDate']);
      // The effective billing day is checked too: day 31 with the month inferred from a February start.
      expect(fieldsOf({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-02-10', billingDay: { day: 31 } })).to.deep.equal(['billingDay.day']);
      expect(fieldsOf({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-02-10', billingDay: { day: 29 } })).to.deep.equal([]);
    });

    it('infers the billing day from startDate and returns it', () => {
      expect(parseSchedule({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-03-17' }).billingDay).to.deep.equal({ day: 17 });
      expect(parseSchedule({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-03-17' }).billingDay).to.deep.equal({ day: 17, month: 3 });
      expect(parseSchedule({ intervalUnit: 'week', intervalCount: 1, startDate: '2026-03-17' }).billingDay).to.equal(null);
      expect(parseSchedule({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-03-17', billingDay: { day: 2 } }).billingDay).to.deep.equal({ day: 2, month: 3 });
    });
  });

  describe('due dates', () => {
    it('clamps a billing day past the month end and returns to it the month after', () => {
      const s = parseSchedule({ intervalUnit: 'month', intervalCount: 1, startDate: '2023-01-31', totalCycles: 4 });
      expect(dueDates(s)).to.deep.equal(['2023-01-31', '2023-02-28', '2023-03-31', '2023-04-30']);
      const leap = parseSchedule({ intervalUnit: 'month', intervalCount: 1, startDate: '2024-01-31', totalCycles: 3 });
      expect(dueDates(leap)).to.deep.equal(['2024-01-31', '2024-02-29', '2024-03-31']);
    });

    it('starts on the first billing day on or after startDate', () => {
      const s = parseSchedule({ intervalUnit: 'month', intervalCount: 2, startDate: '2026-01-15', billingDay: { day: 10 }, totalCycles: 3 });
      expect(dueDates(s)).to.deep.equal(['2026-02-10', '2026-04-10', '2026-06-10']);
      const y = parseSchedule({ intervalUnit: 'year', intervalCount: 1, startDate: '2026-06-01', billingDay: { day: 1, month: 3 }, totalCycles: 2 });
      expect(dueDates(y)).to.deep.equal(['2027-03-01', '2028-03-01']);
    });

    it('handles leap days in yearly schedules and day/week units', () => {
      const y = parseSchedule({ intervalUnit: 'year', intervalCount: 1, startDate: '2024-02-29', totalCycles: 5 });
      expect(dueDates(y)).to.deep.equal(['2024-02-29', '2025-02-28', '2026-02-28', '2027-02-28', '2028-02-29']);
      expect(dueDates(parseSchedule({ intervalUnit: 'day', intervalCount: 10, startDate: '2024-02-25', totalCycles: 3 }))).to.deep.equal([
        '2024-02-25',
        '2024-03-06',
        '2024-03-16',
      ]);
      expect(dueDates(parseSchedule({ intervalUnit: 'week', intervalCount: 2, startDate: '2024-01-01', endDate: '2024-02-12' }))).to.deep.equal([
        '2024-01-01',
        '2024-01-15',
        '2024-01-29',
        '2024-02-12',
      ]);
    });

    it('keeps years 1 to 99 as they are (day and week units once moved them to the 1900s)', () => {
      expect(dueDates(parseSchedule({ intervalUnit: 'day', intervalCount: 1, startDate: '0050-12-31', totalCycles: 2 }))).to.deep.equal(['0050-12-31', '0051-01-01']);
      expect(dueDates(parseSchedule({ intervalUnit: 'week', intervalCount: 1, startDate: '0004-02-26', totalCycles: 2 }))).to.deep.equal(['0004-02-26', '0004-03-04']);
    });

    it('refuses a schedule whose cycles run past 9999-12-31, naming totalCycles (or startDate when open-ended)', () => {
      expect(fieldsOf({ intervalUnit: 'year', intervalCount: 1000, startDate: '9999-12-31', totalCycles: 520 })).to.deep.equal(['totalCycles']);
      expect(fieldsOf({ intervalUnit: 'day', intervalCount: 1000, startDate: '9999-12-31', totalCycles: 2 })).to.deep.equal(['totalCycles']);
      expect(fieldsOf({ intervalUnit: 'week', intervalCount: 1, startDate: '9999-12-25', totalCycles: 2 })).to.deep.equal(['totalCycles']);
      expect(fieldsOf({ intervalUnit: 'month', intervalCount: 1, startDate: '9999-12-02', billingDay: { day: 1 } })).to.deep.equal(['startDate']);
      expect(fieldsOf({ intervalUnit: 'day', intervalCount: 1, startDate: '9999-12-30', totalCycles: 2 })).to.deep.equal([]);
      // Up to endDate, a date past 9999 is past it (it once compared as text, below "9999-…").
      expect(cycleCount(parseSchedule({ intervalUnit: 'month', intervalCount: 1, startDate: '9999-06-15', endDate: '9999-12-31' }))).to.equal(7);
    });

    it('has one cycle when open-ended, and caps endDate schedules at 520', () => {
      expect(cycleCount(parseSchedule({ intervalUnit: 'month', intervalCount: 1, startDate: '2026-01-01' }))).to.equal(1);
      // 520 weekly cycles from 2026-01-01 end on 2035-12-13 (519 weeks later): allowed; one more is not.
      const s = parseSchedule({ intervalUnit: 'week', intervalCount: 1, startDate: '2026-01-01', endDate: '2035-12-13' });
      expect(cycleCount(s)).to.equal(MAX_CYCLES);
      expect(fieldsOf({ intervalUnit: 'week', intervalCount: 1, startDate: '2026-01-01', endDate: '2035-12-20' })).to.deep.equal(['endDate']);
    });
  });

  describe('properties', () => {
    it('totalCycles gives exactly that many strictly increasing due dates, none before startDate', () => {
      fc.assert(
        fc.property(scheduleArb, (input) => {
          const dates = dueDates(parseSchedule(input));
          expect(dates).to.have.length(input.totalCycles);
          expect(dates[0]! >= input.startDate).to.equal(true);
          for (let i = 1; i < dates.length; i++) expect(dates[i]! > dates[i - 1]!).to.equal(true);
        }),
      );
    });

    it('monthly due dates fall on the billing day or on the last day of a shorter month', () => {
      fc.assert(
        fc.property(dateArb, fc.integer({ min: 1, max: 31 }), fc.integer({ min: 1, max: 6 }), (startDate, day, step) => {
          const dates = dueDates(parseSchedule({ intervalUnit: 'month', intervalCount: step, startDate, billingDay: { day }, totalCycles: 24 }));
          for (const date of dates) {
            const [y, m, d] = date.split('-').map(Number) as [number, number, number];
            expect(d).to.equal(Math.min(day, daysInMonth(y, m)));
          }
        }),
      );
    });

    it('no due date falls after endDate, and the next one would', () => {
      fc.assert(
        fc.property(scheduleArb, fc.integer({ min: 1, max: 400 }), (input, spanDays) => {
          const end = new Date(Date.parse(input.startDate) + spanDays * 86_400_000).toISOString().slice(0, 10);
          let schedule;
          try {
            schedule = parseSchedule({ ...input, totalCycles: undefined, endDate: end });
          } catch {
            return; // no cycle before endDate, or more than 520
          }
          const dates = dueDates(schedule);
          expect(dates.every((d) => d <= end)).to.equal(true);
          const next = dueDates({ ...schedule, endDate: null, totalCycles: dates.length + 1 }).at(-1)!;
          expect(next > end).to.equal(true);
        }),
      );
    });
  });
});
