import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * Payment reminders (docs/reminders.md): one policy per company, templates per channel and
 * locale, contact preferences, the reminders (one per debt, step and channel: the unique key
 * decides between schedulers), and the sandbox sender's messages.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('reminder_policies', (t) => {
    tableOptions(db, t);
    t.integer('company_id').unsigned().primary().references('companies.id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.boolean('enabled').notNullable();
    t.string('time_zone', 64).notNullable();
    t.string('window_from', 5).notNullable();
    t.string('window_to', 5).notNullable();
    t.text('steps').notNullable();
    t.string('locale', 5).nullable();
    t.bigInteger('updated_at').notNullable();
    // The scheduler reads the enabled policies only.
    t.index(['enabled', 'company_id']);
  });
  await db.schema.createTable('reminder_templates', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('channel', 10).notNullable();
    t.string('locale', 5).notNullable();
    t.string('subject', 300).nullable();
    t.text('body').notNullable();
    t.bigInteger('updated_at').notNullable();
    t.unique(['company_id', 'channel', 'locale']);
  });
  await db.schema.createTable('contact_preferences', (t) => {
    tableOptions(db, t);
    t.integer('contact_id').unsigned().primary().references('contacts.id');
    t.boolean('email').notNullable();
    t.boolean('sms').notNullable();
    t.boolean('whatsapp').notNullable();
    t.bigInteger('updated_at').notNullable();
  });
  await db.schema.createTable('reminders', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.integer('debt_id').unsigned().notNullable().references('debts.id');
    t.string('code', 32).notNullable().unique();
    t.integer('offset_days').notNullable();
    t.string('channel', 10).notNullable();
    t.string('status', 10).notNullable();
    t.bigInteger('scheduled_for').notNullable();
    t.bigInteger('sent_at').nullable();
    t.string('recipient', 254).nullable();
    t.string('provider_message_id', 200).nullable();
    t.string('failure_reason', 500).nullable();
    t.integer('attempts').notNullable();
    t.bigInteger('lease_until').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('updated_at').notNullable();
    // At most once per (debt, step, channel): the database decides between racing schedulers.
    t.unique(['debt_id', 'offset_days', 'channel']);
    // Reminders handed to the queue again when their lease ran out (a lost job, a dead worker).
    t.index(['status', 'lease_until']);
    // Metrics: reminders by channel and status.
    t.index(['channel', 'status']);
  });
  await db.schema.createTable('sandbox_messages', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.string('reference', 64).notNullable().unique();
    t.string('channel', 10).notNullable();
    t.string('recipient', 254).notNullable();
    t.string('subject', 300).nullable();
    t.text('body').notNullable();
    t.text('html').nullable();
    t.string('unsubscribe_url', 1000).nullable();
    t.string('provider_message_id', 64).notNullable();
    t.bigInteger('sent_at').notNullable();
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('sandbox_messages');
  await db.schema.dropTableIfExists('reminders');
  await db.schema.dropTableIfExists('contact_preferences');
  await db.schema.dropTableIfExists('reminder_templates');
  await db.schema.dropTableIfExists('reminder_policies');
}
