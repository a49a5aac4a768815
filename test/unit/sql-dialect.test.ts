import { expect } from 'chai';
import type { Knex } from 'knex';
import { sqlDialect } from '../../adapters/persistence/knex/dialect';

const clientNamed = (client: string) => ({ client: { config: { client } } }) as unknown as Knex;

describe('SQL dialects', () => {
  it('has one for each supported Knex client', () => {
    expect(sqlDialect(clientNamed('mysql2')).name).to.equal('mysql');
    expect(sqlDialect(clientNamed('better-sqlite3')).name).to.equal('sqlite');
  });

  it('refuses a client it has no dialect for, instead of treating it as SQLite', () => {
    expect(() => sqlDialect(clientNamed('pg'))).to.throw(/No SQL dialect for the Knex client "pg"/);
  });

  it('recovers the first id of a multi-row insert from what each driver reports', () => {
    // MySQL reports the first row's id, SQLite the last one's.
    expect(sqlDialect(clientNamed('mysql2')).firstInsertedId(101, 5, 2)).to.equal(101);
    expect(sqlDialect(clientNamed('better-sqlite3')).firstInsertedId(105, 5, 1)).to.equal(101);
  });
});
