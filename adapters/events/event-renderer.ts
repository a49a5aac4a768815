import type { DomainEvent } from '../../internal/events/domain-event';
import { toIsoUtc } from '../../internal/shared/calendar-date';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../internal/webhooks/webhook-endpoint';
import type { PaymentPortal } from '../../ports/payment-portal';
import type { WebhookTestEvents } from '../../ports/webhook-test-events';
import { presentContact } from '../http/presenters/contact.presenter';
import { debtPresenter } from '../http/presenters/debt.presenter';
import { presentAdhesion, presentDebitAttempt, presentPaymentMethod } from '../http/presenters/direct-debit.presenter';
import { paymentInstructionPresenter, presentUnappliedPayment } from '../http/presenters/payment-instruction.presenter';
import { paymentLinkPresenter } from '../http/presenters/payment-link.presenter';
import type { PresentationScope } from '../http/presenters/presentation-scope';
import { presentProduct } from '../http/presenters/product.presenter';
import { presentReminder } from '../http/presenters/reminder.presenter';
import { subscriptionPresenter } from '../http/presenters/subscription.presenter';
import { presentWebhookEndpoint } from '../http/presenters/webhook.presenter';

/** The public event object (decisions.md section 6), rendered once when the event is written. */
export interface PublicEvent {
  eventId: string;
  type: string;
  createdAt: string;
  companyCode: string;
  data: { object: Record<string, unknown> };
  requestId: string | null;
}

export interface RenderedEvent {
  /** The public id of the resource the event is about. */
  resourceId: string;
  payload: PublicEvent;
}

export type EventRenderer = (event: DomainEvent, eventId: string) => RenderedEvent;

/**
 * Renders `data.object` with the same presenters as the HTTP answers, so an event shows the
 * resource exactly as GET showed it at the instant of the change.
 */
export function eventRenderer(portal: PaymentPortal): EventRenderer {
  const presentDebt = debtPresenter(portal);
  const presentLink = paymentLinkPresenter(portal);
  const presentSubscription = subscriptionPresenter(portal);
  const presentInstruction = paymentInstructionPresenter(portal);
  return (event, eventId) => {
    // Presenters read the effective status on the scope's clock: the instant of the change.
    const scope: PresentationScope = { company: event.company, clock: { now: () => new Date(event.occurredAt.getTime()) } };
    const object = renderSubject(event, scope);
    return {
      resourceId: String(object[resourceIdField(event)]),
      payload: {
        eventId,
        type: event.type,
        createdAt: toIsoUtc(event.occurredAt),
        companyCode: event.company.code,
        data: { object },
        requestId: event.requestId,
      },
    };
  };

  function renderSubject(event: DomainEvent, scope: PresentationScope): Record<string, unknown> {
    const { subject } = event;
    switch (subject.kind) {
      case 'debt':
        return presentDebt(subject.debt, scope);
      case 'payment_link':
        return presentLink(subject.link, scope);
      case 'payment_instruction':
        return presentInstruction(subject.instruction, scope);
      case 'unapplied_payment':
        return presentUnappliedPayment(subject.payment);
      case 'subscription':
        return presentSubscription(subject.subscription, scope);
      case 'contact':
        return presentContact(subject.contact);
      case 'product':
        return presentProduct(subject.product);
      case 'adhesion':
        return presentAdhesion(subject.adhesion);
      case 'payment_method':
        return presentPaymentMethod(subject.paymentMethod);
      case 'direct_debit':
        return presentDebitAttempt(subject.attempt, subject.debt, subject.paymentMethod);
      case 'reminder':
        return presentReminder(subject.reminder, subject.debt);
    }
  }
}

function resourceIdField(event: DomainEvent): string {
  switch (event.subject.kind) {
    case 'debt':
      return 'debtId';
    case 'payment_link':
      return 'paymentLinkId';
    case 'payment_instruction':
      return 'paymentInstructionId';
    case 'unapplied_payment':
      return 'unappliedPaymentId';
    case 'subscription':
      return 'subscriptionId';
    case 'contact':
      return 'contactId';
    case 'product':
      return 'productId';
    case 'adhesion':
      return 'adhesionId';
    case 'payment_method':
      return 'paymentMethodId';
    case 'direct_debit':
      return 'debitAttemptId';
    case 'reminder':
      return 'reminderId';
  }
}

/** What an event log adapter needs to write events: the renderer and a source of event ids. */
export interface EventWriting {
  render: EventRenderer;
  /** A new public event id (`evt_…`). */
  newEventId(): string;
}

export const EVENT_ID_PREFIX = 'evt_';
export const EVENT_ID_LENGTH = 24;

export function eventWriting(portal: PaymentPortal, ids: { alphanumeric(length: number): string }): EventWriting {
  return { render: eventRenderer(portal), newEventId: () => EVENT_ID_PREFIX + ids.alphanumeric(EVENT_ID_LENGTH) };
}

/**
 * The `webhook.test` event (POST /webhook-endpoints/{id}/test): the event object of every other
 * event, with a new eventId and the endpoint as GET /webhook-endpoints/{id} returns it (no secret).
 */
export function webhookTestEvents(ids: { alphanumeric(length: number): string }): WebhookTestEvents {
  return {
    render({ endpoint, company, occurredAt, requestId }) {
      const eventId = EVENT_ID_PREFIX + ids.alphanumeric(EVENT_ID_LENGTH);
      const payload: PublicEvent = {
        eventId,
        type: WEBHOOK_TEST_EVENT_TYPE,
        createdAt: toIsoUtc(occurredAt),
        companyCode: company.code,
        data: { object: presentWebhookEndpoint(endpoint) },
        requestId,
      };
      return { eventId, payload: payload as unknown as Record<string, unknown> };
    },
  };
}
