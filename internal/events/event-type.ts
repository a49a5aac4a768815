/**
 * Every outbound event type (decisions.md section 6). An event is written in the transaction of
 * the state change it reports, so it exists exactly when the change does.
 */
export const EVENT_TYPES = [
  'debt.created',
  'debt.updated',
  'debt.partially_paid',
  'debt.paid',
  'debt.overdue',
  'debt.cancelled',
  'payment_link.created',
  'payment_link.updated',
  'payment_link.paid',
  'payment_link.expired',
  'payment_link.cancelled',
  'payment_instruction.created',
  'payment_instruction.paid',
  'payment_instruction.expired',
  'payment_instruction.cancelled',
  'unapplied_payment.created',
  'unapplied_payment.resolved',
  'subscription.created',
  'subscription.cycles_generated',
  'subscription.updated',
  'subscription.paused',
  'subscription.resumed',
  'subscription.ended',
  'subscription.cancelled',
  'contact.created',
  'contact.updated',
  'product.created',
  'product.updated',
  'product.deleted',
  'adhesion.created',
  'adhesion.cancelled',
  'payment_method.registered',
  'direct_debit.attempted',
  'direct_debit.succeeded',
  'direct_debit.failed',
  'reminder.sent',
  'reminder.failed',
] as const;

export type EventType = (typeof EVENT_TYPES)[number];

export function isEventType(value: unknown): value is EventType {
  return typeof value === 'string' && (EVENT_TYPES as readonly string[]).includes(value);
}
