import { reminderSchema } from './reminder.schemas';
import { EVENT_TYPES } from '../../../internal/events/event-type';
import { ATTEMPT_ERRORS } from '../../../internal/webhooks/attempt-error';
import { DELIVERY_STATUSES } from '../../../internal/webhooks/delivery';
import { DEFAULT_SECRET_GRACE_HOURS, MAX_SECRET_GRACE_HOURS } from '../../../internal/webhooks/secret-rotation';
import { MAX_URL_LENGTH, WEBHOOK_TEST_EVENT_TYPE } from '../../../internal/webhooks/webhook-endpoint';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, pageQueryProperties, requestIdSchema } from './common.schemas';
import { contactSchema } from './contact.schemas';
import { debtSchema } from './debt.schemas';
import { adhesionSchema, debitAttemptSchema, paymentMethodSchema } from './direct-debit.schemas';
import { described, named } from './named';
import { paymentInstructionSchema, unappliedPaymentSchema } from './payment-instruction.schemas';
import { paymentLinkSchema } from './payment-link.schemas';
import { productSchema } from './product.schemas';
import { subscriptionSchema } from './subscription.schemas';

/** What `enabledEvents` lists: event types, or `"*"` alone (the core checks the combination). */
const enabledEvents: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  items: named('EnabledEvent', { type: 'string', enum: ['*', ...EVENT_TYPES], description: 'An event type, or `*` (alone) for every type' }),
};
const url: JsonSchema = {
  type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH,
  description: 'http(s) without credentials, not resolving to a loopback, private, link-local or metadata address; https in production',
};
const description: JsonSchema = { type: ['string', 'null'], maxLength: 500 };

export const createWebhookEndpointBody: JsonSchema = named('CreateWebhookEndpointRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'enabledEvents'],
  properties: { url, enabledEvents, description, ...companyCodeProperty },
  examples: [{ url: 'https://hooks.example.mx/collections', enabledEvents: ['debt.paid', 'debt.overdue'], description: 'ERP sync' }],
});

/** PATCH /webhook-endpoints/{id}: url, enabledEvents, enabled, description; at least one. */
export const updateWebhookEndpointBody: JsonSchema = named('UpdateWebhookEndpointRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one field; enabled false cancels the pending deliveries.',
  properties: { url, enabledEvents, enabled: { type: 'boolean' }, description, ...companyCodeProperty },
  examples: [{ enabledEvents: ['*'] }],
});

/** POST /webhook-endpoints/{id}/rotate-secret: the grace period of the replaced secret (optional). */
export const rotateWebhookEndpointSecretBody: JsonSchema = named('RotateWebhookEndpointSecretRequest', {
  type: 'object',
  additionalProperties: false,
  properties: {
    expiresInHours: {
      type: 'integer',
      minimum: 0,
      maximum: MAX_SECRET_GRACE_HOURS,
      default: DEFAULT_SECRET_GRACE_HOURS,
      description: `Hours the replaced secret keeps signing beside the new one (a second v1 in X-Signature); 0 stops it at once. Default ${DEFAULT_SECRET_GRACE_HOURS}, at most ${MAX_SECRET_GRACE_HOURS}`,
    },
    ...companyCodeProperty,
  },
  examples: [{ expiresInHours: 24 }],
});

export const listWebhookEndpointsQuery: JsonSchema = { type: 'object', properties: { ...pageQueryProperties } };

const webhookEndpointProperties = {
  webhookEndpointId: { type: 'string', pattern: '^whe_[A-Za-z0-9]+$', description: '`whe_` + alphanumeric; paths also accept it without the prefix' },
  url: { type: 'string' },
  enabledEvents: { type: 'array', items: { type: 'string' } },
  enabled: { type: 'boolean' },
  description: { type: ['string', 'null'] },
  createdAt: dateTimeSchema,
  updatedAt: dateTimeSchema,
};
const webhookEndpointRequired = ['webhookEndpointId', 'url', 'enabledEvents', 'enabled', 'description', 'createdAt', 'updatedAt'];
const webhookEndpointExample = {
  webhookEndpointId: 'whe_5Hs2Kq8ZrW3n', url: 'https://hooks.example.mx/collections', enabledEvents: ['debt.paid', 'debt.overdue'], enabled: true,
  description: 'ERP sync', createdAt: '2026-11-25T16:04:05.123Z', updatedAt: '2026-11-25T16:04:05.123Z',
};

export const webhookEndpointSchema: JsonSchema = named('WebhookEndpoint', {
  type: 'object',
  required: webhookEndpointRequired,
  properties: webhookEndpointProperties,
  examples: [webhookEndpointExample],
});

/** The creation answer: the only one with the signing secret. */
export const webhookEndpointWithSecretSchema: JsonSchema = named('WebhookEndpointWithSecret', {
  type: 'object',
  required: [...webhookEndpointRequired, 'secret'],
  properties: {
    ...webhookEndpointProperties,
    secret: { type: 'string', pattern: '^whsec_', description: 'whsec_…: signs every delivery. Shown only in this answer: store it now' },
  },
  examples: [{ ...webhookEndpointExample, secret: 'whsec_0d5c3f1e9a7b4c2d8e6f0a1b3c5d7e9f' }],
});

export const deletedWebhookEndpointSchema: JsonSchema = named('DeletedWebhookEndpoint', {
  type: 'object',
  required: [...webhookEndpointRequired, 'deleted'],
  properties: { ...webhookEndpointProperties, deleted: { type: 'boolean', const: true } },
  examples: [{ ...webhookEndpointExample, deleted: true }],
});

/** The rotation answer: the endpoint with its new secret (shown only here) and the end of the old one's grace period. */
export const rotatedWebhookEndpointSchema: JsonSchema = named('RotatedWebhookEndpoint', {
  type: 'object',
  required: [...webhookEndpointRequired, 'secret', 'previousSecretExpiresAt'],
  properties: {
    ...webhookEndpointProperties,
    secret: { type: 'string', pattern: '^whsec_', description: 'The new signing secret, shown only in this answer: store it now' },
    previousSecretExpiresAt: {
      ...dateTimeSchema,
      type: ['string', 'null'],
      description: 'Until when the replaced secret also signs (real time, not the sandbox clock); null when it stopped at once',
    },
  },
  examples: [{ ...webhookEndpointExample, secret: 'whsec_7e1a9c3b5d2f4e6a8b0c1d3e5f7a9b2c', previousSecretExpiresAt: '2026-11-26T16:04:05.123Z' }],
});

const attemptError = { type: ['string', 'null'], enum: [...ATTEMPT_ERRORS, null] };

/** What POST /webhook-endpoints/{id}/test did: one send, written nowhere, never retried. */
export const webhookTestResultSchema: JsonSchema = named('WebhookTestResult', {
  type: 'object',
  required: ['eventId', 'type', 'webhookEndpointId', 'delivered', 'statusCode', 'durationMs', 'error'],
  properties: {
    eventId: { type: 'string', pattern: '^evt_[A-Za-z0-9]+$', description: "The test event's id (not in GET /events)" },
    type: { type: 'string', enum: [WEBHOOK_TEST_EVENT_TYPE] },
    webhookEndpointId: { type: 'string', pattern: '^whe_[A-Za-z0-9]+$' },
    delivered: { type: 'boolean', description: 'A 2xx came within 10 s' },
    statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when none came" },
    durationMs: { type: 'integer', minimum: 0 },
    error: { ...attemptError, description: 'The class of the failure (http_status, timeout, connection_refused, connection_error, dns_error, tls_error, blocked_address); null when delivered' },
  },
  examples: [{ eventId: 'evt_9Lm3Qx7RtW2kZp5VbN8sYd4c', type: WEBHOOK_TEST_EVENT_TYPE, webhookEndpointId: 'whe_5Hs2Kq8ZrW3n', delivered: true, statusCode: 200, durationMs: 84, error: null }],
});

/** The `webhook.test` event POST /webhook-endpoints/{id}/test sends: data.object is the endpoint. */
export const webhookTestEventSchema: JsonSchema = named('WebhookTestEvent', {
  type: 'object',
  required: ['eventId', 'type', 'createdAt', 'companyCode', 'data', 'requestId'],
  properties: {
    eventId: { type: 'string', pattern: '^evt_[A-Za-z0-9]+$' },
    type: { type: 'string', enum: [WEBHOOK_TEST_EVENT_TYPE] },
    createdAt: dateTimeSchema,
    companyCode: { type: 'string' },
    data: { type: 'object', required: ['object'], properties: { object: described(webhookEndpointSchema, 'The endpoint as GET returns it') } },
    requestId: { ...requestIdSchema, type: ['string', 'null'], description: 'The request that asked for the test' },
  },
  examples: [{
    eventId: 'evt_9Lm3Qx7RtW2kZp5VbN8sYd4c', type: WEBHOOK_TEST_EVENT_TYPE, createdAt: '2026-11-25T16:04:05.123Z', companyCode: 'ACME',
    data: { object: webhookEndpointExample }, requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d',
  }],
});

export const listEventsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    type: { type: 'string', enum: [...EVENT_TYPES], description: 'One event type' },
    resourceId: { type: 'string', minLength: 1, maxLength: 200, description: 'The public id of the resource (debtId, paymentLinkId…)' },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40, description: 'From this instant (RFC 3339), or from the start of this UTC day' },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40, description: 'Up to this instant (RFC 3339), or up to the end of this UTC day' },
  },
};

export const redeliverEventBody: JsonSchema = named('RedeliverEventRequest', {
  type: 'object',
  additionalProperties: false,
  description: 'Empty: every endpoint the event was delivered to (or that subscribes to it now); or one endpoint.',
  properties: { webhookEndpointId: { type: 'string', minLength: 1, maxLength: 40 }, ...companyCodeProperty },
  examples: [{ webhookEndpointId: 'whe_5Hs2Kq8ZrW3n' }],
});

/** The resource each family of event types carries in `data.object`, as GET returns it. */
export const EVENT_SUBJECTS = [
  { name: 'Debt', prefix: 'debt.', object: debtSchema },
  { name: 'PaymentLink', prefix: 'payment_link.', object: paymentLinkSchema },
  { name: 'PaymentInstruction', prefix: 'payment_instruction.', object: paymentInstructionSchema },
  { name: 'UnappliedPayment', prefix: 'unapplied_payment.', object: unappliedPaymentSchema },
  { name: 'Subscription', prefix: 'subscription.', object: subscriptionSchema },
  { name: 'Contact', prefix: 'contact.', object: contactSchema },
  { name: 'Product', prefix: 'product.', object: productSchema },
  { name: 'Adhesion', prefix: 'adhesion.', object: adhesionSchema },
  { name: 'PaymentMethod', prefix: 'payment_method.', object: paymentMethodSchema },
  { name: 'DirectDebit', prefix: 'direct_debit.', object: debitAttemptSchema },
  { name: 'Reminder', prefix: 'reminder.', object: reminderSchema },
] as const;

export const eventTypesOf = (prefix: string) => EVENT_TYPES.filter((type) => type.startsWith(prefix));

const deliveriesSchema: JsonSchema = {
  type: 'array',
  description: 'The delivery to each webhook endpoint, with every attempt',
  items: named('EventDelivery', {
    type: 'object',
    required: ['webhookEndpointId', 'url', 'status', 'nextAttemptAt', 'attempts'],
    properties: {
      webhookEndpointId: { type: 'string' },
      url: { type: 'string' },
      status: { type: 'string', enum: [...DELIVERY_STATUSES] },
      nextAttemptAt: { ...dateTimeSchema, type: ['string', 'null'], description: 'When PENDING: the next attempt' },
      attempts: {
        type: 'array',
        items: named('DeliveryAttempt', {
          type: 'object',
          required: ['attempt', 'attemptedAt', 'statusCode', 'error', 'durationMs', 'succeeded'],
          properties: {
            attempt: { type: 'integer', minimum: 1 },
            attemptedAt: dateTimeSchema,
            statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when none came" },
            error: { ...attemptError, description: 'Why the attempt failed, as a class (never the transport message); null when it succeeded' },
            durationMs: { type: 'integer', minimum: 0 },
            succeeded: { type: 'boolean' },
          },
        }),
      },
    },
  }),
};

/** One schema per family: `type` names its types and `data.object` is that resource (so the pair is typed). */
function eventVariant(subject: (typeof EVENT_SUBJECTS)[number], detail: boolean): JsonSchema {
  const example = (subject.object.examples as unknown[] | undefined)?.[0];
  const type = eventTypesOf(subject.prefix)[0]!;
  return named(`${subject.name}Event${detail ? 'Detail' : ''}`, {
    type: 'object',
    required: ['eventId', 'type', 'createdAt', 'companyCode', 'data', 'requestId', ...(detail ? ['deliveries'] : [])],
    properties: {
      eventId: { type: 'string', pattern: '^evt_[A-Za-z0-9]+$', description: 'Unique: receivers deduplicate on it' },
      type: { type: 'string', enum: eventTypesOf(subject.prefix) },
      createdAt: { ...dateTimeSchema, description: 'When the change happened' },
      companyCode: { type: 'string' },
      data: {
        type: 'object',
        required: ['object'],
        properties: { object: described(subject.object, `The ${subject.name === 'DirectDebit' ? 'direct-debit attempt' : 'resource'} as GET returns it, at the instant of the change`) },
      },
      requestId: { ...requestIdSchema, type: ['string', 'null'], description: 'The request that caused the change; null for changes the workers made' },
      ...(detail ? { deliveries: deliveriesSchema } : {}),
    },
    examples: [{
      eventId: 'evt_4Nq8Rz2LkW7xTm3VbY9sPd1c', type, createdAt: '2026-11-25T16:04:05.123Z', companyCode: 'ACME', data: { object: example },
      requestId: 'req_8QmZk2VbX1sN4pL7rT0yWc3d', ...(detail ? { deliveries: [] } : {}),
    }],
  });
}

export const eventVariants = EVENT_SUBJECTS.map((subject) => eventVariant(subject, false));

export const eventSchema: JsonSchema = named('Event', {
  oneOf: eventVariants,
  description: 'A state change: `{ eventId, type, createdAt, companyCode, data: { object }, requestId }`, written with the change itself.',
});

export const eventDetailSchema: JsonSchema = named('EventDetail', {
  oneOf: EVENT_SUBJECTS.map((subject) => eventVariant(subject, true)),
  description: 'An event with its delivery to each webhook endpoint.',
});
