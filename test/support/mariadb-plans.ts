import type { Knex } from 'knex';
import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { knexRepositories } from '../../adapters/persistence/knex/knex-unit-of-work';
import type { Repositories } from '../../ports/unit-of-work';
import { createTestDatabase, databaseAvailable } from './databases';
import { testEventWriting } from './event-writing';
import { testSecretBox } from './secrets';

export interface PlanStore {
  db: Knex;
  repos: Repositories;
  close(): Promise<void>;
}

/**
 * A fresh, migrated MariaDB database and its repositories for a plan test, which reads MariaDB's
 * ANALYZE <statement>: the suite of `context` is skipped without a MySQL server (a failure under
 * CI=true, as databaseAvailable says) or on a server that is not MariaDB.
 */
export async function openMariaDbPlanStore(context: Mocha.Context): Promise<PlanStore> {
  if (!(await databaseAvailable('mysql'))) context.skip();
  const database = await createTestDatabase('mysql');
  const db = openKnex(database.url);
  const close = async () => {
    await db.destroy();
    await database.drop();
  };
  const [[version]] = (await db.raw('SELECT VERSION() AS v')) as [{ v: string }[]];
  if (!/mariadb/i.test(version!.v)) {
    await close();
    context.skip();
  }
  await migrateLatest(db);
  return { db, repos: knexRepositories(db, { events: testEventWriting(), secrets: testSecretBox() }), close };
}
