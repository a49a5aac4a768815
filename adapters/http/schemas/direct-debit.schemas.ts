import { ADHESION_STATUSES } from '../../../internal/direct-debit/adhesion';
import { PAYMENT_METHOD_STATUSES, PAYMENT_METHOD_TYPES } from '../../../internal/direct-debit/payment-method';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, forbiddenCharsString } from './common.schemas';

/** The user of direct debit, as registered at enrollment: no quote, backslash or `;`. */
const paymentMethodClient = forbiddenCharsString(100);

export const listPaymentMethodsQuery: JsonSchema = {
  type: 'object',
  required: ['externalClientId'],
  properties: { externalClientId: paymentMethodClient },
};

/** POST /test-helpers/payment-methods: what the hosted enrollment page does (decisions.md section 4). */
export const registerPaymentMethodBody: JsonSchema = {
  type: 'object',
  required: ['externalClientId', 'paymentMethodType'],
  additionalProperties: false,
  properties: {
    externalClientId: paymentMethodClient,
    paymentMethodType: { type: 'string', enum: [...PAYMENT_METHOD_TYPES] },
    isDefault: { type: 'boolean' },
  },
};

/** POST /adhesions and /adhesions/cancel: any other field is a 400 naming it. */
export const adhesionBody: JsonSchema = {
  type: 'object',
  required: ['externalClientId'],
  additionalProperties: false,
  properties: {
    externalClientId: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'letters, digits, _ and -, 1 to 100' },
    productId: { type: 'string', pattern: '^prd_[1-9][0-9]{0,14}$' },
    externalProductId: forbiddenCharsString(200),
  },
};

export const paymentMethodSchema: JsonSchema = {
  type: 'object',
  properties: {
    paymentMethodId: { type: 'string' },
    paymentMethodType: { type: 'string', enum: [...PAYMENT_METHOD_TYPES] },
    isDefault: { type: 'boolean' },
    status: { type: 'string', enum: [...PAYMENT_METHOD_STATUSES] },
    maskedReference: { type: 'string' },
    createdAt: dateTimeSchema,
  },
};

export const adhesionSchema: JsonSchema = {
  type: 'object',
  properties: {
    adhesionId: { type: 'string' },
    externalClientId: { type: 'string' },
    product: { type: 'object' },
    status: { type: 'string', enum: [...ADHESION_STATUSES] },
    createdAt: dateTimeSchema,
    updatedAt: dateTimeSchema,
  },
};
