/** The hosted payment pages: where a debtor pays. URLs are opaque to integrators. */
export interface PaymentPortal {
  /** The page to pay a debt; null when the portal cannot provide one (the debt stands anyway). */
  debtUrl(debt: { companyCode: string; debtId: string }): string | null;
}
