import type { Knex } from 'knex';
import { tableOptions } from './table-options';

/**
 * Cash and transfer payments (docs/cash-and-transfer.md): payment instructions per debt, the
 * provider notifications that bring money (one per provider transaction), and the money no debt
 * took (unapplied payments).
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.createTable('payment_instructions', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.integer('debt_id').unsigned().notNullable().references('debts.id');
    t.string('code', 64).notNullable().unique();
    t.string('method', 10).notNullable();
    t.string('status', 10).notNullable();
    // The method while PENDING, NULL otherwise: one PENDING instruction per debt and method (NULLs never collide).
    t.string('pending_method', 10).nullable();
    t.bigInteger('amount_cents').notNullable();
    t.bigInteger('amount_received_cents').notNullable();
    t.bigInteger('amount_applied_cents').notNullable();
    t.string('currency', 3).notNullable();
    t.string('reference', 40).notNullable();
    t.string('provider', 30).notNullable();
    t.string('provider_reference', 64).notNullable();
    t.string('account_type', 10).nullable();
    t.string('account_number', 30).nullable();
    t.string('bank_name', 100).nullable();
    t.string('beneficiary', 200).nullable();
    t.string('barcode_value', 64).nullable();
    t.text('networks').nullable();
    t.bigInteger('expires_at').notNullable();
    t.bigInteger('created_at').notNullable();
    t.bigInteger('paid_at').nullable();
    t.bigInteger('updated_at').notNullable();
    // A notification names the provider's reference: unique, so an account is never issued twice.
    t.unique(['provider', 'provider_reference']);
    t.unique(['debt_id', 'pending_method']);
    t.index(['company_id', 'debt_id', 'id']);
    // The expiry job: an organization's PENDING instructions by expiresAt.
    t.index(['organization_id', 'status', 'expires_at']);
  });
  await db.schema.createTable('provider_notifications', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.string('provider', 30).notNullable();
    t.string('transaction_id', 100).notNullable();
    t.string('provider_reference', 64).notNullable();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 10).notNullable();
    t.bigInteger('received_at').notNullable();
    t.bigInteger('recorded_at').notNullable();
    t.integer('organization_id').unsigned().nullable().references('organizations.id');
    t.integer('company_id').unsigned().nullable().references('companies.id');
    t.integer('payment_instruction_id').unsigned().nullable().references('payment_instructions.id');
    t.string('outcome', 20).notNullable();
    t.bigInteger('applied_cents').notNullable();
    t.bigInteger('unapplied_cents').notNullable();
    // Idempotent on the provider's transaction id.
    t.unique(['provider', 'transaction_id']);
  });
  await db.schema.createTable('unapplied_payments', (t) => {
    tableOptions(db, t);
    t.increments('id');
    t.integer('organization_id').unsigned().notNullable().references('organizations.id');
    t.integer('company_id').unsigned().notNullable().references('companies.id');
    t.string('code', 64).notNullable().unique();
    t.bigInteger('amount_cents').notNullable();
    t.string('currency', 10).notNullable();
    t.integer('payment_instruction_id').unsigned().notNullable().references('payment_instructions.id');
    t.integer('debt_id').unsigned().notNullable().references('debts.id');
    t.string('reason', 30).notNullable();
    t.string('status', 10).notNullable();
    t.bigInteger('received_at').notNullable();
    t.bigInteger('resolved_at').nullable();
    t.string('resolution_action', 10).nullable();
    t.integer('resolution_debt_id').unsigned().nullable().references('debts.id');
    t.string('resolution_reference', 100).nullable();
    t.integer('notification_id').unsigned().notNullable().references('provider_notifications.id');
    t.bigInteger('refund_requested_at').nullable();
    t.index(['company_id', 'status', 'received_at', 'id']);
    t.index(['company_id', 'received_at', 'id']);
    // The open amount per currency (metrics) reads only OPEN rows.
    t.index(['status', 'currency']);
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.dropTableIfExists('unapplied_payments');
  await db.schema.dropTableIfExists('provider_notifications');
  await db.schema.dropTableIfExists('payment_instructions');
}
