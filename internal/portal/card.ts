import { InvalidRequestError, type ErrorDetail } from '../shared/errors';

/** A card as typed on a hosted page: handed to the payment processor, never stored or logged. */
export interface CardDetails {
  number: string;
  expMonth: number;
  expYear: number;
  /** Absent where the page does not ask for it (tokenizing a card for direct debit). */
  cvc?: string;
}

export interface CardInput {
  number?: string;
  /** `MM/YY` or `MM/YYYY`. */
  expiry?: string;
  cvc?: string;
}

/**
 * Checks a typed card: 12 to 19 digits passing the Luhn check (spaces and hyphens dropped),
 * an expiry `MM/YY` not before the current month, and a 3 or 4 digit CVC when `requireCvc`.
 * Every problem is reported at once, on the fields `cardNumber`, `cardExpiry`, `cardCvc`.
 */
export function parseCard(input: CardInput, today: string, options: { requireCvc: boolean }): CardDetails {
  const details: ErrorDetail[] = [];
  const number = (input.number ?? '').replace(/[\s-]/g, '');
  if (!/^\d{12,19}$/.test(number) || !passesLuhn(number)) details.push({ field: 'cardNumber', issue: 'is not a valid card number' });
  const expiry = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(input.expiry ?? '');
  const expMonth = expiry ? Number(expiry[1]) : 0;
  const expYear = expiry ? (expiry[2]!.length === 2 ? 2000 + Number(expiry[2]) : Number(expiry[2])) : 0;
  if (!expiry || expMonth < 1 || expMonth > 12) details.push({ field: 'cardExpiry', issue: 'must be MM/YY' });
  else if (`${expYear}-${String(expMonth).padStart(2, '0')}` < today.slice(0, 7)) details.push({ field: 'cardExpiry', issue: 'has passed' });
  const cvc = (input.cvc ?? '').trim();
  if (options.requireCvc && !/^\d{3,4}$/.test(cvc)) details.push({ field: 'cardCvc', issue: 'must be 3 or 4 digits' });
  if (details.length > 0) throw new InvalidRequestError('Invalid card', details);
  return { number, expMonth, expYear, ...(options.requireCvc ? { cvc } : {}) };
}

/** The Luhn (mod 10) check every card number carries. */
export function passesLuhn(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}
