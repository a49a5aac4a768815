import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { createTestDatabase } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { describeRepositoryContract } from './repositories.contract';
import { testSecretBox } from '../support/secrets';

// A temporary SQLite file, migrated to the latest schema; removed afterwards.
describeRepositoryContract('sqlite', async () => {
  const database = await createTestDatabase('sqlite');
  const db = openKnex(database.url);
  await migrateLatest(db);
  return {
    repos: knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() }),
    uow: new KnexUnitOfWork(db, { events: testEventWriting(), secrets: testSecretBox() }),
    // One connection: a second unit of work waits for the first to end.
    singleWriter: true,
    async dropRefreshTokenFamily(tokenHash) {
      await db('refresh_tokens').where({ token_hash: tokenHash }).update({ family_id: null });
    },
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
});
