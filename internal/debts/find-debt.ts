import type { DebtRepository, DebtView } from '../../ports/debt-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { DEBT_ID_PREFIX } from './debt';

/**
 * Paths take the debtId (`debt_` + externalRequestId) or the bare externalRequestId. A key that
 * itself starts with `debt_` is tried whole when the stripped form names nothing.
 */
export async function findDebt(
  debts: Pick<DebtRepository, 'findByExternalRequestId' | 'lockByExternalRequestId'>,
  id: string,
  scope: TenantScope,
  options: { lock?: boolean } = {},
): Promise<DebtView> {
  const read = (key: string) =>
    options.lock ? debts.lockByExternalRequestId(scope.company.id, key) : debts.findByExternalRequestId(scope.company.id, key);
  const stripped = id.startsWith(DEBT_ID_PREFIX) ? id.slice(DEBT_ID_PREFIX.length) : null;
  const debt = (stripped ? await read(stripped) : null) ?? (await read(id));
  if (!debt) throw new NotFoundError('Debt');
  return debt;
}
