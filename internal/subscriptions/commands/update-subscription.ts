import type { DebtRepository } from '../../../ports/debt-repository';
import type { SubscriptionChanges, SubscriptionView } from '../../../ports/subscription-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { PaymentMethod } from '../../debts/debt';
import { utcDateOf } from '../../shared/calendar-date';
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
 * amount (it is below what was paid, or their update fails) are counted as unsynced.
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
      const autopay = input.autopay ?? current.autopay;
      const paymentMethods = input.paymentMethods ?? current.paymentMethods;
      if (autopay && paymentMethods && input.paymentMethods !== undefined) {
        throw InvalidRequestError.field('paymentMethods', 'must not be sent with autopay true');
      }
      const changes: SubscriptionChanges = { ...input, updatedAt: now };
      // Turning autopay on clears explicit payment methods (the two are exclusive).
      if (input.autopay === true && input.paymentMethods === undefined) changes.paymentMethods = null;
      return tx.subscriptions.update(scope.company.id, current.id, changes);
    });
    let unsynced = 0;
    if (input.amountCents !== undefined) {
      for (const debt of await this.deps.debts.openOfSubscription(subscription.id)) {
        if (debt.amountCents === input.amountCents) continue;
        if (input.amountCents < debt.amountPaidCents) {
          unsynced++;
          continue;
        }
        try {
          await this.deps.debts.update(scope.company.id, debt.id, { amountCents: input.amountCents, updatedAt: scope.clock.now() });
        } catch {
          unsynced++;
        }
      }
    }
    return { subscription, unsynced };
  }
}
