import type { DebtView } from '../../../ports/debt-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { cancelPendingInstructions } from '../../payment-instructions/cancel-pending-instructions';
import { assertCancellable } from '../debt';
import { findDebt } from '../find-debt';

/**
 * POST /debts/{id}/cancel: from PENDING, PARTIALLY_PAID or OVERDUE; PAID and CANCELLED are 422.
 * Its PENDING payment instructions are cancelled with it.
 */
export class CancelDebt {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('CancelDebt', deps);
  }

  execute(id: string, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run(async (tx) => {
      const { debts, events } = tx;
      const debt = await findDebt(debts, id, scope, { lock: true });
      const now = scope.clock.now();
      assertCancellable(debt, utcDateOf(now));
      const cancelled = await debts.update(scope.company.id, debt.id, { status: 'CANCELLED', updatedAt: now });
      await events.append([eventOf(scope, 'debt.cancelled', { kind: 'debt', debt: cancelled }, now)]);
      await cancelPendingInstructions(tx, [debt.id], scope, now);
      return cancelled;
    });
  }
}
