import { EVENT_TYPES } from '../../../internal/events/event-type';
import { DELIVERY_STATUSES } from '../../../internal/webhooks/delivery';
import { ATTEMPT_ERRORS } from '../../../internal/webhooks/attempt-error';
import { DEFAULT_SECRET_GRACE_HOURS, MAX_SECRET_GRACE_HOURS } from '../../../internal/webhooks/secret-rotation';
import { MAX_URL_LENGTH, WEBHOOK_TEST_EVENT_TYPE } from '../../../internal/webhooks/webhook-endpoint';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, pageQueryProperties } from './common.schemas';

/** What `enabledEvents` lists: event types, or `"*"` alone (the core checks the combination). */
const enabledEvents: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: EVENT_TYPES.length,
  items: { type: 'string', enum: ['*', ...EVENT_TYPES] },
};
const url: JsonSchema = { type: 'string', minLength: 1, maxLength: MAX_URL_LENGTH };
const description: JsonSchema = { type: ['string', 'null'], maxLength: 500 };

export const createWebhookEndpointBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['url', 'enabledEvents'],
  properties: { url, enabledEvents, description },
};

/** PATCH /webhook-endpoints/{id}: url, enabledEvents, enabled, description; at least one. */
export const updateWebhookEndpointBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { url, enabledEvents, enabled: { type: 'boolean' }, description },
};

/** POST /webhook-endpoints/{id}/rotate-secret: the grace period of the replaced secret (optional). */
export const rotateWebhookEndpointSecretBody: JsonSchema = {
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
  },
};

export const listWebhookEndpointsQuery: JsonSchema = { type: 'object', properties: { ...pageQueryProperties } };

export const webhookEndpointSchema: JsonSchema = {
  type: 'object',
  properties: {
    webhookEndpointId: { type: 'string', pattern: '^whe_[A-Za-z0-9]+$' },
    url: { type: 'string' },
    enabledEvents: { type: 'array', items: { type: 'string' } },
    enabled: { type: 'boolean' },
    description: { type: ['string', 'null'] },
    secret: { type: 'string', description: 'Only in the creation answer: whsec_… signs every delivery' },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
};

/** The rotation answer: the endpoint with its new secret (shown only here) and the end of the old one's grace period. */
export const rotatedWebhookEndpointSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(webhookEndpointSchema.properties as Record<string, unknown>),
    secret: { type: 'string', description: 'The new signing secret (whsec_…), shown only in this answer' },
    previousSecretExpiresAt: {
      ...dateTimeSchema,
      type: ['string', 'null'],
      description: 'Until when the replaced secret also signs (real time, not the sandbox clock); null when it stopped at once',
    },
  },
};

/** What POST /webhook-endpoints/{id}/test did: one send, written nowhere, never retried. */
export const webhookTestResultSchema: JsonSchema = {
  type: 'object',
  properties: {
    eventId: { type: 'string', pattern: '^evt_[A-Za-z0-9]+$', description: 'The test event\'s id (not in GET /events)' },
    type: { type: 'string', enum: [WEBHOOK_TEST_EVENT_TYPE] },
    webhookEndpointId: { type: 'string', pattern: '^whe_[A-Za-z0-9]+$' },
    delivered: { type: 'boolean', description: 'A 2xx came within 10 s' },
    statusCode: { type: ['integer', 'null'], description: "The receiver's status; null when none came" },
    durationMs: { type: 'integer' },
    error: { type: ['string', 'null'], enum: [...ATTEMPT_ERRORS, null], description: 'The class of the failure; null when delivered' },
  },
};

export const listEventsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    type: { type: 'string', enum: [...EVENT_TYPES] },
    resourceId: { type: 'string', minLength: 1, maxLength: 200 },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40 },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40 },
  },
};

export const redeliverEventBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { webhookEndpointId: { type: 'string', minLength: 1, maxLength: 40 } },
};

export const eventSchema: JsonSchema = {
  type: 'object',
  properties: {
    eventId: { type: 'string', pattern: '^evt_[A-Za-z0-9]+$' },
    type: { type: 'string', enum: [...EVENT_TYPES] },
    createdAt: dateTimeSchema,
    companyCode: { type: 'string' },
    data: { type: 'object', properties: { object: { type: 'object', description: 'The resource as GET returns it, at the instant of the change' } } },
    requestId: { type: ['string', 'null'] },
  },
};

export const eventDetailSchema: JsonSchema = {
  type: 'object',
  properties: {
    ...(eventSchema.properties as Record<string, unknown>),
    deliveries: {
      type: 'array',
      items: {
        type: 'object',
        properties: {
          webhookEndpointId: { type: 'string' },
          url: { type: 'string' },
          status: { type: 'string', enum: [...DELIVERY_STATUSES] },
          nextAttemptAt: { ...dateTimeSchema, type: ['string', 'null'] },
          attempts: {
            type: 'array',
            items: {
              type: 'object',
              properties: {
                attempt: { type: 'integer' },
                attemptedAt: dateTimeSchema,
                statusCode: { type: ['integer', 'null'] },
                error: { type: ['string', 'null'], enum: [...ATTEMPT_ERRORS, null], description: 'The class of the failure (never a transport message); null when it succeeded' },
                durationMs: { type: 'integer' },
                succeeded: { type: 'boolean' },
              },
            },
          },
        },
      },
    },
  },
};
