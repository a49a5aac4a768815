import type { Repositories } from '../../ports/unit-of-work';
import { eventOf } from '../events/domain-event';
import type { TenantScope } from '../shared/tenant-scope';

/**
 * A debt paid by other means (a card, direct debit, another instruction) or cancelled takes no
 * more money through its PENDING instructions: they are cancelled in the same transaction, each
 * with a payment_instruction.cancelled event. Money that still arrives through one is kept as an
 * unapplied payment (INSTRUCTION_NOT_PENDING). `keep` spares the instruction that paid.
 */
export async function cancelPendingInstructions(tx: Repositories, debtIds: number[], scope: TenantScope, at: Date, keep?: number): Promise<void> {
  if (debtIds.length === 0) return;
  const cancelled = await tx.paymentInstructions.cancelPendingOfDebts(debtIds, at, keep);
  if (cancelled.length === 0) return;
  await tx.events.append(cancelled.map((instruction) => eventOf(scope, 'payment_instruction.cancelled', { kind: 'payment_instruction', instruction }, at)));
}
