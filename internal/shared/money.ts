import { InvalidRequestError } from './errors';

/**
 * Money is held in integer minor units (cents). Conversions from the wire's decimal numbers go
 * through the decimal string, never through floating-point multiplication, so 0.29 is 29 cents.
 */
export type Cents = number & { readonly __brand: 'Cents' };

const DECIMAL = /^(\d+)(?:\.(\d{1,2}))?$/;

/**
 * Parses an amount in currency units (at most 2 decimals; at least 0.01 unless a filter allows
 * zero) into cents.
 */
export function centsFromAmount(amount: number, field = 'amount', minimumCents = 1): Cents {
  if (typeof amount !== 'number' || !Number.isFinite(amount)) {
    throw InvalidRequestError.field(field, 'must be a number');
  }
  const match = DECIMAL.exec(decimalString(amount));
  if (!match) throw InvalidRequestError.field(field, 'must have at most 2 decimals');
  const cents = Number(match[1]) * 100 + Number((match[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(cents)) throw InvalidRequestError.field(field, 'is too large');
  if (cents < minimumCents) throw InvalidRequestError.field(field, `must be at least ${amountFromCents(minimumCents).toFixed(2)}`);
  return cents as Cents;
}

/**
 * Cents back to the wire's number in currency units. For a whole number of cents within 2^53 the
 * division is already the double nearest to the two-decimal amount (IEEE division rounds the
 * exact quotient once), which is what the decimal string would parse to; toFixed and its parse
 * (2 % of a page of debts' API CPU) are kept for anything else.
 */
export function amountFromCents(cents: number): number {
  return Number.isSafeInteger(cents) ? cents / 100 : Number((cents / 100).toFixed(2));
}

function decimalString(n: number): string {
  // Number#toString switches to exponent form for very small or very large values.
  const text = n.toString();
  return /e/i.test(text) ? n.toFixed(20).replace(/0+$/, '').replace(/\.$/, '') : text;
}
