import type { Knex } from 'knex';
import { tableOptions } from './table-options';

export async function up(db: Knex): Promise<void> {
  // Where an integrator receives events: per company, soft-deleted so past deliveries keep it.
  await db.schema.createTable('webhook_endpoints', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 32).notNullable().unique();
    t.string('url', 2048).notNullable();
    // JSON array of event types, or ["*"].
    t.text('enabled_events').notNullable();
    t.boolean('enabled').notNullable();
    t.string('description', 500).nullable();
    // Kept as is: it signs every delivery (never returned after the creation answer).
    t.string('secret', 80).notNullable();
    // events.id when the endpoint was created: older events are not sent to it.
    t.bigInteger('since_event_row_id').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.bigInteger('deleted_at').nullable();
    t.index(['company_id', 'deleted_at', 'id']);
  });

  // One row per (event, endpoint): the delivery's state; its attempts are rows of their own.
  await db.schema.createTable('webhook_deliveries', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('event_row_id').unsigned().notNullable().references('events.id');
    t.integer('endpoint_id').unsigned().notNullable().references('webhook_endpoints.id');
    t.integer('company_id').unsigned().notNullable();
    // Copied from the event: deliveries of one resource to one endpoint go out in event order.
    t.string('resource_id', 200).notNullable();
    t.string('status', 12).notNullable();
    t.integer('attempts').unsigned().notNullable();
    // Attempts since the delivery was (re)opened: the retry schedule counts these.
    t.integer('round_attempts').unsigned().notNullable();
    t.bigInteger('next_attempt_at').nullable();
    // A dispatcher's claim: the job carrying the attempt names the token; expired, it is claimed again.
    t.string('lease_token', 32).nullable();
    t.bigInteger('locked_until').nullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['event_row_id', 'endpoint_id']);
    t.index(['status', 'next_attempt_at']);
    t.index(['endpoint_id', 'resource_id', 'status', 'event_row_id'], 'webhook_deliveries_resource_order');
  });

  await db.schema.createTable('webhook_delivery_attempts', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('delivery_id').unsigned().notNullable().references('webhook_deliveries.id');
    t.integer('attempt').unsigned().notNullable();
    t.bigInteger('attempted_at').notNullable();
    t.integer('status_code').nullable();
    t.string('error', 300).nullable();
    t.integer('duration_ms').unsigned().notNullable();
    t.boolean('succeeded').notNullable();
    t.unique(['delivery_id', 'attempt']);
  });

  // The fan-out's position in the event log (one row): the last events.id read, and the ids
  // below it not yet committed when it was read (JSON [{ from, to, seenAt }]).
  await db.schema.createTable('webhook_fanout_cursor', (t) => {
    tableOptions(db, t);
    t.integer('id').unsigned().primary();
    t.bigInteger('last_row_id').notNullable();
    t.text('gaps').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  const [{ max }] = await db('events').max({ max: 'id' });
  await db('webhook_fanout_cursor').insert({ id: 1, last_row_id: Number(max ?? 0), gaps: '[]', updated_at: 0 });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('webhook_fanout_cursor');
  await db.schema.dropTableIfExists('webhook_delivery_attempts');
  await db.schema.dropTableIfExists('webhook_deliveries');
  await db.schema.dropTableIfExists('webhook_endpoints');
}
