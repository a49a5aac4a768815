import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  // Changes the event log does not hold: operator CLI actions (clients, companies, keys, rate
  // limits) and the sandbox clock. Domain changes stay in `events`, which already says who
  // (client user, API key prefix, request id); the audit-log command reads both.
  await db.schema.createTable('audit_log', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.string('action', 60).notNullable();
    t.string('resource_type', 30).notNullable();
    t.string('resource_id', 200).notNullable();
    // operator (the CLI), client (an API request) or system (the demo bootstrap, tests).
    t.string('actor_type', 12).notNullable();
    t.string('actor_name', 200).nullable();
    t.integer('client_user_id').unsigned().nullable();
    t.string('api_key_prefix', 16).nullable();
    t.string('request_id', 40).nullable();
    // What changed, as JSON; never a secret.
    t.text('details').notNullable();
    // Wall-clock time of the change (not the organization's sandbox clock).
    t.bigInteger('created_at').notNullable();
    t.index(['organization_id', 'id']);
    t.index(['organization_id', 'resource_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('audit_log');
}
