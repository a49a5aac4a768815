import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { createTestDatabase, databaseAvailable } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { describeRepositoryContract } from './repositories.contract';
import { testSecretBox } from '../support/secrets';

// A fresh `test_<random>` database, migrated, dropped afterwards. Skips without a PostgreSQL server,
// except under CI=true, where it throws instead; and when TEST_DATABASES leaves postgres out.
describeRepositoryContract('postgres', async () => {
  if (!(await databaseAvailable('postgres'))) return null;
  const database = await createTestDatabase('postgres');
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
    /** Sessions of this database waiting on a row or table lock (the contention cases' signal). */
    async lockWaits() {
      const { rows } = await db.raw(`SELECT COUNT(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`);
      return Number(rows[0].n);
    },
    async dropRefreshTokenFamily(tokenHash) {
      await db('refresh_tokens').where({ token_hash: tokenHash }).update({ family_id: null });
    },
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
});
