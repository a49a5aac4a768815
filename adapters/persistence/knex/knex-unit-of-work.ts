import type { Knex } from 'knex';
import type { SecretBox } from '../../../ports/secret-box';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { MAX_GROUPS_IN_FLIGHT, MAX_TRANSACTION_GROUP, TransactionGroups } from '../../../internal/shared/group-commit';
import { KnexAdhesionRepository } from './knex-adhesion-repository';
import { KnexAuditLog } from './knex-audit-log';
import { KnexContactRepository } from './knex-contact-repository';
import { KnexDebitAttemptRepository } from './knex-debit-attempt-repository';
import type { EventWriting } from '../../events/event-renderer';
import { KnexDebtRepository } from './knex-debt-repository';
import { KnexEventLog } from './knex-event-log';
import { KnexJobOutbox } from './knex-job-outbox';
import { KnexPaymentLinkRepository } from './knex-payment-link-repository';
import { KnexPaymentInstructionRepository } from './knex-payment-instruction-repository';
import { KnexPaymentMethodRepository } from './knex-payment-method-repository';
import { KnexPortalRepository } from './knex-portal-repository';
import { KnexProviderNotificationRepository } from './knex-provider-notification-repository';
import { KnexReminderRepository } from './knex-reminder-repository';
import { KnexSandboxMessageLog } from './knex-sandbox-message-log';
import { KnexSubscriptionRepository } from './knex-subscription-repository';
import { KnexProductRepository } from './knex-product-repository';
import { KnexCredentialRepository } from './knex-credential-repository';
import { KnexRefreshTokenRepository } from './knex-refresh-token-repository';
import { KnexTenancyRepository } from './knex-tenancy-repository';
import { KnexUnappliedPaymentRepository } from './knex-unapplied-payment-repository';
import { KnexWebhookDeliveryRepository } from './knex-webhook-delivery-repository';
import { KnexWebhookEndpointRepository } from './knex-webhook-endpoint-repository';
import type { CredentialCache } from '../credential-cache';
import { isDeadlock } from './driver-errors';
import { deferWrites, flushDeferredWrites } from './deferred-writes';
import { shareTransaction } from './shared-transaction';

export interface KnexRepositoryOptions {
  events: EventWriting;
  /** Seals the secrets kept at rest (webhook signing secrets). */
  secrets: SecretBox;
  /** Cleared by every tenancy and credential write (see CredentialCache). */
  cache?: CredentialCache;
}

export function knexRepositories(db: Knex | Knex.Transaction, options: KnexRepositoryOptions): Repositories {
  return {
    tenancy: new KnexTenancyRepository(db, options.cache),
    credentials: new KnexCredentialRepository(db, options.cache),
    refreshTokens: new KnexRefreshTokenRepository(db),
    contacts: new KnexContactRepository(db),
    products: new KnexProductRepository(db),
    debts: new KnexDebtRepository(db),
    paymentLinks: new KnexPaymentLinkRepository(db),
    subscriptions: new KnexSubscriptionRepository(db),
    paymentMethods: new KnexPaymentMethodRepository(db),
    adhesions: new KnexAdhesionRepository(db),
    debitAttempts: new KnexDebitAttemptRepository(db),
    paymentInstructions: new KnexPaymentInstructionRepository(db),
    providerNotifications: new KnexProviderNotificationRepository(db),
    unappliedPayments: new KnexUnappliedPaymentRepository(db),
    outbox: new KnexJobOutbox(db),
    events: new KnexEventLog(db, options.events),
    webhookEndpoints: new KnexWebhookEndpointRepository(db, options.secrets),
    webhookDeliveries: new KnexWebhookDeliveryRepository(db),
    portal: new KnexPortalRepository(db),
    audit: new KnexAuditLog(db),
    reminders: new KnexReminderRepository(db),
    sandboxMessages: new KnexSandboxMessageLog(db),
  };
}

/** Attempts of a unit of work that keeps losing deadlocks, the first included. */
export const DEADLOCK_ATTEMPTS = 5;

/**
 * A Knex transaction per unit of work; the repositories it hands out are bound to it.
 *
 * Two transactions that write overlapping unique keys in different orders (two batches sharing
 * externalRequestIds, say) can deadlock on InnoDB, which then rolls one of them back whole. That
 * one is run again from the start, after a short random pause, up to DEADLOCK_ATTEMPTS times: the
 * work only reads and writes through the transaction, so a second run sees what the winner
 * committed (an idempotent write then finds its key taken) and nothing is written twice.
 */
export class KnexUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: Knex,
    private readonly options: KnexRepositoryOptions,
  ) {
    this.groups = new TransactionGroups((work, sharedBy) => this.transaction(work, sharedBy), {
      maxGroupSize: MAX_TRANSACTION_GROUP,
      maxInFlight: MAX_GROUPS_IN_FLIGHT,
      concurrent: true,
    });
  }

  /** A group's works run side by side, so their rows meet in multi-row INSERTs (shared-transaction.ts). */
  private readonly groups: TransactionGroups;

  runGrouped<T>(key: string | number, work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.groups.run(key, work);
  }

  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.transaction(work, 1);
  }

  private async transaction<T>(work: (repos: Repositories) => Promise<T>, sharedBy: number): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.db.transaction(async (trx) => {
          // Phone index rows and tallies are written together just before the commit (deferred-writes.ts).
          deferWrites(trx);
          if (sharedBy > 1) shareTransaction(trx);
          const result = await work(knexRepositories(trx, this.options));
          await flushDeferredWrites(trx);
          return result;
        });
      } catch (error) {
        if (!isDeadlock(error) || attempt >= DEADLOCK_ATTEMPTS) throw error;
        await pause(Math.random() * 5 * 2 ** attempt);
      }
    }
  }
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
