import { expect } from 'chai';
import fc from 'fast-check';
import mysql from 'mysql2';
import { formatQuery } from '../../adapters/persistence/knex/mysql-query-format';

type Values = Parameters<typeof formatQuery>[1];

/** formatQuery as mysql2 calls it (a connection's queryFormat), and mysql2's own formatting. */
const connection = { config: { stringifyObjects: undefined } };
const ours = (sql: string, values: Values) => formatQuery.call(connection, sql, values, 'Z');
const theirs = (sql: string, values: Values) => mysql.format(sql, values, undefined, 'Z');
/** A call's answer or the error it threw (format throws on a few objects, such as one without a prototype). */
const outcome = (format: () => string) => {
  try {
    return { answer: format() };
  } catch (error) {
    return { threw: String(error) };
  }
};

/** Statement text built from what changes how placeholders are found: quotes, escapes, comments, `??`, `???`. */
const sqlText = fc
  .array(
    fc.constantFrom('?', '??', '???', '\\?', "'", '"', '`', '\\', '-- ', '#', '/*', '*/', '/*!', '\n', ' ', 'a', 'x = ', 'SET ', ', ', '(', ')', 'é', '\u0001'),
    { maxLength: 40 },
  )
  .map((pieces) => pieces.join(''));

/** Every kind of value mysql2 is given: the scalars this file formats itself, and the objects it leaves to format. */
const value = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 12 }),
  fc.constantFrom("O'Brien", 'back\\slash', '\u0000\b\t\n\r\u001a"', '\u0001', '`id`', '?', '??'),
  fc.integer(),
  fc.double(),
  fc.bigInt(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
  fc.date({ noInvalidDate: true }),
  fc.uint8Array({ maxLength: 4 }).map((bytes) => Buffer.from(bytes)),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.constantFrom('a', 'b'), fc.integer()),
);

describe('MySQL statement formatting (mysql-query-format.ts)', () => {
  it("answers mysql2's own format, character for character, for any text and values", () => {
    fc.assert(
      fc.property(sqlText, fc.array(value, { maxLength: 6 }), (sql, values) => {
        expect(outcome(() => ours(sql, values as Values))).to.deep.equal(outcome(() => theirs(sql, values as Values)));
      }),
      { numRuns: 3000 },
    );
  });

  it('answers the same for the same text called again with other values (the kept split), and for another count of values', () => {
    const sql = 'select `d`.`id` from `debts` as `d` where `d`.`company_id` = ? and `d`.`note` = \'?\' and ?? = ? /* ? */ limit ?';
    for (const values of [[1, 'a', 'x'], [2, "it's", 'y', 50], [3, 'b\\', 'z', 60, 'extra'], [4]] as Values[]) {
      expect(ours(sql, values)).to.equal(theirs(sql, values));
    }
    expect(ours(sql, [7, "O'Brien", 'col', 50] as Values)).to.equal(
      "select `d`.`id` from `debts` as `d` where `d`.`company_id` = 7 and `d`.`note` = '?' and `O'Brien` = 'col' /* ? */ limit 50",
    );
  });

  it('leaves a text without values, or with none to bind, as it is', () => {
    expect(ours('select ? as x', [] as Values)).to.equal('select ? as x');
    expect(ours('select ? as x', undefined as unknown as Values)).to.equal('select ? as x');
  });
});
