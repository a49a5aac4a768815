import type { Knex } from 'knex';
import { sqlDialect } from '../dialect';

/**
 * Webhook signing secrets encrypted at rest, and secret rotation.
 *
 * - `secret` holds a sealed value (`enc:v1:<key id>:<base64url>`, about 110 characters), so it
 *   widens on MySQL and PostgreSQL (SQLite does not enforce lengths). Rows written before keep their plaintext
 *   until the reseal that runs after migrations (knex-webhook-endpoint-repository.ts,
 *   resealWebhookSecrets) encrypts them; reads accept both meanwhile.
 * - `previous_secret` (sealed as well) still signs deliveries, beside `secret`, until
 *   `previous_secret_expires_at` (epoch ms, real time): the grace period of a rotation.
 */
export async function up(db: Knex): Promise<void> {
  if (sqlDialect(db).enforcesStringWidths) {
    await db.schema.alterTable('webhook_endpoints', (t) => {
      t.string('secret', 255).notNullable().alter();
    });
  }
  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.string('previous_secret', 255).nullable();
    t.bigInteger('previous_secret_expires_at').nullable();
  });
}

export async function down(db: Knex): Promise<void> {
  // `secret` stays wide: its sealed values would not fit the old width.
  await db.schema.alterTable('webhook_endpoints', (t) => {
    t.dropColumn('previous_secret_expires_at');
    t.dropColumn('previous_secret');
  });
}
