import type { InstructionStatus, PaymentInstruction } from '../internal/payment-instructions/payment-instruction';

export type NewPaymentInstruction = Omit<PaymentInstruction, 'id'>;

/** An instruction as read: with the public id of its debt. */
export interface PaymentInstructionView extends PaymentInstruction {
  debtExternalRequestId: string;
}

export interface PaymentInstructionChanges {
  status?: InstructionStatus;
  amountReceivedCents?: number;
  amountAppliedCents?: number;
  paidAt?: Date | null;
  updatedAt: Date;
}

export interface PaymentInstructionRepository {
  /**
   * @throws ConflictError when the provider reference (the account or barcode) is taken, or the
   * debt already has a PENDING instruction of that method.
   */
  insert(instruction: NewPaymentInstruction): Promise<PaymentInstructionView>;
  findByCode(companyId: number, code: string): Promise<PaymentInstructionView | null>;
  /** Across companies: a provider's notification names only its own reference. */
  findByProviderReference(provider: string, providerReference: string): Promise<PaymentInstructionView | null>;
  /** Reads the instruction and locks it until the transaction ends. */
  lockById(id: number): Promise<PaymentInstructionView | null>;
  /** The debt's instructions, newest first. */
  listOfDebt(companyId: number, debtId: number): Promise<PaymentInstructionView[]>;
  /** The stored-PENDING instructions of these debts of the company (a hosted page's cycles), newest first. */
  listPendingOfDebts(companyId: number, debtIds: number[]): Promise<PaymentInstructionView[]>;
  update(id: number, changes: PaymentInstructionChanges): Promise<PaymentInstructionView>;
  /**
   * Cancels the debts' PENDING instructions (locking them), except `keep`; returns them as they
   * now read, by id.
   */
  cancelPendingOfDebts(debtIds: number[], at: Date, keep?: number): Promise<PaymentInstructionView[]>;
  /**
   * Persists EXPIRED for up to `limit` of the organization's PENDING instructions whose
   * expiresAt is at or before `now`, locking them for the caller's transaction (a row another
   * transaction holds is waited for, and expired only if still PENDING once that one committed);
   * returns them as they now read.
   */
  markExpired(organizationId: number, now: Date, at: Date, limit: number): Promise<PaymentInstructionView[]>;
}
