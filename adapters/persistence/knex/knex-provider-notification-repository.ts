import type { Knex } from 'knex';
import type { NotificationOutcome, ProviderNotification } from '../../../internal/payment-instructions/provider-notification';
import type {
  NewProviderNotification, NotificationOutcomeChanges, ProviderNotificationRepository,
} from '../../../ports/provider-notification-repository';
import { insertedIdOrConflict } from './shared-transaction';
import { fromMillis, toMillis } from './rows/columns';

type Row = Record<string, any>;

export class KnexProviderNotificationRepository implements ProviderNotificationRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async insert(n: NewProviderNotification): Promise<ProviderNotification> {
    const row = {
      provider: n.provider,
      transaction_id: n.transactionId,
      provider_reference: n.providerReference,
      amount_cents: n.amountCents,
      currency: n.currency,
      received_at: toMillis(n.receivedAt),
      recorded_at: toMillis(n.recordedAt),
      ...outcomeColumns(n),
    };
    const id = await insertedIdOrConflict(this.db, 'Provider notification', 'provider_notifications', row);
    return { ...n, id: Number(id) };
  }

  async find(provider: string, transactionId: string): Promise<ProviderNotification | null> {
    const row = await this.db('provider_notifications').where({ provider, transaction_id: transactionId }).first();
    return row ? toNotification(row) : null;
  }

  async findById(id: number): Promise<ProviderNotification | null> {
    const row = await this.db('provider_notifications').where({ id }).first();
    return row ? toNotification(row) : null;
  }

  async recordOutcome(id: number, outcome: NotificationOutcomeChanges): Promise<ProviderNotification> {
    await this.db('provider_notifications').where({ id }).update(outcomeColumns(outcome));
    return toNotification(await this.db('provider_notifications').where({ id }).first());
  }
}

function outcomeColumns(o: NotificationOutcomeChanges): Row {
  return {
    organization_id: o.organizationId,
    company_id: o.companyId,
    payment_instruction_id: o.paymentInstructionId,
    outcome: o.outcome,
    applied_cents: o.appliedCents,
    unapplied_cents: o.unappliedCents,
  };
}

function toNotification(row: Row): ProviderNotification {
  const id = (v: unknown) => (v === null ? null : Number(v));
  return {
    id: Number(row.id),
    provider: row.provider,
    transactionId: row.transaction_id,
    providerReference: row.provider_reference,
    amountCents: Number(row.amount_cents),
    currency: row.currency,
    receivedAt: fromMillis(row.received_at),
    recordedAt: fromMillis(row.recorded_at),
    organizationId: id(row.organization_id),
    companyId: id(row.company_id),
    paymentInstructionId: id(row.payment_instruction_id),
    outcome: row.outcome as NotificationOutcome,
    appliedCents: Number(row.applied_cents),
    unappliedCents: Number(row.unapplied_cents),
  };
}
