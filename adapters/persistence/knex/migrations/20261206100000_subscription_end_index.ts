import type { Knex } from 'knex';

/**
 * The mark-ended job's chunk is an organization's ACTIVE subscriptions past their last cycle, the
 * earliest first (transitionRows in row-lock.ts): the (organization_id, status, last_due_date)
 * index reads those alone. Without it the chunk's locking read went through every subscription
 * of the organization on each run, found to end or not.
 */
export async function up(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.index(['organization_id', 'status', 'last_due_date'], 'subscriptions_organization_status_last_due_index');
  });
}

export async function down(db: Knex): Promise<void> {
  await db.schema.alterTable('subscriptions', (t) => {
    t.dropIndex(['organization_id', 'status', 'last_due_date'], 'subscriptions_organization_status_last_due_index');
  });
}
