import type { Currency } from '../shared/currency';
import { BusinessRuleViolationError, InvalidRequestError } from '../shared/errors';

/**
 * What a signed enrollment URL grants: registering payment methods for one user of one company
 * until `expiresAt` (on the organization's clock). The currency decides which bank account the
 * page asks for (CLABE, CBU, CCI or an account number).
 */
export interface EnrollmentGrant {
  companyCode: string;
  externalClientId: string;
  currency: Currency;
  expiresAt: Date;
}

export const ENROLLMENT_LINK_SECONDS = { default: 7 * 24 * 3600, min: 300, max: 30 * 24 * 3600 } as const;

/** The user as registered at enrollment (the GET /payment-methods rule): 1-100 characters, no `'`, `"`, `\` or `;`. */
export function assertEnrollmentClient(externalClientId: string, field = 'externalClientId'): void {
  if (externalClientId.length < 1 || externalClientId.length > 100 || externalClientId.trim() === '') {
    throw InvalidRequestError.field(field, 'must be 1 to 100 characters');
  }
  if (/['"\\;]/.test(externalClientId)) throw InvalidRequestError.field(field, "must not contain ', \", \\ or ;");
}

export class EnrollmentExpiredError extends BusinessRuleViolationError {
  constructor() {
    super('The enrollment link has expired');
  }
}
