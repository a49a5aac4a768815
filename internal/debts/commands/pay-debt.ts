import type { DebtView } from '../../../ports/debt-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import { utcDateOf } from '../../shared/calendar-date';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { applyPayment, remainingCents } from '../debt';
import { findDebt } from '../find-debt';

/**
 * Applies a payment under the state table, with the debt locked for the transaction so two
 * concurrent payments never both fit in the remaining amount. Every payment path uses it: the
 * sandbox helper today, the portal and direct debit later.
 */
export class PayDebt {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('PayDebt', deps);
  }

  /** `amountCents` undefined pays the remaining amount. */
  execute(id: string, amountCents: number | undefined, source: string, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run(async ({ debts }) => {
      const debt = await findDebt(debts, id, scope, { lock: true });
      const now = scope.clock.now();
      const amount = amountCents ?? remainingCents(debt);
      const next = applyPayment(debt, amount, utcDateOf(now));
      await debts.recordPayment(debt.id, amount, source, now);
      return debts.update(scope.company.id, debt.id, { ...next, updatedAt: now });
    });
  }
}
