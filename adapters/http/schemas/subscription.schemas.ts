import { PAYMENT_METHODS } from '../../../internal/debts/debt';
import { INTERVAL_UNITS } from '../../../internal/subscriptions/schedule';
import { SUBSCRIPTION_STATUSES } from '../../../internal/subscriptions/subscription';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, nonBlankString, pageQueryProperties } from './common.schemas';
import { additionalDataSchema, amountSchema, calendarDateSchema, currencySchema } from './debt.schemas';
import { contactDataSchema } from './contact.schemas';

const paymentMethods: JsonSchema = { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...PAYMENT_METHODS] } };

/** POST /subscriptions: shapes here; the schedule rules (ranges, exclusivity) in the domain. */
export const createSubscriptionBody: JsonSchema = {
  type: 'object',
  required: ['externalSubscriptionId', 'amount', 'intervalUnit', 'intervalCount', 'startDate', 'productName'],
  properties: {
    externalSubscriptionId: { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$' },
    externalClientId: nonBlankString(100),
    contactData: contactDataSchema(false),
    amount: amountSchema,
    currency: currencySchema,
    intervalUnit: { type: 'string', enum: [...INTERVAL_UNITS] },
    intervalCount: { type: 'integer', minimum: 1, maximum: 1000 },
    startDate: calendarDateSchema,
    productName: nonBlankString(200),
    totalCycles: { type: 'integer' },
    endDate: calendarDateSchema,
    billingDay: {
      type: 'object',
      required: ['day'],
      additionalProperties: false,
      properties: { day: { type: 'integer' }, month: { type: 'integer' } },
    },
    enforcePaymentOrder: { type: 'boolean' },
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    autopay: { type: 'boolean' },
    paymentMethods,
    description: { type: 'string', maxLength: 500 },
    additionalData: additionalDataSchema,
  },
};

/** PATCH /subscriptions/{id}: these fields only, at least one. */
export const updateSubscriptionBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: {
    amount: amountSchema,
    description: { type: 'string', maxLength: 500 },
    enforcePaymentOrder: { type: 'boolean' },
    allowOverduePayment: { type: 'boolean' },
    autopay: { type: 'boolean' },
    paymentMethods,
    additionalData: additionalDataSchema,
  },
};

export const listSubscriptionsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES] },
    externalClientId: nonBlankString(100),
  },
};

export const subscriptionSchema: JsonSchema = {
  type: 'object',
  properties: {
    subscriptionId: { type: 'string' },
    externalSubscriptionId: { type: 'string' },
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES] },
    scheduling: { type: 'object' },
    externalClientId: { type: 'string' },
    amount: { type: 'number' },
    currency: currencySchema,
    paymentUrl: { type: 'string' },
    enforcePaymentOrder: { type: 'boolean' },
    autopay: { type: 'boolean' },
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    paymentMethods: { type: 'array', items: { type: 'string' } },
    description: { type: 'string' },
    additionalData: { type: 'object' },
    contact: { type: 'object' },
    product: { type: 'object' },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
};
