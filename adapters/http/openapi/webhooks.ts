import { EVENT_TYPES, type EventType } from '../../../internal/events/event-type';
import { WEBHOOK_TEST_EVENT_TYPE } from '../../../internal/webhooks/webhook-endpoint';
import { EVENT_SUBJECTS, eventVariants, webhookTestEventSchema } from '../schemas/webhook.schemas';
import type { JsonSchema } from '../validation';
import type { ComponentSchemas } from './components';

/** When each event is sent (decisions.md section 6). */
const WHEN: Record<EventType, string> = {
  'debt.created': 'A debt was created (singly, in a batch, for a payment link or as a subscription cycle).',
  'debt.updated': 'A debt\'s amount or due date changed.',
  'debt.partially_paid': 'A payment left part of the debt to pay.',
  'debt.paid': 'The debt is paid in full.',
  'debt.overdue': 'A PENDING debt passed its due date.',
  'debt.cancelled': 'The debt was cancelled (by you, or with its link or subscription).',
  'payment_link.created': 'A payment link was created.',
  'payment_link.updated': 'A link\'s description, expiresAt or metadata changed, or a reusable link took a payment.',
  'payment_link.paid': 'A single-use link was paid.',
  'payment_link.expired': 'An ACTIVE link passed expiresAt.',
  'payment_link.cancelled': 'The link was cancelled.',
  'payment_instruction.created': 'A transfer account or cash voucher was issued for a debt.',
  'payment_instruction.paid': 'The instruction\'s amount arrived (or completed its debt): it is PAID.',
  'payment_instruction.expired': 'A PENDING instruction passed expiresAt; money still arriving through it is kept unapplied.',
  'payment_instruction.cancelled': 'Its debt was paid by other means or cancelled; money still arriving through it is kept unapplied.',
  'unapplied_payment.created': 'Money arrived that no debt took (overpaid, instruction no longer PENDING, or not applicable).',
  'unapplied_payment.resolved': 'An unapplied payment was applied to a debt or refunded.',
  'subscription.created': 'A subscription was created; its cycles follow.',
  'subscription.cycles_generated': 'The workers generated the subscription\'s debts.',
  'subscription.updated': 'A subscription was changed (PATCH).',
  'subscription.paused': 'The subscription was paused; its unpaid debts were cancelled.',
  'subscription.resumed': 'The subscription was resumed; its remaining cycles are generated.',
  'subscription.ended': 'The subscription passed its last cycle.',
  'subscription.cancelled': 'The subscription was cancelled with its unpaid debts.',
  'contact.created': 'A contact was created (directly, or inline with a debt, link or subscription).',
  'contact.updated': 'A contact\'s name, email or phones changed.',
  'product.created': 'A product was created (directly, or by name with a link or subscription).',
  'product.updated': 'A product was renamed or (de)activated.',
  'product.deleted': 'A product was deactivated by DELETE.',
  'adhesion.created': 'A user was enrolled in direct debit for a product (or re-enrolled).',
  'adhesion.cancelled': 'An adhesion became INACTIVE.',
  'payment_method.registered': 'A user registered a payment method on the enrollment page.',
  'direct_debit.attempted': 'A direct debit of a debt was sent to the bank.',
  'direct_debit.succeeded': 'The bank collected the debt.',
  'direct_debit.failed': 'The bank refused the debit; nextAttemptOn says when it is retried (null: final).',
  'reminder.sent': 'A payment reminder was accepted by its channel (email, SMS, WhatsApp); providerMessageId identifies it there.',
  'reminder.failed': 'A payment reminder could not be sent (a permanent refusal, or the channel kept failing); failureReason says why.',
};

const SIGNATURE = {
  name: 'X-Signature',
  in: 'header',
  required: true,
  description:
    '`t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`. Recompute it over the raw body with your endpoint secret, compare in constant time, ' +
    'and refuse a `t` older than a few minutes. While a secret rotation is in its grace period the header carries one `v1=` per secret: accept any match.',
  schema: { type: 'string', pattern: '^t=\\d+(,v1=[0-9a-f]{64})+$' },
  example: 't=1764086645,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd',
};

/** The OpenAPI 3.1 `webhooks` section: one entry per event type, with its payload and signature header. */
export function webhooksSection(schemas: ComponentSchemas): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const type of EVENT_TYPES) {
    const index = EVENT_SUBJECTS.findIndex((s) => type.startsWith(s.prefix));
    const variant = eventVariants[index] as JsonSchema;
    const what = EVENT_SUBJECTS[index]!.name === 'DirectDebit' ? 'direct-debit attempt' : 'resource';
    out[type] = webhook(type, `${WHEN[type]} \`data.object\` is the ${what} as GET returns it at that instant.`, variant, schemas, RETRIED);
  }
  out[WEBHOOK_TEST_EVENT_TYPE] = webhook(
    WEBHOOK_TEST_EVENT_TYPE,
    'Sent only by POST /webhook-endpoints/{id}/test, to that endpoint: `data.object` is the endpoint. Not in GET /events, never retried.',
    webhookTestEventSchema,
    schemas,
    'Any 2xx within 10 s counts as delivered (the test answer says what came back); it is not retried.',
  );
  return out;
}

const RETRIED =
  'Any 2xx within 10 s acknowledges the event. Anything else (or no answer) is retried with exponential backoff for 3 days; deliveries are at least once, so deduplicate on eventId.';

function webhook(type: string, description: string, schema: JsonSchema, schemas: ComponentSchemas, acknowledged: string) {
  const example = { ...((schema.examples as Record<string, unknown>[])[0] as object), type };
  return {
    post: {
      operationId: camel(type),
      summary: type,
      description,
      tags: ['Webhook events'],
      security: [],
      parameters: [SIGNATURE],
      requestBody: { required: true, content: { 'application/json': { schema: schemas.use(schema), examples: { [camel(type)]: { summary: type, value: example } } } } },
      responses: { '200': { description: acknowledged } },
    },
  };
}

/** `payment_link.paid` → `paymentLinkPaidEvent`. */
function camel(type: string): string {
  return type.replace(/[._](\w)/g, (_, c: string) => c.toUpperCase()) + 'Event';
}
