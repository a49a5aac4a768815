import type { UnappliedPaymentRepository, UnappliedPaymentView } from '../../ports/unapplied-payment-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { unappliedCodeFromId } from './unapplied-payment';

/** By `upy_…` or the bare code, in the caller's company; anything else is 404. */
export async function findUnappliedPayment(
  repo: Pick<UnappliedPaymentRepository, 'findByCode' | 'lockByCode'>,
  id: string,
  scope: TenantScope,
  options: { lock?: boolean } = {},
): Promise<UnappliedPaymentView> {
  const code = unappliedCodeFromId(id);
  const found = code === null ? null : options.lock ? await repo.lockByCode(scope.company.id, code) : await repo.findByCode(scope.company.id, code);
  if (!found) throw new NotFoundError('Unapplied payment');
  return found;
}
