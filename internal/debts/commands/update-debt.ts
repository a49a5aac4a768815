import type { DebtView } from '../../../ports/debt-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { assertEditable } from '../debt';
import { findDebt } from '../find-debt';

export interface UpdateDebtInput {
  amountCents?: number;
  dueDate?: string;
}

/** PATCH /debts/{id}: amount and dueDate, only while the debt is PENDING (else 422). */
export class UpdateDebt {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('UpdateDebt', deps);
  }

  execute(id: string, input: UpdateDebtInput, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run(async ({ debts, events }) => {
      const debt = await findDebt(debts, id, scope, { lock: true });
      const now = scope.clock.now();
      assertEditable(debt, utcDateOf(now));
      const updated = await debts.update(scope.company.id, debt.id, { ...input, updatedAt: now });
      await events.append([eventOf(scope, 'debt.updated', { kind: 'debt', debt: updated }, now)]);
      return updated;
    });
  }
}
