/**
 * The enrollment of a user into a product for direct debit (it does not hold the payment
 * method: debits use the user's default method). ACTIVE: debts of the product are debited
 * automatically; INACTIVE: cancelled, nothing is debited until the user is enrolled again.
 */
export const ADHESION_STATUSES = ['ACTIVE', 'INACTIVE'] as const;
export type AdhesionStatus = (typeof ADHESION_STATUSES)[number];

export interface Adhesion {
  id: number;
  organizationId: number;
  companyId: number;
  /** Public id without its `adh_` prefix. */
  code: string;
  externalClientId: string;
  productId: number;
  status: AdhesionStatus;
  createdAt: Date;
  updatedAt: Date;
}

export const ADHESION_ID_PREFIX = 'adh_';
export const ADHESION_CODE_LENGTH = 20;

export function adhesionIdOf(adhesion: Pick<Adhesion, 'code'>): string {
  return ADHESION_ID_PREFIX + adhesion.code;
}
