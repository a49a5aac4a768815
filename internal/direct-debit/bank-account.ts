import type { Currency } from '../shared/currency';
import { InvalidRequestError } from '../shared/errors';

/**
 * The bank account a user enrolls, by the currency of the enrollment: a CLABE in Mexico, a CBU
 * in Argentina, a CCI in Peru, a plain account number elsewhere. Only its masked reference
 * (`CLABE •••• 1234`) is ever stored; the number itself goes no further than validation.
 */
export type BankAccountKind = 'CLABE' | 'CBU' | 'CCI' | 'ACCOUNT';

export const BANK_ACCOUNT_KIND_BY_CURRENCY: Record<Currency, BankAccountKind> = {
  MXN: 'CLABE',
  ARS: 'CBU',
  PEN: 'CCI',
  COP: 'ACCOUNT',
  CLP: 'ACCOUNT',
  USD: 'ACCOUNT',
};

/** Digits each kind has (a plain account number: 6 to 20). */
export const BANK_ACCOUNT_LENGTHS: Record<BankAccountKind, { min: number; max: number }> = {
  CLABE: { min: 18, max: 18 },
  CBU: { min: 22, max: 22 },
  CCI: { min: 20, max: 20 },
  ACCOUNT: { min: 6, max: 20 },
};

const MASK = '\u2022\u2022\u2022\u2022';

/** Spaces, hyphens and dots people type between groups are dropped; anything else must be a digit. */
export function compactAccountNumber(input: string): string {
  return input.replace(/[\s.-]/g, '');
}

/**
 * Validates a bank account number for the enrollment currency and returns its masked reference.
 * CLABE: 18 digits with the Banxico check digit (weights 3, 7, 1). CBU: 22 digits with both check
 * digits (bank-branch block and account block). CCI: 20 digits (its check digits are computed
 * per bank, from the domestic account, so only the format is checked). Elsewhere: 6 to 20 digits.
 * @throws InvalidRequestError on `field`.
 */
export function maskedBankAccount(input: string, currency: Currency, field = 'accountNumber'): string {
  const kind = BANK_ACCOUNT_KIND_BY_CURRENCY[currency];
  const digits = compactAccountNumber(input);
  const { min, max } = BANK_ACCOUNT_LENGTHS[kind];
  const label = kind === 'ACCOUNT' ? 'An account number' : `A ${kind}`;
  if (!/^\d+$/.test(digits)) throw InvalidRequestError.field(field, `${label} has digits only`);
  if (digits.length < min || digits.length > max) {
    throw InvalidRequestError.field(field, min === max ? `${label} has ${min} digits` : `${label} has ${min} to ${max} digits`);
  }
  if (kind === 'CLABE' && !isValidClabe(digits)) throw InvalidRequestError.field(field, 'The CLABE check digit does not match');
  if (kind === 'CBU' && !isValidCbu(digits)) throw InvalidRequestError.field(field, 'The CBU check digits do not match');
  if (/^(\d)\1+$/.test(digits)) throw InvalidRequestError.field(field, `${label} cannot repeat one digit`);
  return `${kind === 'ACCOUNT' ? 'Account' : kind} ${MASK} ${digits.slice(-4)}`;
}

/** CLABE: the 18th digit is (10 - Σ(dᵢ·wᵢ mod 10) mod 10) mod 10 with weights 3, 7, 1 repeating. */
export function isValidClabe(digits: string): boolean {
  if (!/^\d{18}$/.test(digits)) return false;
  return clabeCheckDigit(digits.slice(0, 17)) === Number(digits[17]);
}

export function clabeCheckDigit(first17: string): number {
  const weights = [3, 7, 1];
  let sum = 0;
  for (let i = 0; i < 17; i++) sum += (Number(first17[i]) * weights[i % 3]!) % 10;
  return (10 - (sum % 10)) % 10;
}

/**
 * CBU: two blocks, each ending in a check digit. Block 1 is bank (3) + branch (4) + check;
 * block 2 is account (13) + check. Each check is (10 - Σ mod 10) mod 10 with weights 3, 1, 7, 9
 * applied from the rightmost digit of the block leftwards.
 */
export function isValidCbu(digits: string): boolean {
  if (!/^\d{22}$/.test(digits)) return false;
  return cbuCheckDigit(digits.slice(0, 7)) === Number(digits[7]) && cbuCheckDigit(digits.slice(8, 21)) === Number(digits[21]);
}

export function cbuCheckDigit(block: string): number {
  const weights = [3, 1, 7, 9];
  let sum = 0;
  for (let i = 0; i < block.length; i++) sum += Number(block[block.length - 1 - i]) * weights[i % 4]!;
  return (10 - (sum % 10)) % 10;
}
