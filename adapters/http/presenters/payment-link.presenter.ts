import { DEBT_ID_PREFIX } from '../../../internal/debts/debt';
import { effectiveLinkStatus, paymentLinkIdOf } from '../../../internal/payment-links/payment-link';
import { productIdOf } from '../../../internal/products/product';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import { amountFromCents } from '../../../internal/shared/money';
import type { PresentationScope } from './presentation-scope';
import type { ListedDebt } from '../../../ports/debt-repository';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { PaymentPortal } from '../../../ports/payment-portal';

/**
 * The PaymentLink shape: externalPaymentLinkId, expiresAt, successUrl, metadata,
 * identifierValue, contact (always null in this version) and product are always present, null
 * when empty. additionalData lives on the associated debt and is not shown here. `page` presents
 * a list with one reading of the clock for all of it, as the use case filtered it by one.
 */
export function paymentLinkPresenter(portal: PaymentPortal) {
  const present = (link: PaymentLinkView, scope: PresentationScope, now: Date) => ({
    paymentLinkId: paymentLinkIdOf(link),
    externalPaymentLinkId: link.externalPaymentLinkId,
    debtId: DEBT_ID_PREFIX + link.debtExternalRequestId,
    status: effectiveLinkStatus(link, now),
    amount: amountFromCents(link.amountCents),
    currency: link.currency,
    description: link.description,
    singleUse: link.singleUse,
    expiresAt: link.expiresAt && toIsoUtc(link.expiresAt),
    successUrl: link.successUrl,
    metadata: link.metadata,
    paymentUrl: safe(() =>
      portal.linkUrl({ companyCode: scope.company.code, portalUrl: scope.company.portalUrl, shortCode: link.shortCode, identifier: link.urlIdentifier }),
    ),
    identifierValue: link.identifierValue,
    contact: null,
    product: link.product && {
      productId: productIdOf(link.product),
      name: link.product.name,
      active: link.product.active,
      createdInline: link.productCreatedInline,
    },
    createdAt: toIsoUtc(link.createdAt),
  });
  return Object.assign((link: PaymentLinkView, scope: PresentationScope) => present(link, scope, scope.clock.now()), {
    page: (links: readonly PaymentLinkView[], scope: PresentationScope) => {
      const now = scope.clock.now();
      return links.map((link) => present(link, scope, now));
    },
  });
}

/** A payment record of a link: an associated debt, named by its internal number. */
export function presentLinkPayment(debt: ListedDebt, status: string) {
  return {
    paymentId: DEBT_ID_PREFIX + debt.id,
    status,
    amount: amountFromCents(debt.amountCents),
    amountPaid: amountFromCents(debt.amountPaidCents),
    currency: debt.currency,
    createdAt: toIsoUtc(debt.createdAt),
  };
}

function safe(build: () => string | null): string | null {
  try {
    return build();
  } catch {
    return null;
  }
}
