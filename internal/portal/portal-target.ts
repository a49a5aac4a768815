/**
 * What a hosted payment page shows, as its URL names it. Debt and subscription URLs carry a
 * signature the HTTP adapter checks before the core sees them; a private link is found by its
 * opaque short code; a public link by the identifier in its portal URL.
 */
export type PortalTarget =
  | { kind: 'debt'; companyCode: string; debtId: string }
  | { kind: 'subscription'; companyCode: string; subscriptionId: string }
  | { kind: 'short-code'; shortCode: string }
  /** `linkId` picks one of several ACTIVE links sharing the identifier. */
  | { kind: 'identifier'; companyCode: string; identifier: string; linkId?: string };

export const SHORT_CODE_PATTERN = /^[A-Za-z0-9]{16,32}$/;
