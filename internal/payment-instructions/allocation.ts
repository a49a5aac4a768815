import { applyPayment, type Debt, remainingCents } from '../debts/debt';
import { DomainError } from '../shared/errors';
import type { UnappliedReason } from './unapplied-payment';

/** Where money received through an instruction goes: applied to its debt, kept unapplied, or both. */
export interface Allocation {
  appliedCents: number;
  unapplied: { cents: number; reason: UnappliedReason } | null;
}

export interface AllocationContext {
  /** The instruction's effective status is PENDING. */
  instructionPending: boolean;
  /** The money is in the instruction's currency. */
  sameCurrency: boolean;
  /** Why the debt takes no payment now beyond its own state (its link is not ACTIVE, an earlier cycle is unpaid); null when nothing else stops it. */
  blocked: string | null;
  debt: Pick<Debt, 'status' | 'dueDate' | 'amountCents' | 'amountPaidCents' | 'allowOverduePayment' | 'allowPartialPayments'>;
  /**
   * What one payment may take: the debt's remaining amount, or a reusable link's amount (which a
   * payment takes whole, never in part).
   */
  capacity: { cents: number; wholeOnly: boolean } | null;
  today: string;
}

/**
 * The amount rules of a notification, as one table (docs/cash-and-transfer.md):
 * - the instruction is no longer PENDING (paid, expired, cancelled): all unapplied, INSTRUCTION_NOT_PENDING;
 * - another currency, or the debt takes no payment (paid, cancelled, overdue without overdue
 *   payments, its link not ACTIVE, an earlier cycle unpaid under enforcePaymentOrder): all
 *   unapplied, NOT_APPLICABLE;
 * - up to what the debt owes is applied under the debt's state table (a partial amount only where
 *   partial payments are allowed, else all unapplied NOT_APPLICABLE); the excess is unapplied,
 *   OVERPAYMENT.
 */
export function allocate(receivedCents: number, context: AllocationContext): Allocation {
  const all = (reason: UnappliedReason): Allocation => ({ appliedCents: 0, unapplied: { cents: receivedCents, reason } });
  if (!context.instructionPending) return all('INSTRUCTION_NOT_PENDING');
  if (!context.sameCurrency || context.blocked !== null) return all('NOT_APPLICABLE');
  const capacity = context.capacity ?? { cents: remainingCents(context.debt), wholeOnly: false };
  const applied = Math.min(receivedCents, capacity.cents);
  if (applied < 1 || (capacity.wholeOnly && applied < capacity.cents)) return all('NOT_APPLICABLE');
  if (!capacity.wholeOnly) {
    try {
      applyPayment(context.debt, applied, context.today);
    } catch (error) {
      if (error instanceof DomainError) return all('NOT_APPLICABLE');
      throw error;
    }
  }
  const excess = receivedCents - applied;
  return { appliedCents: applied, unapplied: excess > 0 ? { cents: excess, reason: 'OVERPAYMENT' } : null };
}
