import { AUTOPAY_REASONS, DEBT_STATUSES, PAYMENT_METHODS } from '../../../internal/debts/debt';
import { CURRENCIES } from '../../../internal/shared/currency';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, forbiddenCharsString, nonBlankString, pageQueryProperties } from './common.schemas';
import { contactDataSchema, embeddedContactSchema } from './contact.schemas';
import { paymentMethodSchema } from './direct-debit.schemas';
import { described, named, nullable } from './named';
import { embeddedProductSchema } from './product.schemas';

/** Convention 9: keys a flat additionalData must not use. */
export const RESERVED_ADDITIONAL_DATA_KEYS = [
  'description', 'paymentMethods', 'productName', 'externalProductId', 'debtExpirationDate',
  'overduePayment', 'allowPartialPayments', 'recurringDebt', 'debtReference',
];

export const amountSchema: JsonSchema = {
  type: 'number', minimum: 0.01, maximum: 9_999_999_999.99, 'x-decimals': 2, description: 'In currency units, at most 2 decimals',
};
export const calendarDateSchema: JsonSchema = { type: 'string', format: 'date', description: 'YYYY-MM-DD' };
export const currencySchema: JsonSchema = named('Currency', {
  type: 'string', enum: [...CURRENCIES], description: 'ISO 4217; when omitted on creation, the organization default (else MXN)',
});
export const externalRequestIdSchema: JsonSchema = {
  type: 'string', pattern: '^[A-Za-z0-9][A-Za-z0-9._:-]{0,149}$', description: '1 to 150 letters, digits or . _ : -, starting with a letter or digit',
};
export const paymentMethodsSchema: JsonSchema = named('PaymentMethods', {
  type: 'array', minItems: 1, uniqueItems: true, items: { type: 'string', enum: [...PAYMENT_METHODS] },
  description: 'How the debtor may pay',
});

/** Convention 9: a flat object of scalars, without the reserved keys. */
export const additionalDataSchema: JsonSchema = named('AdditionalData', {
  type: 'object',
  description: 'A flat object of string, number, boolean or null values (at most 50), stored on the debts; reserved keys: ' + RESERVED_ADDITIONAL_DATA_KEYS.join(', '),
  maxProperties: 50,
  propertyNames: { maxLength: 100, not: { enum: RESERVED_ADDITIONAL_DATA_KEYS } },
  additionalProperties: { type: ['string', 'number', 'boolean', 'null'], maxLength: 1000 },
});

const debtProperties = (strict: boolean) => ({
  externalClientId: { ...nonBlankString(100), description: 'The debtor: an existing contact (or one of its identifiers); or send contactData' },
  contactData: contactDataSchema(strict),
  amount: amountSchema,
  dueDate: { ...calendarDateSchema, description: 'YYYY-MM-DD, a real calendar date (not required to be in the future)' },
  currency: currencySchema,
  description: { type: 'string', maxLength: 500 },
  productId: { type: 'string', pattern: '^prd_[1-9][0-9]{0,14}$', description: 'An active product (or send externalProductId)' },
  externalProductId: { ...forbiddenCharsString(200), description: "An active product by your own id; must not contain ' \" \\ or ;" },
  allowPartialPayments: { type: 'boolean', description: 'Default true' },
  allowOverduePayment: { type: 'boolean', description: 'Default true; false: the debt cannot be paid after dueDate' },
  additionalData: additionalDataSchema,
});

const debtRequestExample = {
  externalClientId: 'client-0001',
  amount: 1250.5,
  dueDate: '2026-12-15',
  currency: 'MXN',
  description: 'Invoice 2026-0001',
  allowPartialPayments: true,
  additionalData: { invoiceNumber: 'F-2026-0001' },
};

/** POST /v2/debts, one debt: every field outside this contract is a 400 naming it. */
export const v2DebtBody: JsonSchema = named('CreateDebtRequest', {
  type: 'object',
  required: ['amount', 'dueDate'],
  additionalProperties: false,
  description: 'One debt. Exactly one debtor: externalClientId or contactData. The Idempotency-Key header becomes its externalRequestId.',
  properties: { ...debtProperties(true), ...companyCodeProperty },
  examples: [debtRequestExample],
});

/** POST /v2/debts, batch: `{ debts: [...] }` and nothing else; each item also names its externalRequestId. */
export const v2DebtBatchBody: JsonSchema = named('CreateDebtBatchRequest', {
  type: 'object',
  required: ['debts'],
  additionalProperties: false,
  description: 'Up to 50 debts, created independently; each names its own externalRequestId (the Idempotency-Key header is not used).',
  properties: {
    debts: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: named('CreateDebtBatchItem', {
        type: 'object',
        required: ['externalRequestId', 'amount', 'dueDate'],
        additionalProperties: false,
        properties: { externalRequestId: { ...externalRequestIdSchema, description: 'The debt\'s idempotency key, unique within the batch' }, ...debtProperties(true) },
      }),
    },
    ...companyCodeProperty,
  },
  examples: [{
    debts: [
      { externalRequestId: 'inv-2026-0002', ...debtRequestExample, description: 'Invoice 2026-0002' },
      { externalRequestId: 'inv-2026-0003', externalClientId: 'client-0002', amount: 99.9, dueDate: '2026-12-20' },
    ],
  }],
});

/** Legacy POST /debts: undeclared fields are ignored; it adds productName, paymentMethods, autopay. */
export const legacyDebtBody: JsonSchema = named('CreateLegacyDebtRequest', {
  type: 'object',
  required: ['amount', 'dueDate'],
  description: 'The legacy contract: undeclared fields are ignored; adds productName, paymentMethods and autopay.',
  properties: {
    ...debtProperties(false),
    productName: { ...nonBlankString(200), description: 'A product by name' },
    paymentMethods: paymentMethodsSchema,
    autopay: { type: 'boolean', description: 'Ask for automatic collection (direct debit)' },
    ...companyCodeProperty,
  },
  examples: [{ ...debtRequestExample, paymentMethods: ['CARD', 'TRANSFER'] }],
});

export const updateDebtBody: JsonSchema = named('UpdateDebtRequest', {
  type: 'object',
  additionalProperties: false,
  minProperties: 1,
  description: 'At least one of amount or dueDate.',
  properties: { amount: amountSchema, dueDate: calendarDateSchema, ...companyCodeProperty },
  examples: [{ amount: 1300, dueDate: '2026-12-31' }],
});

export const payDebtBody: JsonSchema = named('PayDebtRequest', {
  type: 'object',
  additionalProperties: false,
  properties: { amount: { ...amountSchema, description: 'Default: the remaining amount' }, ...companyCodeProperty },
  examples: [{ amount: 250 }],
});

export const listDebtsQuery: JsonSchema = {
  type: 'object',
  properties: {
    ...pageQueryProperties,
    status: { type: 'string', enum: [...DEBT_STATUSES], description: 'The effective status (a PENDING debt past its due date is OVERDUE)' },
    createdAtFrom: { type: 'string', minLength: 1, maxLength: 40, description: 'From this instant (RFC 3339), or from the start of this UTC day (YYYY-MM-DD)' },
    createdAtTo: { type: 'string', minLength: 1, maxLength: 40, description: 'Up to this instant (RFC 3339), or up to the end of this UTC day (YYYY-MM-DD)' },
    minAmount: { type: 'number', minimum: 0, maximum: 9_999_999_999.99, 'x-decimals': 2, description: 'Amount at least this' },
    maxAmount: { type: 'number', minimum: 0, maximum: 9_999_999_999.99, 'x-decimals': 2, description: 'Amount at most this' },
    externalClientId: { type: 'string', minLength: 1, maxLength: 100, description: "The debtor's externalClientId" },
    batchId: { type: 'string', minLength: 1, maxLength: 40, description: 'The debts created by one batch' },
  },
};

const debtExample = {
  debtId: 'debt_inv-2026-0001',
  externalRequestId: 'inv-2026-0001',
  status: 'PENDING',
  amount: 1250.5,
  amountPaid: 0,
  currency: 'MXN',
  dueDate: '2026-12-15',
  allowOverduePayment: true,
  allowPartialPayments: true,
  description: 'Invoice 2026-0001',
  paymentUrl: 'https://api.collections.example/pay/ACME/debts/debt_inv-2026-0001/Xq3v9LrT2mK8pW1s',
  contact: { contactId: 'con_4fT9kQ2mZ8xW', externalClientId: 'client-0001', createdInline: false },
  additionalData: { invoiceNumber: 'F-2026-0001' },
  createdAt: '2026-11-25T16:04:05.123Z',
};

export const debtSchema: JsonSchema = named('Debt', {
  type: 'object',
  description: 'A one-time charge to a debtor. Optional fields appear only when set; autopay and its reason or instrument only on creation answers.',
  required: [
    'debtId', 'externalRequestId', 'status', 'amount', 'amountPaid', 'currency', 'dueDate', 'allowOverduePayment', 'allowPartialPayments',
    'paymentUrl', 'contact', 'createdAt',
  ],
  properties: {
    debtId: { type: 'string', description: '`debt_` + externalRequestId' },
    externalRequestId: { type: 'string', description: 'The idempotency key of the debt (the Idempotency-Key header, generated when absent, or the batch item\'s)' },
    status: { type: 'string', enum: [...DEBT_STATUSES], description: 'Effective status: a PENDING debt past its due date reads OVERDUE' },
    amount: { type: 'number', description: 'In currency units' },
    amountPaid: { type: 'number', description: 'Accumulated amount paid' },
    currency: currencySchema,
    dueDate: calendarDateSchema,
    allowOverduePayment: { type: 'boolean' },
    allowPartialPayments: { type: 'boolean' },
    description: { type: 'string', description: 'Only when the debt has one' },
    paymentUrl: { type: ['string', 'null'], description: 'Opaque deep link to pay this debt; share it as is. Null only when the portal integration fails' },
    contact: { ...nullable(embeddedContactSchema), description: 'The debtor; null for the debt of a payment link without a known debtor' },
    product: described(embeddedProductSchema, 'Present when a product is referenced'),
    autopay: { type: 'boolean', description: 'Creation answers only: whether automatic collection is active' },
    autopayReason: { type: 'string', enum: [...AUTOPAY_REASONS], description: 'Creation answers only, when autopay is false and the debt was evaluated' },
    autopayInstrument: described(paymentMethodSchema, 'Creation answers only, when autopay is true: the payment method that will be charged'),
    paymentMethods: described(paymentMethodsSchema, 'Only when set (legacy contract and subscriptions)'),
    additionalData: described(additionalDataSchema, 'Only when set'),
    batchId: { type: 'string', description: 'The batch that created it' },
    createdAt: dateTimeSchema,
  },
  examples: [debtExample],
});

export const batchErrorSchema: JsonSchema = named('DebtBatchError', {
  type: 'object',
  required: ['index', 'externalRequestId', 'code', 'message'],
  properties: {
    index: { type: 'integer', minimum: 0, description: 'The position of the item in `debts`' },
    externalRequestId: { type: 'string' },
    code: { type: 'string', description: 'The error code the item would have had alone (RESOURCE_NOT_FOUND, BUSINESS_RULE_VIOLATION...)' },
    message: { type: 'string' },
  },
});

/** The batch answers: 201 (all created), 207 (some) and 422 (none). */
export const debtBatchResultSchema: JsonSchema = named('DebtBatchResult', {
  type: 'object',
  required: ['data', 'batchId', 'requestId'],
  description: 'The debts created (in item order) and, on 207 and 422, the items that failed.',
  properties: {
    data: { type: 'array', items: debtSchema },
    batchId: { type: 'string', description: 'Filters GET /debts?batchId=' },
    errors: { type: 'array', items: batchErrorSchema, description: 'Only on 207 and 422' },
    requestId: { type: 'string', pattern: '^req_[A-Za-z0-9]+$' },
  },
});
