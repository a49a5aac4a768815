import { ADHESION_STATUSES } from '../../../internal/direct-debit/adhesion';
import { DEBIT_ATTEMPT_STATUSES } from '../../../internal/direct-debit/debit-attempt';
import { DEBIT_FAILURE_CODES } from '../../../internal/direct-debit/dunning';
import { PAYMENT_METHOD_STATUSES, PAYMENT_METHOD_TYPES } from '../../../internal/direct-debit/payment-method';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, forbiddenCharsString } from './common.schemas';
import { named } from './named';
import { adhesionProductSchema } from './product.schemas';

/** The user of direct debit, as registered at enrollment: no quote, backslash or `;`. */
const paymentMethodClient = { ...forbiddenCharsString(100), description: "The user, as registered at enrollment; must not contain ' \" \\ or ;" };

export const listPaymentMethodsQuery: JsonSchema = {
  type: 'object',
  required: ['externalClientId'],
  properties: { externalClientId: paymentMethodClient },
};

/** POST /test-helpers/payment-methods: what the hosted enrollment page does (decisions.md section 4). */
export const registerPaymentMethodBody: JsonSchema = named('RegisterPaymentMethodRequest', {
  type: 'object',
  required: ['externalClientId', 'paymentMethodType'],
  additionalProperties: false,
  properties: {
    externalClientId: paymentMethodClient,
    paymentMethodType: { type: 'string', enum: [...PAYMENT_METHOD_TYPES] },
    isDefault: { type: 'boolean', description: "Make it the user's default (the first one always is)" },
    ...companyCodeProperty,
  },
  examples: [{ externalClientId: 'client-0001', paymentMethodType: 'BANK_ACCOUNT', isDefault: true }],
});

/** POST /adhesions and /adhesions/cancel: any other field is a 400 naming it. */
export const adhesionBody: JsonSchema = named('AdhesionRequest', {
  type: 'object',
  required: ['externalClientId'],
  additionalProperties: false,
  description: 'The user and exactly one of productId or externalProductId.',
  properties: {
    externalClientId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'letters, digits, _ and -, 1 to 100' },
    productId: { type: 'string', pattern: '^prd_[1-9][0-9]{0,14}$' },
    externalProductId: forbiddenCharsString(200),
    ...companyCodeProperty,
  },
  examples: [{ externalClientId: 'client-0001', productId: 'prd_12' }],
});

export const paymentMethodSchema: JsonSchema = named('PaymentMethodReference', {
  type: 'object',
  required: ['paymentMethodId', 'paymentMethodType', 'isDefault', 'status', 'createdAt'],
  description: 'A payment method a user registered on the hosted enrollment page (never the card or account number itself).',
  properties: {
    paymentMethodId: { type: 'string', pattern: '^pm_[A-Za-z0-9]+$' },
    paymentMethodType: { type: 'string', enum: [...PAYMENT_METHOD_TYPES] },
    isDefault: { type: 'boolean' },
    status: { type: 'string', enum: [...PAYMENT_METHOD_STATUSES] },
    maskedReference: { type: 'string', description: 'The kind and last four digits (`CLABE •••• 4321`, `VISA •••• 4242`), when the enrollment page registered them' },
    createdAt: dateTimeSchema,
  },
  examples: [{ paymentMethodId: 'pm_7Lq2Xv9KsT4w', paymentMethodType: 'BANK_ACCOUNT', isDefault: true, status: 'ACTIVE', maskedReference: 'CLABE •••• 4321', createdAt: '2026-11-25T16:04:05.123Z' }],
});

export const adhesionSchema: JsonSchema = named('Adhesion', {
  type: 'object',
  required: ['adhesionId', 'externalClientId', 'product', 'status', 'createdAt', 'updatedAt'],
  description: "A user's enrollment in automatic collection for one product.",
  properties: {
    adhesionId: { type: 'string', pattern: '^adh_[A-Za-z0-9]+$' },
    externalClientId: { type: 'string' },
    product: adhesionProductSchema,
    status: { type: 'string', enum: [...ADHESION_STATUSES] },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
  examples: [{
    adhesionId: 'adh_2Wm8Rt5YpQ1z', externalClientId: 'client-0001', product: { productId: 'prd_12', name: 'Tuition', active: true },
    status: 'ACTIVE', createdAt: '2026-11-25T16:04:05.123Z', updatedAt: '2026-11-25T16:04:05.123Z',
  }],
});

/** What direct_debit.* events carry. */
export const debitAttemptSchema: JsonSchema = named('DirectDebitAttempt', {
  type: 'object',
  required: [
    'debitAttemptId', 'debtId', 'attemptNumber', 'paymentMethodId', 'paymentMethodStatus', 'amount', 'currency', 'status', 'failureCode',
    'nextAttemptOn', 'createdAt', 'completedAt',
  ],
  description: 'One attempt to collect a debt from its default payment method.',
  properties: {
    debitAttemptId: { type: 'string', pattern: '^dda_[A-Za-z0-9]+$' },
    debtId: { type: 'string' },
    attemptNumber: { type: 'integer', minimum: 1, description: '1 on the due date, 2 and later for the dunning retries' },
    paymentMethodId: { type: 'string' },
    paymentMethodStatus: { type: 'string', enum: [...PAYMENT_METHOD_STATUSES], description: 'INACTIVE once ACCOUNT_CLOSED ended it' },
    amount: { type: 'number' },
    currency: { type: 'string' },
    status: { type: 'string', enum: [...DEBIT_ATTEMPT_STATUSES] },
    failureCode: { type: ['string', 'null'], enum: [...DEBIT_FAILURE_CODES, null] },
    nextAttemptOn: { type: ['string', 'null'], format: 'date', description: 'The UTC date of the retry a refusal scheduled; null when the refusal is final, and on other events' },
    createdAt: dateTimeSchema,
    completedAt: { ...dateTimeSchema, type: ['string', 'null'] },
  },
  examples: [{
    debitAttemptId: 'dda_9Kd3Lx7VqP2m', debtId: 'debt_inv-2026-0001', attemptNumber: 1, paymentMethodId: 'pm_7Lq2Xv9KsT4w', paymentMethodStatus: 'ACTIVE',
    amount: 1250.5, currency: 'MXN', status: 'SUCCEEDED', failureCode: null, nextAttemptOn: null,
    createdAt: '2026-12-15T09:00:00.000Z', completedAt: '2026-12-15T09:00:02.000Z',
  }],
});
