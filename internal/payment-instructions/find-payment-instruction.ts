import type { PaymentInstructionRepository, PaymentInstructionView } from '../../ports/payment-instruction-repository';
import { NotFoundError } from '../shared/errors';
import type { TenantScope } from '../shared/tenant-scope';
import { instructionCodeFromId } from './payment-instruction';

/** By `pin_…` or the bare code, in the caller's company; anything else is 404. */
export async function findPaymentInstruction(
  repo: Pick<PaymentInstructionRepository, 'findByCode'>,
  id: string,
  scope: Pick<TenantScope, 'company'>,
): Promise<PaymentInstructionView> {
  const code = instructionCodeFromId(id);
  const found = code === null ? null : await repo.findByCode(scope.company.id, code);
  if (!found) throw new NotFoundError('Payment instruction');
  return found;
}
