import { contactIdOf } from '../../../internal/contacts/contact';
import { productIdOf } from '../../../internal/products/product';
import { toIsoUtc, utcDateOf } from '../../../internal/shared/calendar-date';
import { amountFromCents } from '../../../internal/shared/money';
import type { PresentationScope } from './presentation-scope';
import { effectiveSubscriptionStatus, subscriptionIdOf } from '../../../internal/subscriptions/subscription';
import type { PaymentPortal } from '../../../ports/payment-portal';
import type { SubscriptionView } from '../../../ports/subscription-repository';

/**
 * The Subscription shape; paymentMethods, description and additionalData only when set. `page`
 * presents a list with one reading of the clock for all of it, as the use case filtered it by one.
 */
export function subscriptionPresenter(portal: PaymentPortal) {
  const present = (s: SubscriptionView, scope: PresentationScope, today: string) => {
    const subscriptionId = subscriptionIdOf(s);
    const body: Record<string, unknown> = {
      subscriptionId,
      externalSubscriptionId: s.externalSubscriptionId,
      status: effectiveSubscriptionStatus(s, today),
      scheduling: {
        intervalUnit: s.schedule.intervalUnit,
        intervalCount: s.schedule.intervalCount,
        startDate: s.schedule.startDate,
        totalCycles: s.schedule.totalCycles,
        endDate: s.schedule.endDate,
        billingDay: s.schedule.billingDay,
      },
      externalClientId: s.contact.externalClientId,
      amount: amountFromCents(s.amountCents),
      currency: s.currency,
      paymentUrl: portal.subscriptionUrl({ companyCode: scope.company.code, subscriptionId }),
      enforcePaymentOrder: s.enforcePaymentOrder,
      autopay: s.autopay,
      allowOverduePayment: s.allowOverduePayment,
      allowPartialPayments: s.allowPartialPayments,
    };
    if (s.paymentMethods) body.paymentMethods = s.paymentMethods;
    if (s.description !== null) body.description = s.description;
    if (s.additionalData) body.additionalData = s.additionalData;
    body.contact = { contactId: contactIdOf(s.contact), externalClientId: s.contact.externalClientId, createdInline: s.contactCreatedInline };
    body.product = { productId: productIdOf(s.product), name: s.product.name, active: s.product.active, createdInline: s.productCreatedInline };
    body.createdAt = toIsoUtc(s.createdAt);
    body.updatedAt = toIsoUtc(s.updatedAt);
    return body;
  };
  return Object.assign((s: SubscriptionView, scope: PresentationScope) => present(s, scope, utcDateOf(scope.clock.now())), {
    page: (subscriptions: readonly SubscriptionView[], scope: PresentationScope) => {
      const today = utcDateOf(scope.clock.now());
      return subscriptions.map((s) => present(s, scope, today));
    },
  });
}
