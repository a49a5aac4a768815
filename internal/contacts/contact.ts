import { type ErrorDetail, InvalidRequestError } from '../shared/errors';

export const PHONE_TYPES = ['MAIN', 'MOBILE', 'WORK', 'RELATIVE', 'OTHER'] as const;
export type PhoneType = (typeof PHONE_TYPES)[number];

export interface Phone {
  number: string;
  type: PhoneType;
  primary: boolean;
  /** Defaults to the phone's type when not sent. */
  description: string;
}

export interface PhoneInput {
  number: string;
  type: PhoneType;
  primary?: boolean;
  description?: string;
}

/** The reusable debtor, keyed by `externalClientId` within an organization. */
export interface Contact {
  id: number;
  organizationId: number;
  /** Public id without its `con_` prefix. */
  code: string;
  externalClientId: string;
  name: string;
  email: string;
  phones: Phone[];
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export const CONTACT_ID_PREFIX = 'con_';
export const CONTACT_CODE_LENGTH = 20;

export function contactIdOf(contact: Pick<Contact, 'code'>): string {
  return CONTACT_ID_PREFIX + contact.code;
}

/** Paths and the `contactCode` filter accept the id with or without its prefix. */
export function contactCodeFromId(id: string): string | null {
  const code = id.startsWith(CONTACT_ID_PREFIX) ? id.slice(CONTACT_ID_PREFIX.length) : id;
  return /^[A-Za-z0-9]{1,64}$/.test(code) ? code : null;
}

/** The rule between phones that a schema cannot state: at most one primary. */
export function phonesProblem(phones: ReadonlyArray<{ primary?: unknown }>, field = 'phones'): ErrorDetail | null {
  return phones.filter((p) => p.primary === true).length > 1 ? { field, issue: 'at most one phone can be primary' } : null;
}

export function normalizePhones(phones: PhoneInput[], field = 'phones'): Phone[] {
  const problem = phonesProblem(phones, field);
  if (problem) throw InvalidRequestError.field(problem.field, problem.issue);
  return phones.map((p) => ({
    number: p.number.trim(),
    type: p.type,
    primary: p.primary ?? false,
    description: p.description ?? p.type,
  }));
}

/** Digits only: the form phone filters compare, so "+52 55 1234" finds "+52-55-1234". */
export function phoneDigits(number: string): string {
  return number.replace(/\D+/g, '');
}

/**
 * The phone filter: a stored number matches when its digits end with the query's digits, so a
 * local number finds the same number stored with its country code.
 */
export function phoneMatches(number: string, queryDigits: string): boolean {
  return phoneDigits(number).endsWith(queryDigits);
}

/** Lower-case without diacritics: how partial name searches compare. */
export function foldForSearch(text: string): string {
  return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
}
