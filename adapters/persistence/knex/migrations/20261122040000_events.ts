import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  // Outbound events, written in the transaction of the change they report. `payload` is the
  // public event object as rendered then, so every delivery and read shows the same bytes.
  await db.schema.createTable('events', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.string('event_id', 40).notNullable().unique();
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('type', 60).notNullable();
    // The public id of the resource (debt_…, plk_…, sub_…, con_…, prd_…).
    t.string('resource_id', 200).notNullable();
    t.text('payload').notNullable();
    t.string('request_id', 40).nullable();
    // Who caused it (audit): the client user and the prefix of the facade key; null for workers.
    t.integer('client_user_id').unsigned().nullable();
    t.string('api_key_prefix', 16).nullable();
    t.bigInteger('created_at').notNullable();
    t.index(['company_id', 'id']);
    t.index(['company_id', 'type', 'id']);
    t.index(['company_id', 'resource_id', 'id']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('events');
}
