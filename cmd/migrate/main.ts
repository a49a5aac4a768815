import { openKnex } from '../../adapters/persistence/knex/connection';
import { AesGcmSecretBox } from '../../adapters/security/aes-gcm-secret-box';
import { loadConfig } from '../shared/config';
import { migrateDatabase } from '../shared/infrastructure';

/**
 * `npm run migrate`: apply pending migrations, encrypt the secrets still stored in plaintext (or
 * sealed with an older SECRETS_KEY) and exit.
 */
async function main(): Promise<void> {
  const config = loadConfig();
  const db = openKnex(config.databaseUrl);
  try {
    const sealed = await migrateDatabase(db, new AesGcmSecretBox(config.secretsKeys));
    process.stdout.write(sealed > 0 ? `migrations applied; ${sealed} stored secrets encrypted with the current SECRETS_KEY\n` : 'migrations applied\n');
  } finally {
    await db.destroy();
  }
}

main().catch((error) => {
  process.stderr.write(`migrate failed: ${(error as Error).stack ?? error}\n`);
  process.exit(1);
});
