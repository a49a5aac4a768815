import type { DebtRepository } from '../../../ports/debt-repository';
import type { SubscriptionChanges, SubscriptionView } from '../../../ports/subscription-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { PaymentMethod } from '../../debts/debt';
import { type DomainEvent, eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { autopayProblem } from '../../debts/debtor-rules';
import { InvalidRequestError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findSubscription } from '../find-subscription';
import { assertModifiable } from '../subscription';

export interface UpdateSubscriptionInput {
  amountCents?: number;
  description?: string;
  enforcePaymentOrder?: boolean;
  allowOverduePayment?: boolean;
  autopay?: boolean;
  paymentMethods?: PaymentMethod[];
  additionalData?: Record<string, unknown>;
}

export interface UpdateSubscriptionResult {
  subscription: SubscriptionView;
  /** Generated debts the new amount could not be applied to. */
  unsynced: number;
}

/**
 * PATCH /subscriptions/{id}: only while ACTIVE. A new amount also reaches the generated debts
 * still open (partial payments and allowPartialPayments kept; paid and cancelled ones
 * untouched). The subscription is updated first and stands; debts that cannot take the new
 * amount (it is below what was paid, or their update fails) are counted as unsynced. Events:
 * subscription.updated with the subscription, then debt.updated for each synced debt (and
 * debt.paid for one the new amount made PAID), each in its debt's transaction.
 */
export class UpdateSubscription {
  constructor(private readonly deps: { uow: UnitOfWork; debts: DebtRepository }) {
    requireDeps('UpdateSubscription', deps);
  }

  async execute(id: string, input: UpdateSubscriptionInput, scope: TenantScope): Promise<UpdateSubscriptionResult> {
    const subscription = await this.deps.uow.run(async (tx) => {
      const current = await findSubscription(tx.subscriptions, id, scope, { lock: true });
      const now = scope.clock.now();
      assertModifiable(current, utcDateOf(now));
      // paymentMethods sent while the autopay in force (sent, or the subscription's) is true.
      const problem = autopayProblem({ autopay: input.autopay ?? current.autopay, paymentMethods: input.paymentMethods });
      if (problem) throw InvalidRequestError.field(problem.field, problem.issue);
      const changes: SubscriptionChanges = { ...input, updatedAt: now };
      // Turning autopay on clears explicit payment methods (the two are exclusive).
      if (input.autopay === true && input.paymentMethods === undefined) changes.paymentMethods = null;
      const updated = await tx.subscriptions.update(scope.company.id, current.id, changes);
      await tx.events.append([eventOf(scope, 'subscription.updated', { kind: 'subscription', subscription: updated }, now)]);
      return updated;
    });
    let unsynced = 0;
    if (input.amountCents !== undefined) {
      for (const open of await this.deps.debts.openOfSubscription(subscription.id)) {
        if (open.amountCents === input.amountCents) continue;
        try {
          if (!(await this.syncAmount(open.externalRequestId, input.amountCents, scope))) unsynced++;
        } catch {
          unsynced++;
        }
      }
    }
    return { subscription, unsynced };
  }

  /**
   * One debt, locked against a concurrent payment: false when it already received more than the
   * new amount. A debt whose payments equal the new amount is now PAID.
   */
  private syncAmount(externalRequestId: string, amountCents: number, scope: TenantScope): Promise<boolean> {
    return this.deps.uow.run(async ({ debts, events }) => {
      const debt = await debts.lockByExternalRequestId(scope.company.id, externalRequestId);
      if (!debt || debt.status === 'PAID' || debt.status === 'CANCELLED') return true;
      if (amountCents < debt.amountPaidCents) return false;
      const paid = amountCents === debt.amountPaidCents;
      const now = scope.clock.now();
      const synced = await debts.update(scope.company.id, debt.id, { amountCents, ...(paid ? { status: 'PAID' as const } : {}), updatedAt: now });
      const written: DomainEvent[] = [eventOf(scope, 'debt.updated', { kind: 'debt', debt: synced }, now)];
      if (paid) written.push(eventOf(scope, 'debt.paid', { kind: 'debt', debt: synced }, now));
      await events.append(written);
      return true;
    });
  }
}
