import { PAYMENT_LINK_STATUSES } from '../../../internal/payment-links/payment-link';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, nonBlankString, pageQueryProperties } from './common.schemas';
import { contactDataSchema } from './contact.schemas';
import { additionalDataSchema, amountSchema, currencySchema, externalRequestIdSchema } from './debt.schemas';
import { DEBT_STATUSES } from '../../../internal/debts/debt';
import { described, named, nullable } from './named';
import { embeddedProductSchema } from './product.schemas';

/** RFC 3339 with `T`, seconds and a zone (`Z` or an offset): a bare date or `YYYY-MM-DD HH:mm` is 400. */
export const zonedDateTimeSchema: JsonSchema = { type: 'string', format: 'zoned-date-time', description: 'RFC 3339 with seconds and a zone (Z or an offset)' };

/** A flat object of scalars (metadata has no reserved keys). */
const metadataSchema: JsonSchema = named('Metadata', {
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 100 },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 1000 },
  description: 'Your own flat object of string, number, boolean or null values (at most 50)',
});

export const createPaymentLinkBody: JsonSchema = named('CreatePaymentLinkRequest', {
  type: 'object',
  required: ['amount', 'description', 'expiresAt'],
  description: 'A link and its associated debt. The debtor is optional: externalClientId or contactData, not both.',
  properties: {
    amount: amountSchema,
    description: nonBlankString(500),
    expiresAt: { ...zonedDateTimeSchema, description: 'RFC 3339 with seconds and a zone; the associated debt is due on its UTC date' },
    currency: currencySchema,
    externalPaymentLinkId: { ...externalRequestIdSchema, description: 'The idempotency key of the link (else the Idempotency-Key header); a repeated key is 409' },
    singleUse: { type: 'boolean', description: 'Default true: the first payment completes the link; false: it takes many payments' },
    successUrl: { type: 'string', format: 'uri', pattern: '^https?://', maxLength: 2000, description: 'Where the payer lands after paying' },
    metadata: metadataSchema,
    identifierValue: { type: 'string', maxLength: 256, description: 'The public identifier of the link in its URL (rules 1-4 of the specification)' },
    externalClientId: nonBlankString(100),
    contactData: contactDataSchema(false),
    productName: { ...nonBlankString(200), description: 'A product by name, created when new' },
    additionalData: additionalDataSchema,
    ...companyCodeProperty,
  },
  examples: [{
    amount: 499, description: 'Annual membership', expiresAt: '2026-12-31T23:59:59Z', currency: 'MXN', externalPaymentLinkId: 'membership-2027-0042',
    singleUse: true, successUrl: 'https://shop.example.mx/thanks', metadata: { campaign: 'winter' },
  }],
});

/** PATCH: description, expiresAt, metadata only; at least one; none may be null. */
export const updatePaymentLinkBody: JsonSchema = named('UpdatePaymentLinkRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one field; checked after the link is found ACTIVE.',
  properties: {
    description: nonBlankString(500),
    expiresAt: zonedDateTimeSchema,
    metadata: metadataSchema,
    ...companyCodeProperty,
  },
  examples: [{ expiresAt: '2027-01-15T23:59:59Z' }],
});

export const payPaymentLinkBody: JsonSchema = named('PayPaymentLinkRequest', {
  type: 'object',
  additionalProperties: false,
  properties: { amount: { ...amountSchema, description: 'Default: the link amount' }, ...companyCodeProperty },
  examples: [{ amount: 499 }],
});

export const listPaymentLinksQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...PAYMENT_LINK_STATUSES], description: 'The effective status (an ACTIVE link past expiresAt is EXPIRED)' },
    externalPaymentLinkId: { type: 'string', minLength: 1, maxLength: 150, description: 'Exact' },
    debtId: { type: 'string', minLength: 1, maxLength: 200, description: 'The link whose associated debt this is' },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40, description: 'From this instant (RFC 3339)' },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40, description: 'Up to this instant (RFC 3339)' },
  },
};

export const paymentLinkSchema: JsonSchema = named('PaymentLink', {
  type: 'object',
  description: 'A shareable payment URL with its associated debt. Every field is present; the optional ones are null when empty.',
  required: [
    'paymentLinkId', 'externalPaymentLinkId', 'debtId', 'status', 'amount', 'currency', 'description', 'singleUse', 'expiresAt', 'successUrl',
    'metadata', 'paymentUrl', 'identifierValue', 'contact', 'product', 'createdAt',
  ],
  properties: {
    paymentLinkId: { type: 'string', pattern: '^plk_[A-Za-z0-9]+$' },
    externalPaymentLinkId: { type: ['string', 'null'], description: 'The idempotency key; null when the link was created without one' },
    debtId: { type: 'string', description: 'The associated debt' },
    status: { type: 'string', enum: [...PAYMENT_LINK_STATUSES], description: 'Effective status: an ACTIVE link past expiresAt reads EXPIRED' },
    amount: { type: 'number' },
    currency: currencySchema,
    description: { type: 'string' },
    singleUse: { type: 'boolean' },
    expiresAt: { ...dateTimeSchema, type: ['string', 'null'] },
    successUrl: { type: ['string', 'null'] },
    metadata: nullable(metadataSchema),
    paymentUrl: { type: ['string', 'null'], description: 'Opaque URL to share as is; null only when the portal integration fails' },
    identifierValue: { type: ['string', 'null'] },
    contact: { type: 'null', description: 'Always null in this version' },
    product: described(nullable(embeddedProductSchema), 'The product, when one was named'),
    createdAt: dateTimeSchema,
  },
  examples: [{
    paymentLinkId: 'plk_6Rn4Tz8WqL3k', externalPaymentLinkId: 'membership-2027-0042', debtId: 'debt_plk_6Rn4Tz8WqL3k', status: 'ACTIVE', amount: 499,
    currency: 'MXN', description: 'Annual membership', singleUse: true, expiresAt: '2026-12-31T23:59:59.000Z', successUrl: 'https://shop.example.mx/thanks',
    metadata: { campaign: 'winter' }, paymentUrl: 'https://api.collections.example/l/q8ZtR2mVx7LpK4sW', identifierValue: null, contact: null, product: null,
    createdAt: '2026-11-25T16:04:05.123Z',
  }],
});

export const linkPaymentSchema: JsonSchema = named('PaymentLinkPayment', {
  type: 'object',
  required: ['paymentId', 'status', 'amount', 'amountPaid', 'currency', 'createdAt'],
  description: 'A payment record of a link: one of its associated debts.',
  properties: {
    paymentId: { type: 'string' },
    status: { type: 'string', enum: [...DEBT_STATUSES] },
    amount: { type: 'number' },
    amountPaid: { type: 'number' },
    currency: currencySchema,
    createdAt: dateTimeSchema,
  },
  examples: [{ paymentId: 'debt_1042', status: 'PAID', amount: 499, amountPaid: 499, currency: 'MXN', createdAt: '2026-11-25T16:04:05.123Z' }],
});
