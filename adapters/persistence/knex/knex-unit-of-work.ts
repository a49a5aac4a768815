import type { Knex } from 'knex';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { KnexAdhesionRepository } from './knex-adhesion-repository';
import { KnexAuditLog } from './knex-audit-log';
import { KnexContactRepository } from './knex-contact-repository';
import { KnexDebitAttemptRepository } from './knex-debit-attempt-repository';
import type { EventWriting } from '../../events/event-renderer';
import { KnexDebtRepository } from './knex-debt-repository';
import { KnexEventLog } from './knex-event-log';
import { KnexJobOutbox } from './knex-job-outbox';
import { KnexPaymentLinkRepository } from './knex-payment-link-repository';
import { KnexPaymentMethodRepository } from './knex-payment-method-repository';
import { KnexPortalRepository } from './knex-portal-repository';
import { KnexSubscriptionRepository } from './knex-subscription-repository';
import { KnexProductRepository } from './knex-product-repository';
import { KnexTenancyRepository } from './knex-tenancy-repository';
import { KnexWebhookDeliveryRepository } from './knex-webhook-delivery-repository';
import { KnexWebhookEndpointRepository } from './knex-webhook-endpoint-repository';
import type { CredentialCache } from '../credential-cache';

export interface KnexRepositoryOptions {
  events: EventWriting;
  /** Cleared by every tenancy write (see CredentialCache). */
  cache?: CredentialCache;
}

export function knexRepositories(db: Knex | Knex.Transaction, options: KnexRepositoryOptions): Repositories {
  return {
    tenancy: new KnexTenancyRepository(db, options.cache),
    contacts: new KnexContactRepository(db),
    products: new KnexProductRepository(db),
    debts: new KnexDebtRepository(db),
    paymentLinks: new KnexPaymentLinkRepository(db),
    subscriptions: new KnexSubscriptionRepository(db),
    paymentMethods: new KnexPaymentMethodRepository(db),
    adhesions: new KnexAdhesionRepository(db),
    debitAttempts: new KnexDebitAttemptRepository(db),
    outbox: new KnexJobOutbox(db),
    events: new KnexEventLog(db, options.events),
    webhookEndpoints: new KnexWebhookEndpointRepository(db),
    webhookDeliveries: new KnexWebhookDeliveryRepository(db),
    portal: new KnexPortalRepository(db),
    audit: new KnexAuditLog(db),
  };
}

/** A Knex transaction per unit of work; the repositories it hands out are bound to it. */
export class KnexUnitOfWork implements UnitOfWork {
  constructor(
    private readonly db: Knex,
    private readonly options: KnexRepositoryOptions,
  ) {}

  run<T>(work: (repos: Repositories) => Promise<T>): Promise<T> {
    return this.db.transaction((trx) => work(knexRepositories(trx, this.options)));
  }
}
