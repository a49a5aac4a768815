import type { Knex } from 'knex';
import * as foundation from './20261122000000_foundation';
import * as debts from './20261122010000_debts';
import * as paymentLinks from './20261122020000_payment_links';
import * as subscriptions from './20261122030000_subscriptions';
import * as events from './20261122040000_events';
import * as directDebit from './20261122050000_direct_debit';
import * as directDebitDunning from './20261124100000_direct_debit_dunning';
import * as webhooks from './20261124200000_webhooks';
import * as hostedPages from './20261124400000_hosted_pages';
import * as rateLimits from './20261124300000_rate_limits';
import * as auditLog from './20261124300100_audit_log';
import * as contactListIndex from './20261124600000_contact_list_index';
import * as webhookSecrets from './20261125100000_webhook_secrets';
import * as refreshTokenFamilies from './20261126100000_refresh_token_families';
import * as paymentInstructions from './20261127100000_payment_instructions';
import * as reminders from './20261128100000_reminders';
import * as debtTallies from './20261129100000_debt_tallies';
import * as paymentLinkStatusIndex from './20261130100000_payment_link_status_index';
import * as listTallies from './20261201100000_list_tallies';
import * as paymentLinkPageOrderIndex from './20261202100000_payment_link_page_order_index';
import * as subscriptionTallies from './20261203100000_subscription_tallies';
import * as subscriptionStatusTallies from './20261204100000_subscription_status_tallies';
import * as debtStatusTallies from './20261205100000_debt_status_tallies';
import * as subscriptionEndIndex from './20261206100000_subscription_end_index';
import * as eventWindowIndex from './20261207100000_event_window_index';
import * as contactEmailIndex from './20261207200000_contact_email_index';
import * as subscriptionContactIndex from './20261207210000_subscription_contact_index';
import * as subscriptionContactTallies from './20261207220000_subscription_contact_tallies';
import * as debtDebtorBatchStatusIndex from './20261207230000_debt_debtor_batch_status_index';
import * as subscriptionStatusPageIndex from './20261208100000_subscription_status_page_index';

interface Migration {
  up(db: Knex): Promise<void>;
  down(db: Knex): Promise<void>;
}

/**
 * Migrations are listed here rather than discovered on disk, so the same list runs from the
 * TypeScript sources (tsx, tests) and from the compiled build. Append new ones in order.
 */
const MIGRATIONS: [string, Migration][] = [
  ['20261122000000_foundation', foundation],
  ['20261122010000_debts', debts],
  ['20261122020000_payment_links', paymentLinks],
  ['20261122030000_subscriptions', subscriptions],
  ['20261122040000_events', events],
  ['20261122050000_direct_debit', directDebit],
  ['20261124100000_direct_debit_dunning', directDebitDunning],
  ['20261124200000_webhooks', webhooks],
  ['20261124400000_hosted_pages', hostedPages],
  ['20261124300000_rate_limits', rateLimits],
  ['20261124300100_audit_log', auditLog],
  ['20261124600000_contact_list_index', contactListIndex],
  ['20261125100000_webhook_secrets', webhookSecrets],
  ['20261126100000_refresh_token_families', refreshTokenFamilies],
  ['20261127100000_payment_instructions', paymentInstructions],
  ['20261128100000_reminders', reminders],
  ['20261129100000_debt_tallies', debtTallies],
  ['20261130100000_payment_link_status_index', paymentLinkStatusIndex],
  ['20261201100000_list_tallies', listTallies],
  ['20261202100000_payment_link_page_order_index', paymentLinkPageOrderIndex],
  ['20261203100000_subscription_tallies', subscriptionTallies],
  ['20261204100000_subscription_status_tallies', subscriptionStatusTallies],
  ['20261205100000_debt_status_tallies', debtStatusTallies],
  ['20261206100000_subscription_end_index', subscriptionEndIndex],
  ['20261207100000_event_window_index', eventWindowIndex],
  ['20261207200000_contact_email_index', contactEmailIndex],
  ['20261207210000_subscription_contact_index', subscriptionContactIndex],
  ['20261207220000_subscription_contact_tallies', subscriptionContactTallies],
  ['20261207230000_debt_debtor_batch_status_index', debtDebtorBatchStatusIndex],
  ['20261208100000_subscription_status_page_index', subscriptionStatusPageIndex],
];

export const migrationSource: Knex.MigrationSource<[string, Migration]> = {
  getMigrations: async () => MIGRATIONS,
  getMigrationName: ([name]) => name,
  getMigration: async ([, migration]) => migration,
};
