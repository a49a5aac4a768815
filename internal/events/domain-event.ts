import type { AdhesionView } from '../../ports/adhesion-repository';
import type { DebtView } from '../../ports/debt-repository';
import type { PaymentInstructionView } from '../../ports/payment-instruction-repository';
import type { PaymentLinkView } from '../../ports/payment-link-repository';
import type { UnappliedPaymentView } from '../../ports/unapplied-payment-repository';
import type { SubscriptionView } from '../../ports/subscription-repository';
import type { Contact } from '../contacts/contact';
import type { DebitAttempt } from '../direct-debit/debit-attempt';
import type { PaymentMethodReference } from '../direct-debit/payment-method';
import type { Product } from '../products/product';
import type { Reminder } from '../reminders/reminder';
import type { TenantScope } from '../shared/tenant-scope';
import type { Company } from '../tenancy/company';
import type { EventType } from './event-type';

/** The resource an event reports, as it stands right after the change. */
export type EventSubject =
  | { kind: 'debt'; debt: DebtView }
  | { kind: 'payment_link'; link: PaymentLinkView }
  | { kind: 'payment_instruction'; instruction: PaymentInstructionView }
  | { kind: 'unapplied_payment'; payment: UnappliedPaymentView }
  | { kind: 'subscription'; subscription: SubscriptionView }
  | { kind: 'contact'; contact: Contact }
  | { kind: 'product'; product: Product }
  | { kind: 'adhesion'; adhesion: AdhesionView }
  | { kind: 'payment_method'; paymentMethod: PaymentMethodReference }
  | { kind: 'direct_debit'; attempt: DebitAttempt; debt: DebtView; paymentMethod: PaymentMethodReference }
  | { kind: 'reminder'; reminder: Reminder; debt: Pick<DebtView, 'externalRequestId'> };

/**
 * A state change to report to the integrator. Use cases append it to `tx.events` inside the
 * transaction of the change; the event log renders the public event object (the resource as
 * GET returns it) and the workers deliver it.
 */
export interface DomainEvent {
  type: EventType;
  organizationId: number;
  /** Whose resource it is: gives `companyCode` and the settings the resource shape depends on. */
  company: Company;
  subject: EventSubject;
  /** On the organization's clock; also the instant the resource's effective status is read at. */
  occurredAt: Date;
  /** The request that caused it; null for changes made by workers. */
  requestId: string | null;
  /** The client user whose request caused it; null for changes made by workers. */
  clientUserId: number | null;
  /** The facade API key (its prefix) of that request; null for changes made by workers. */
  apiKeyPrefix: string | null;
}

/** An event caused by the request (or job) behind `scope`, at the scope's current instant. */
export function eventOf(scope: TenantScope, type: EventType, subject: EventSubject, occurredAt: Date = scope.clock.now()): DomainEvent {
  return {
    type,
    organizationId: scope.organizationId,
    company: scope.company,
    subject,
    occurredAt,
    requestId: scope.requestId,
    clientUserId: scope.clientUserId > 0 ? scope.clientUserId : null,
    apiKeyPrefix: scope.apiKeyPrefix ?? null,
  };
}
