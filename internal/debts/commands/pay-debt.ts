import type { DebtView } from '../../../ports/debt-repository';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { applyDebtPayment } from '../apply-debt-payment';

/**
 * POST /test-helpers/debts/{id}/pay, and any payment made outside a transaction of its own: one
 * payment under the state table (see applyDebtPayment), in one transaction.
 */
export class PayDebt {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('PayDebt', deps);
  }

  /** `amountCents` undefined pays the remaining amount. */
  execute(id: string, amountCents: number | undefined, source: string, scope: TenantScope): Promise<DebtView> {
    return this.deps.uow.run((tx) => applyDebtPayment(tx, id, amountCents, source, scope));
  }
}
