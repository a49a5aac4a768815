import { expect } from 'chai';
import type { Knex } from 'knex';
import { sqlDialect } from '../../adapters/persistence/knex/dialect';

const clientNamed = (client: string) => ({ client: { config: { client } } }) as unknown as Knex;

describe('SQL dialects', () => {
  it('has one for each supported Knex client', () => {
    expect(sqlDialect(clientNamed('mysql2')).name).to.equal('mysql');
    expect(sqlDialect(clientNamed('better-sqlite3')).name).to.equal('sqlite');
    expect(sqlDialect(clientNamed('pg')).name).to.equal('postgres');
  });

  it('refuses a client it has no dialect for, instead of treating it as SQLite', () => {
    expect(() => sqlDialect(clientNamed('oracledb'))).to.throw(/No SQL dialect for the Knex client "oracledb"/);
  });

  it('recovers the ids of a multi-row insert from what each driver reports', async () => {
    // An INSERT as the driver answers it: MySQL reports the first row's id, SQLite the last one's.
    const reporting = (id: number) => Promise.resolve([id]) as unknown as Knex.QueryBuilder;
    const mysql = Object.assign(clientNamed('mysql2'), { raw: async () => [[{ mode: 1, increment: 2 }]] });
    expect(await sqlDialect(mysql).insertedIds(mysql, reporting(101), 3)).to.deep.equal([101, 103, 105]);
    const sqlite = clientNamed('better-sqlite3');
    expect(await sqlDialect(sqlite).insertedIds(sqlite, reporting(105), 5)).to.deep.equal([101, 102, 103, 104, 105]);
    // PostgreSQL is asked for them with RETURNING.
    const returning = { returning: (column: string) => Promise.resolve([{ [column]: '7' }, { [column]: '8' }]) } as unknown as Knex.QueryBuilder;
    const pg = clientNamed('pg');
    expect(await sqlDialect(pg).insertedIds(pg, returning, 2)).to.deep.equal([7, 8]);
  });

  it('reads no consecutive ids on MySQL 8 (interleaved auto-increment)', async () => {
    const mysql = Object.assign({ client: { config: { client: 'mysql2', connection: 'interleaved' } } }, { raw: async () => [[{ mode: 2, increment: 1 }]] }) as unknown as Knex;
    expect(await sqlDialect(mysql).insertedIds(mysql, Promise.resolve([1]) as unknown as Knex.QueryBuilder, 2)).to.equal(null);
  });

  it('says a bare placeholder is text when PostgreSQL concatenates it', () => {
    expect(sqlDialect(clientNamed('pg')).concat('?', 'r.code')).to.equal('CAST(? AS TEXT) || r.code');
    expect(sqlDialect(clientNamed('mysql2')).concat('?', 'r.code')).to.equal('CONCAT(?, r.code)');
    expect(sqlDialect(clientNamed('better-sqlite3')).concat('?', 'r.code')).to.equal('? || r.code');
  });
});
