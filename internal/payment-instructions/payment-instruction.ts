import type { Debt, PaymentMethod } from '../debts/debt';
import { addDaysToDate } from '../shared/calendar-date';
import type { Currency } from '../shared/currency';

/**
 * How a debtor pays a debt with money that arrives later: an account to transfer to (a CLABE
 * unique to the instruction in Mexico, a CVU in Argentina, a CCI in Peru, an account number
 * elsewhere) or a cash voucher with a barcode, paid at a store. The money is confirmed when the
 * provider notifies it (ReceiveProviderNotification), never when the debtor says so.
 */
export const INSTRUCTION_METHODS = ['TRANSFER', 'CASH'] as const;
export type InstructionMethod = (typeof INSTRUCTION_METHODS)[number];

export const INSTRUCTION_STATUSES = ['PENDING', 'PAID', 'EXPIRED', 'CANCELLED'] as const;
export type InstructionStatus = (typeof INSTRUCTION_STATUSES)[number];

export const TRANSFER_ACCOUNT_TYPES = ['CLABE', 'CVU', 'CCI', 'ACCOUNT'] as const;
export type TransferAccountType = (typeof TRANSFER_ACCOUNT_TYPES)[number];

/** The account a transfer goes to, by the debt's currency. */
export const TRANSFER_ACCOUNT_TYPE_BY_CURRENCY: Record<Currency, TransferAccountType> = {
  MXN: 'CLABE',
  ARS: 'CVU',
  PEN: 'CCI',
  COP: 'ACCOUNT',
  CLP: 'ACCOUNT',
  USD: 'ACCOUNT',
};

export interface TransferDetails {
  accountType: TransferAccountType;
  accountNumber: string;
  bankName: string;
  beneficiary: string;
}

export interface CashDetails {
  /** What the barcode encodes (and what a cashier types when it does not scan). */
  barcodeValue: string;
  /** Where the voucher can be paid. */
  networks: string[];
}

export interface PaymentInstruction {
  id: number;
  organizationId: number;
  companyId: number;
  /** The debt it pays (internal number). */
  debtId: number;
  /** Public id without its `pin_` prefix. */
  code: string;
  method: InstructionMethod;
  /** As stored; read through effectiveInstructionStatus(), which adds expiry. */
  status: InstructionStatus;
  amountCents: number;
  /** Every cent received through it, applied or kept as unapplied. */
  amountReceivedCents: number;
  /** The part of it applied to the debt. */
  amountAppliedCents: number;
  currency: Currency;
  /** What the debtor quotes (the transfer's numeric reference, the voucher's number). */
  reference: string;
  /** The provider that issued it, and its reference for it (the account or the barcode): notifications name it. */
  provider: string;
  providerReference: string;
  transfer: TransferDetails | null;
  cash: CashDetails | null;
  expiresAt: Date;
  createdAt: Date;
  paidAt: Date | null;
  updatedAt: Date;
}

export const PAYMENT_INSTRUCTION_ID_PREFIX = 'pin_';
export const INSTRUCTION_CODE_LENGTH = 24;

export function paymentInstructionIdOf(instruction: Pick<PaymentInstruction, 'code'>): string {
  return PAYMENT_INSTRUCTION_ID_PREFIX + instruction.code;
}

/** Paths take the id with or without its prefix. */
export function instructionCodeFromId(id: string): string | null {
  const code = id.startsWith(PAYMENT_INSTRUCTION_ID_PREFIX) ? id.slice(PAYMENT_INSTRUCTION_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9]{1,64}$/.test(code) ? code : null;
}

/** A PENDING instruction whose expiresAt has passed reads EXPIRED at once (the job persists it). */
export function effectiveInstructionStatus(instruction: Pick<PaymentInstruction, 'status' | 'expiresAt'>, now: Date): InstructionStatus {
  return instruction.status === 'PENDING' && instruction.expiresAt.getTime() <= now.getTime() ? 'EXPIRED' : instruction.status;
}

/** A cash voucher is valid 72 hours, a transfer account 30 days. */
export const CASH_VALIDITY_MS = 72 * 3_600_000;
export const TRANSFER_VALIDITY_MS = 30 * 86_400_000;

/**
 * When an instruction stops taking money: its validity from now, cut at the end of the due date
 * when the debt takes no overdue payment (the last instant it can be paid), and at the expiry of
 * the debt's link (no payment once the link is not ACTIVE).
 */
export function instructionExpiry(
  method: InstructionMethod,
  now: Date,
  debt: Pick<Debt, 'dueDate' | 'allowOverduePayment'>,
  linkExpiresAt: Date | null,
): Date {
  const limits = [now.getTime() + (method === 'CASH' ? CASH_VALIDITY_MS : TRANSFER_VALIDITY_MS)];
  if (!debt.allowOverduePayment) limits.push(new Date(`${addDaysToDate(debt.dueDate, 1)}T00:00:00.000Z`).getTime() - 1);
  if (linkExpiresAt) limits.push(linkExpiresAt.getTime());
  return new Date(Math.min(...limits));
}

/**
 * The instruction methods a debt's paymentMethods allow: TRANSFER for TRANSFER or BANK_TRANSFER
 * (one choice for the debtor), CASH for CASH; both when the debt names none.
 */
export function instructionMethodsOf(paymentMethods: readonly PaymentMethod[] | null): InstructionMethod[] {
  if (!paymentMethods) return [...INSTRUCTION_METHODS];
  const out: InstructionMethod[] = [];
  if (paymentMethods.includes('TRANSFER') || paymentMethods.includes('BANK_TRANSFER')) out.push('TRANSFER');
  if (paymentMethods.includes('CASH')) out.push('CASH');
  return out;
}

/** The payment source a notification's payment is recorded with (debt_payments.source). */
export function paymentSourceOf(method: InstructionMethod): string {
  return method === 'CASH' ? 'cash' : 'transfer';
}
