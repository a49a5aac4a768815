import { DEBT_STATUSES, PAYMENT_METHODS } from '../../../internal/debts/debt';
import { CURRENCIES } from '../../../internal/shared/currency';
import type { JsonSchema } from '../validation';
import { dateTimeSchema, forbiddenCharsString, nonBlankString, pageQueryProperties } from './common.schemas';
import { contactDataSchema } from './contact.schemas';

/** Convention 9: keys a flat additionalData must not use. */
export const RESERVED_ADDITIONAL_DATA_KEYS = [
  'description', 'paymentMethods', 'productName', 'externalProductId', 'debtExpirationDate',
  'overduePayment', 'allowPartialPayments', 'recurringDebt', 'debtReference',
];

export const amountSchema: JsonSchema = { type: 'number', minimum: 0.01, maximum: 9_999_999_999.99, 'x-decimals': 2 };
export const calendarDateSchema: JsonSchema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
export const currencySchema: JsonSchema = { type: 'string', enum: [...CURRENCIES] };
export const externalRequestIdSchema: JsonSchema = { type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,149}$' };

/** Convention 9: a flat object of scalars, without the reserved keys. */
export const additionalDataSchema: JsonSchema = {
  type: 'object',
  maxProperties: 50,
  propertyNames: { maxLength: 100, not: { enum: RESERVED_ADDITIONAL_DATA_KEYS } },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 1000 },
};

const debtProperties = (strict: boolean) => ({
  externalClientId: nonBlankString(100),
  contactData: contactDataSchema(strict),
  amount: amountSchema,
  dueDate: calendarDateSchema,
  currency: currencySchema,
  description: { type: 'string', maxLength: 500 },
  productId: { type: 'string', pattern: '^prd_[1-9][0-9]{0,14}$' },
  externalProductId: forbiddenCharsString(200),
  allowPartialPayments: { type: 'boolean' },
  allowOverduePayment: { type: 'boolean' },
  additionalData: additionalDataSchema,
});

/** POST /v2/debts, one debt: every field outside this contract is a 400 naming it. */
export const v2DebtBody: JsonSchema = {
  type: 'object',
  required: ['amount', 'dueDate'],
  additionalProperties: false,
  properties: debtProperties(true),
};

/** POST /v2/debts, batch: `{ debts: [...] }` and nothing else; each item also names its externalRequestId. */
export const v2DebtBatchBody: JsonSchema = {
  type: 'object',
  required: ['debts'],
  additionalProperties: false,
  properties: {
    debts: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['externalRequestId', 'amount', 'dueDate'],
        additionalProperties: false,
        properties: { externalRequestId: externalRequestIdSchema, ...debtProperties(true) },
      },
    },
  },
};

/** Legacy POST /debts: undeclared fields are ignored; it adds productName, paymentMethods, autopay. */
export const legacyDebtBody: JsonSchema = {
  type: 'object',
  required: ['amount', 'dueDate'],
  properties: {
    ...debtProperties(false),
    productName: nonBlankString(200),
    paymentMethods: { type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...PAYMENT_METHODS] } },
    autopay: { type: 'boolean' },
  },
};

export const updateDebtBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  properties: { amount: amountSchema, dueDate: calendarDateSchema },
};

export const payDebtBody: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { amount: amountSchema },
};

export const listDebtsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...DEBT_STATUSES] },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40 },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40 },
    minAmount: { type: 'number', minimum: 0, maximum: 9_999_999_999.99, 'x-decimals': 2 },
    maxAmount: { type: 'number', minimum: 0, maximum: 9_999_999_999.99, 'x-decimals': 2 },
    externalClientId: { type: 'string', minLength: 1, maxLength: 100 },
    batchId: { type: 'string', minLength: 1, maxLength: 40 },
  },
};

export const debtSchema: JsonSchema = {
  type: 'object',
  properties: {
    debtId: { type: 'string' },
    externalRequestId: { type: 'string' },
    status: { type: 'string', enum: [...DEBT_STATUSES] },
    amount: { type: 'number' },
    amountPaid: { type: 'number' },
    currency: currencySchema,
    dueDate: calendarDateSchema,
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    description: { type: 'string' },
    paymentUrl: { type: ['string', 'null'] },
    contact: { type: 'object' },
    product: { type: 'object' },
    autopay: { type: 'boolean' },
    autopayReason: { type: 'string' },
    paymentMethods: { type: 'array', items: { type: 'string' } },
    additionalData: { type: 'object' },
    batchId: { type: 'string' },
    createdAt: dateTimeSchema,
  },
};
