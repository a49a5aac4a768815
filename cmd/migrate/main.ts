import { migrateLatest, openKnex } from '../../adapters/persistence/knex/connection';
import { loadConfig } from '../shared/config';

/** `npm run migrate`: apply pending migrations and exit. */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = openKnex(config.databaseUrl);
  try {
    await migrateLatest(db);
    process.stdout.write('migrations applied\n');
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  process.stderr.write(`migrate failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
