import type { DebtRepository, DebtView } from '../../../ports/debt-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findDebt } from '../find-debt';

/** GET /debts/{id}: by debtId or bare externalRequestId; cancelled debts are readable. */
export class GetDebt {
  constructor(private readonly deps: { debts: DebtRepository }) {
    requireDeps('GetDebt', deps);
  }

  execute(id: string, scope: TenantScope): Promise<DebtView> {
    return findDebt(this.deps.debts, id, scope);
  }
}
