import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { KnexUnitOfWork, knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import { createTestDatabase, databaseAvailable, type DatabaseKind } from '../support/databases';
import { testEventWriting } from '../support/event-writing';
import { testSecretBox } from '../support/secrets';
import type { RepositoryHarness } from './repositories.contract';

/**
 * The repository contract's harness over one Knex database: a fresh `test_<random>` database (or
 * SQLite file), migrated, dropped afterwards. Null (the suite skips) when the server is absent or
 * TEST_DATABASES leaves it out; under CI=true a selected server that does not answer throws.
 */
export async function openKnexHarness(
  kind: DatabaseKind,
  extras: { lockWaits?: (db: Knex) => Promise<number>; singleWriter?: boolean } = {},
): Promise<RepositoryHarness | null> {
  if (!(await databaseAvailable(kind))) return null;
  const database = await createTestDatabase(kind);
  const db = openKnex(database.url);
  try {
    await migrateLatest(db);
  } catch (error) {
    await db.destroy();
    await database.drop();
    throw error;
  }
  const options = { events: testEventWriting(), secrets: testSecretBox() };
  return {
    repos: knexRepositories(db, options),
    uow: new KnexUnitOfWork(db, options),
    ...(extras.singleWriter ? { singleWriter: true } : {}),
    ...(extras.lockWaits ? { lockWaits: () => extras.lockWaits!(db) } : {}),
    async dropRefreshTokenFamily(tokenHash) {
      await db('refresh_tokens').where({ token_hash: tokenHash }).update({ family_id: null });
    },
    async close() {
      await db.destroy();
      await database.drop();
    },
  };
}
