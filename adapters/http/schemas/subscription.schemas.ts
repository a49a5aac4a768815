import { INTERVAL_UNITS } from '../../../internal/subscriptions/schedule';
import { SUBSCRIPTION_STATUSES } from '../../../internal/subscriptions/subscription';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, errorSchema, nonBlankString, pageQueryProperties, requestIdSchema } from './common.schemas';
import { additionalDataSchema, amountSchema, calendarDateSchema, currencySchema, paymentMethodsSchema } from './debt.schemas';
import { contactDataSchema, embeddedContactSchema } from './contact.schemas';
import { described, named } from './named';
import { embeddedProductSchema } from './product.schemas';

const intervalUnit = { type: 'string', enum: [...INTERVAL_UNITS] };

/** POST /subscriptions: shapes here; the schedule rules (ranges, exclusivity) in the domain. */
export const createSubscriptionBody: JsonSchema = named('CreateSubscriptionRequest', {
  type: 'object',
  required: ['externalSubscriptionId', 'amount', 'intervalUnit', 'intervalCount', 'startDate', 'productName'],
  description: 'A recurring charge: one debt per cycle, all generated upfront (asynchronously). Exactly one debtor: externalClientId or contactData; at most one of totalCycles or endDate.',
  properties: {
    externalSubscriptionId: {
      type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$', description: 'Your id, unique per organization (a repeat is 409); the cycles are <it>-cycle-<n>',
    },
    externalClientId: nonBlankString(100),
    contactData: contactDataSchema(false),
    amount: amountSchema,
    currency: currencySchema,
    intervalUnit,
    intervalCount: { type: 'integer', minimum: 1, maximum: 1000 },
    startDate: { ...calendarDateSchema, description: 'The first cycle\'s due date (YYYY-MM-DD)' },
    productName: { ...nonBlankString(200), description: 'A product by name, created when new' },
    totalCycles: { type: 'integer', description: 'How many cycles (or send endDate)' },
    endDate: { ...calendarDateSchema, description: 'No cycle after this date (or send totalCycles)' },
    billingDay: {
      type: 'object',
      required: ['day'],
      additionalProperties: false,
      description: 'The day of the month (and the month, for yearly intervals) each cycle is due; default: startDate\'s',
      properties: { day: { type: 'integer' }, month: { type: 'integer' } },
    },
    enforcePaymentOrder: { type: 'boolean', description: 'A cycle cannot be paid before the earlier ones' },
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    autopay: { type: 'boolean', description: 'Collect each cycle automatically (not with paymentMethods)' },
    paymentMethods: paymentMethodsSchema,
    description: { type: 'string', maxLength: 500 },
    additionalData: additionalDataSchema,
    ...companyCodeProperty,
  },
  examples: [{
    externalSubscriptionId: 'gym-2027-client-0001', externalClientId: 'client-0001', amount: 650, currency: 'MXN', intervalUnit: 'month',
    intervalCount: 1, startDate: '2027-01-05', totalCycles: 12, productName: 'Gym membership', allowPartialPayments: false,
  }],
});

/** PATCH /subscriptions/{id}: these fields only, at least one. */
export const updateSubscriptionBody: JsonSchema = named('UpdateSubscriptionRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one field; only amount also reaches the debts already generated (not paid or cancelled ones).',
  properties: {
    amount: amountSchema,
    description: { type: 'string', maxLength: 500 },
    enforcePaymentOrder: { type: 'boolean' },
    allowOverduePayment: { type: 'boolean' },
    autopay: { type: 'boolean' },
    paymentMethods: paymentMethodsSchema,
    additionalData: additionalDataSchema,
    ...companyCodeProperty,
  },
  examples: [{ amount: 700 }],
});

export const listSubscriptionsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES], description: 'The effective status (ENDED once past its last cycle)' },
    externalClientId: { ...nonBlankString(100), description: "The debtor's externalClientId" },
  },
};

export const schedulingSchema: JsonSchema = named('SubscriptionScheduling', {
  type: 'object',
  required: ['intervalUnit', 'intervalCount', 'startDate', 'totalCycles', 'endDate', 'billingDay'],
  properties: {
    intervalUnit,
    intervalCount: { type: 'integer' },
    startDate: calendarDateSchema,
    totalCycles: { type: ['integer', 'null'] },
    endDate: { ...calendarDateSchema, type: ['string', 'null'] },
    billingDay: {
      type: ['object', 'null'],
      required: ['day'],
      properties: { day: { type: 'integer' }, month: { type: 'integer' } },
      description: 'The effective billing day (inferred from startDate when not sent)',
    },
  },
});

export const subscriptionSchema: JsonSchema = named('Subscription', {
  type: 'object',
  description: 'A recurring charge. paymentMethods, description and additionalData appear only when set.',
  required: [
    'subscriptionId', 'externalSubscriptionId', 'status', 'scheduling', 'externalClientId', 'amount', 'currency', 'paymentUrl', 'enforcePaymentOrder',
    'autopay', 'allowOverduePayment', 'allowPartialPayments', 'contact', 'product', 'createdAt', 'updatedAt',
  ],
  properties: {
    subscriptionId: { type: 'string', pattern: '^sub_[A-Za-z0-9]+$', description: '`sub_` + alphanumeric; paths also accept it without the prefix' },
    externalSubscriptionId: { type: 'string' },
    status: { type: 'string', enum: [...SUBSCRIPTION_STATUSES] },
    scheduling: schedulingSchema,
    externalClientId: { type: 'string' },
    amount: { type: 'number' },
    currency: currencySchema,
    paymentUrl: { type: ['string', 'null'], description: 'Opaque URL of a page with every cycle; null only when the portal integration fails' },
    enforcePaymentOrder: { type: 'boolean' },
    autopay: { type: 'boolean' },
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    paymentMethods: described(paymentMethodsSchema, 'Only when set'),
    description: { type: 'string', description: 'Only when set' },
    additionalData: described(additionalDataSchema, 'Only when set'),
    contact: embeddedContactSchema,
    product: embeddedProductSchema,
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
  examples: [{
    subscriptionId: 'sub_3Jd8Qw2XnL5v', externalSubscriptionId: 'gym-2027-client-0001', status: 'ACTIVE',
    scheduling: { intervalUnit: 'month', intervalCount: 1, startDate: '2027-01-05', totalCycles: 12, endDate: null, billingDay: { day: 5 } },
    externalClientId: 'client-0001', amount: 650, currency: 'MXN',
    paymentUrl: 'https://api.collections.example/pay/ACME/subscriptions/sub_3Jd8Qw2XnL5v/Lw8pT3xR6kM2vQ9z',
    enforcePaymentOrder: false, autopay: false, allowOverduePayment: true, allowPartialPayments: false,
    contact: { contactId: 'con_4fT9kQ2mZ8xW', externalClientId: 'client-0001', createdInline: false },
    product: { productId: 'prd_14', name: 'Gym membership', active: true, createdInline: true },
    createdAt: '2026-11-25T16:04:05.123Z', updatedAt: '2026-11-25T16:04:05.123Z',
  }],
});

/** PATCH's 207: the subscription was updated, some of its generated debts were not. */
export const partialUpdateSchema: JsonSchema = named('SubscriptionPartialUpdate', {
  type: 'object',
  required: ['data', 'error', 'requestId'],
  properties: {
    data: subscriptionSchema,
    error: described(errorSchema, 'code PARTIAL_UPDATE; the message gives the number of debts not synced (no details)'),
    requestId: requestIdSchema,
  },
});
