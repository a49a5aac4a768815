import type { PaymentPortal } from '../../ports/payment-portal';

/** The portal served under PUBLIC_BASE_URL (the hosted pages issue renders what it links to). */
export class HostedPaymentPortal implements PaymentPortal {
  constructor(private readonly publicBaseUrl: string) {}

  debtUrl(debt: { companyCode: string; debtId: string }): string | null {
    return `${this.publicBaseUrl}/pay/${encodeURIComponent(debt.companyCode)}/${encodeURIComponent(debt.debtId)}`;
  }

  subscriptionUrl(subscription: { companyCode: string; subscriptionId: string }): string | null {
    return `${this.publicBaseUrl}/pay/${encodeURIComponent(subscription.companyCode)}/subscriptions/${encodeURIComponent(subscription.subscriptionId)}`;
  }

  linkUrl(link: { companyCode: string; portalUrl: string | null; shortCode: string | null; identifier: string }): string | null {
    if (link.shortCode) return `${this.publicBaseUrl}/l/${link.shortCode}`;
    const portal = (link.portalUrl ?? `${this.publicBaseUrl}/pay/${encodeURIComponent(link.companyCode)}`).replace(/\/+$/, '');
    return `${portal}/${encodeURIComponent(link.identifier)}`;
  }
}
