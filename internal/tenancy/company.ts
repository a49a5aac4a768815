import type { Currency } from '../shared/currency';

/** A creditor company of an organization and the settings that shape its charges. */
export interface Company {
  id: number;
  organizationId: number;
  code: string;
  name: string;
  defaultCurrency: Currency | null;
  /** The default-payment-method (direct debit) feature. */
  directDebitEnabled: boolean;
  /** A product modality is configured for direct debit. */
  directDebitModality: boolean;
  privateLinks: boolean;
  portalUrl: string | null;
}

export type CompanySettings = Pick<
  Company,
  'defaultCurrency' | 'directDebitEnabled' | 'directDebitModality' | 'privateLinks' | 'portalUrl'
>;

const CODE = /^[A-Z0-9][A-Z0-9_-]{0,39}$/;

export function isCompanyCode(code: string): boolean {
  return CODE.test(code);
}

/** A company code derived from a name: upper-case ASCII letters, digits and hyphens. */
export function companyCodeFromName(name: string): string {
  const code = name
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 32);
  return code || 'COMPANY';
}
