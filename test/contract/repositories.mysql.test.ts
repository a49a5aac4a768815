import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { createTestDatabase, mysqlAvailable } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { describeRepositoryContract } from './repositories.contract';
import { testSecretBox } from '../support/secrets';

// A fresh `test_<random>` database, migrated, dropped afterwards. Skips without a MySQL server,
// except under CI=true, where mysqlAvailable() throws instead.
describeRepositoryContract('mysql', async () => {
  if (!(await mysqlAvailable())) return null;
  const database = await createTestDatabase('mysql');
  const db = openKnex(database.url);
  try {
    await migrateLatest(db);
  } catch (error) {
    await db.destroy();
    await database.drop();
    throw error;
  }
  return {
    repos: knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() }),
    uow: new KnexUnitOfWork(db, { events: testEventWriting(), secrets: testSecretBox() }),
    async dropRefreshTokenFamily(tokenHash) {
      await db('refresh_tokens').where({ token_hash: tokenHash }).update({ family_id: null });
    },
    // InnoDB's transactions of this test database waiting for a row lock (other databases on the
    // server are other test files' and other runs').
    async lockWaits() {
      const [rows] = await db.raw(
        `SELECT COUNT(*) AS n FROM information_schema.INNODB_TRX t
           JOIN information_schema.PROCESSLIST p ON p.ID = t.trx_mysql_thread_id
          WHERE t.trx_state = 'LOCK WAIT' AND p.DB = DATABASE()`,
      );
      return Number(rows[0].n);
    },
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
});
