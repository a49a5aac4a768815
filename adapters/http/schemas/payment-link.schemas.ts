import { PAYMENT_LINK_STATUSES } from '../../../internal/payment-links/payment-link';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, nonBlankString, pageQueryProperties } from './common.schemas';
import { contactDataSchema } from './contact.schemas';
import { additionalDataSchema, amountSchema, currencySchema, externalRequestIdSchema } from './debt.schemas';

/** RFC 3339 with `T`, seconds and a zone (`Z` or an offset): a bare date or `YYYY-MM-DD HH:mm` is 400. */
export const zonedDateTimeSchema: JsonSchema = { type: 'string', format: 'zoned-date-time' };

/** A flat object of scalars (metadata has no reserved keys). */
const metadataSchema: JsonSchema = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 100 },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 1000 },
};

export const createPaymentLinkBody: JsonSchema = {
  type: 'object',
  required: ['amount', 'description', 'expiresAt'],
  properties: {
    amount: amountSchema,
    description: nonBlankString(500),
    expiresAt: zonedDateTimeSchema,
    currency: currencySchema,
    externalPaymentLinkId: externalRequestIdSchema,
    singleUse: { type: 'boolean' },
    successUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000 },
    metadata: metadataSchema,
    identifierValue: { type: 'string', maxLength: 256 },
    externalClientId: nonBlankString(100),
    contactData: contactDataSchema(false),
    productName: nonBlankString(200),
    additionalData: additionalDataSchema,
  },
};

/** PATCH: description, expiresAt, metadata only; at least one; none may be null. */
export const updatePaymentLinkBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    description: nonBlankString(500),
    expiresAt: zonedDateTimeSchema,
    metadata: metadataSchema,
  },
};

export const payPaymentLinkBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { amount: amountSchema },
};

export const listPaymentLinksQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...PAYMENT_LINK_STATUSES] },
    externalPaymentLinkId: { type: 'string', minLength: 1, maxLength: 150 },
    debtId: { type: 'string', minLength: 1, maxLength: 200 },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40 },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40 },
  },
};

export const paymentLinkSchema: JsonSchema = {
  type: 'object',
  properties: {
    paymentLinkId: { type: 'string' },
    externalPaymentLinkId: { type: ['string', 'null'] },
    debtId: { type: 'string' },
    status: { type: 'string', enum: [...PAYMENT_LINK_STATUSES] },
    amount: { type: 'number' },
    currency: currencySchema,
    description: { type: 'string' },
    singleUse: { type: 'boolean' },
    expiresAt: { ...dateTimeSchema, type: ['string', 'null'] },
    successUrl: { type: ['string', 'null'] },
    metadata: { type: ['object', 'null'] },
    paymentUrl: { type: ['string', 'null'] },
    identifierValue: { type: ['string', 'null'] },
    contact: { type: 'null' },
    product: { type: ['object', 'null'] },
    createdAt: dateTimeSchema,
  },
};

export const linkPaymentSchema: JsonSchema = {
  type: 'object',
  properties: {
    paymentId: { type: 'string' },
    status: { type: 'string' },
    amount: { type: 'number' },
    amountPaid: { type: 'number' },
    currency: currencySchema,
    createdAt: dateTimeSchema,
  },
};
