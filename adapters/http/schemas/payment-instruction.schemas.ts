import { INSTRUCTION_METHODS, INSTRUCTION_STATUSES, TRANSFER_ACCOUNT_TYPES } from '../../../internal/payment-instructions/payment-instruction';
import { NOTIFICATION_OUTCOMES } from '../../../internal/payment-instructions/provider-notification';
import { RESOLUTION_ACTIONS, UNAPPLIED_REASONS, UNAPPLIED_STATUSES } from '../../../internal/payment-instructions/unapplied-payment';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema, pageQueryProperties } from './common.schemas';
import { amountSchema, currencySchema } from './debt.schemas';
import { described, named, nullable } from './named';

const money = (description: string): JsonSchema => ({ type: 'number', minimum: 0, description });

export const createPaymentInstructionBody: JsonSchema = named('CreatePaymentInstructionRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['method'],
  properties: {
    method: { type: 'string', enum: [...INSTRUCTION_METHODS], description: 'TRANSFER: an account to transfer to; CASH: a voucher to pay at a store' },
    amount: { ...amountSchema, description: 'Default: the remaining amount. Less only where the debt allows partial payments' },
    ...companyCodeProperty,
  },
  examples: [{ method: 'TRANSFER' }, { method: 'CASH', amount: 250 }],
});

const transferSchema: JsonSchema = named('TransferInstructions', {
  type: 'object',
  required: ['accountType', 'accountNumber', 'bankName', 'beneficiary'],
  description: 'Where to transfer: an account unique to this instruction.',
  properties: {
    accountType: {
      type: 'string', enum: [...TRANSFER_ACCOUNT_TYPES],
      description: 'CLABE (MXN, 18 digits with its check digit), CVU (ARS, 22 digits), CCI (PEN, 20 digits), ACCOUNT (COP, CLP, USD)',
    },
    accountNumber: { type: 'string', pattern: '^\\d{6,22}$' },
    bankName: { type: 'string' },
    beneficiary: { type: 'string', description: 'The name the debtor\'s bank shows for the account' },
  },
  examples: [{ accountType: 'CLABE', accountNumber: '646180991234567895', bankName: 'STP (sandbox)', beneficiary: 'Gimnasio Central' }],
});

const cashSchema: JsonSchema = named('CashVoucher', {
  type: 'object',
  required: ['barcodeValue', 'barcodeUrl', 'voucherUrl', 'networks'],
  description: 'A voucher paid in cash at a store of one of the networks.',
  properties: {
    barcodeValue: { type: 'string', description: 'What the barcode encodes; the cashier types it when the barcode does not scan' },
    barcodeUrl: { type: 'string', format: 'uri', description: 'The barcode (Code 128) as SVG: a public, signed URL that shows nothing else' },
    voucherUrl: { type: 'string', format: 'uri', description: 'The printable voucher as PDF: a public, signed URL (`?locale=en-US` and the other page locales choose its language)' },
    networks: { type: 'array', items: { type: 'string' }, description: 'Where it can be paid' },
  },
  examples: [{
    barcodeValue: '9912345678901234',
    barcodeUrl: 'https://api.collections.example/vouchers/ACME/pin_4Kq8Zr2LmW7xTn3VbY9sPd1c/Zm9vYmFyYmF6cXV4/barcode.svg',
    voucherUrl: 'https://api.collections.example/vouchers/ACME/pin_4Kq8Zr2LmW7xTn3VbY9sPd1c/Zm9vYmFyYmF6cXV4/voucher.pdf',
    networks: ['OXXO', '7-Eleven', 'Farmacias del Ahorro'],
  }],
});

const instructionExample = {
  paymentInstructionId: 'pin_4Kq8Zr2LmW7xTn3VbY9sPd1c',
  debtId: 'debt_inv-2026-0001',
  method: 'TRANSFER',
  status: 'PENDING',
  amount: 1500,
  amountReceived: 0,
  currency: 'MXN',
  reference: '4825107',
  expiresAt: '2026-12-25T16:04:05.123Z',
  transfer: (transferSchema.examples as unknown[])[0],
  createdAt: '2026-11-25T16:04:05.123Z',
  paidAt: null,
};

export const paymentInstructionSchema: JsonSchema = named('PaymentInstruction', {
  type: 'object',
  description: 'How a debt is paid by transfer or in cash; the money is confirmed when the provider notifies it. `transfer` only for TRANSFER, `cash` only for CASH.',
  required: ['paymentInstructionId', 'debtId', 'method', 'status', 'amount', 'amountReceived', 'currency', 'reference', 'expiresAt', 'createdAt', 'paidAt'],
  properties: {
    paymentInstructionId: { type: 'string', pattern: '^pin_[A-Za-z0-9]+$', description: '`pin_` + alphanumeric; paths also accept it without the prefix' },
    debtId: { type: 'string', description: 'The debt it pays' },
    method: { type: 'string', enum: [...INSTRUCTION_METHODS] },
    status: {
      type: 'string', enum: [...INSTRUCTION_STATUSES],
      description: 'PENDING until its amount arrives (PAID), expiresAt passes (EXPIRED) or the debt is paid by other means or cancelled (CANCELLED)',
    },
    amount: amountSchema,
    amountReceived: money('Every amount received through it so far, applied to the debt or kept as an unapplied payment'),
    currency: currencySchema,
    reference: { type: 'string', description: 'What the debtor quotes: the transfer\'s numeric reference, or the voucher number' },
    expiresAt: { ...dateTimeSchema, description: 'Cash: 72 hours; transfer: 30 days; both at most to the end of the due date when the debt takes no overdue payment' },
    transfer: transferSchema,
    cash: cashSchema,
    createdAt: dateTimeSchema,
    paidAt: { ...dateTimeSchema, type: ['string', 'null'], description: 'When it became PAID' },
  },
  examples: [
    instructionExample,
    {
      ...instructionExample, paymentInstructionId: 'pin_7Hs2Kq8ZrW3nXc5Vb1LmT9yP', method: 'CASH', reference: '9912345678901234',
      expiresAt: '2026-11-28T16:04:05.123Z', transfer: undefined, cash: (cashSchema.examples as unknown[])[0],
    },
  ].map((e) => JSON.parse(JSON.stringify(e))),
});

const resolutionSchema: JsonSchema = named('UnappliedPaymentResolution', {
  type: 'object',
  required: ['action', 'debtId', 'reference'],
  properties: {
    action: { type: 'string', enum: [...RESOLUTION_ACTIONS], description: 'APPLIED to a debt, or REFUNDED to the payer' },
    debtId: { type: ['string', 'null'], description: 'APPLIED: the debt that took the money' },
    reference: { type: ['string', 'null'], description: 'REFUNDED: the provider\'s refund reference' },
  },
  examples: [{ action: 'APPLIED', debtId: 'debt_inv-2026-0002', reference: null }],
});

export const unappliedPaymentSchema: JsonSchema = named('UnappliedPayment', {
  type: 'object',
  description: 'Money received that no debt took (overpaid, for an instruction no longer PENDING, or not applicable to its debt): kept until applied or refunded.',
  required: ['unappliedPaymentId', 'amount', 'currency', 'paymentInstructionId', 'debtId', 'reason', 'status', 'receivedAt', 'resolvedAt', 'resolution'],
  properties: {
    unappliedPaymentId: { type: 'string', pattern: '^upy_[A-Za-z0-9]+$', description: '`upy_` + alphanumeric; paths also accept it without the prefix' },
    amount: amountSchema,
    currency: currencySchema,
    paymentInstructionId: { type: 'string', description: 'The instruction the money came through' },
    debtId: { type: 'string', description: 'That instruction\'s debt' },
    reason: {
      type: 'string', enum: [...UNAPPLIED_REASONS],
      description: 'OVERPAYMENT: more than the debt owed; INSTRUCTION_NOT_PENDING: the instruction was paid, expired or cancelled; NOT_APPLICABLE: the debt\'s rules refuse it (paid, cancelled, partial not allowed, an earlier cycle unpaid, another currency)',
    },
    status: { type: 'string', enum: [...UNAPPLIED_STATUSES] },
    receivedAt: { ...dateTimeSchema, description: 'When the provider says the money arrived' },
    resolvedAt: { ...dateTimeSchema, type: ['string', 'null'] },
    resolution: described(nullable(resolutionSchema), 'How it was resolved; null while OPEN'),
  },
  examples: [{
    unappliedPaymentId: 'upy_9Lm3Qx7Kp2Zr8WnT4VbY1sPd', amount: 120.5, currency: 'MXN', paymentInstructionId: 'pin_4Kq8Zr2LmW7xTn3VbY9sPd1c',
    debtId: 'debt_inv-2026-0001', reason: 'OVERPAYMENT', status: 'OPEN', receivedAt: '2026-11-26T10:15:00.000Z', resolvedAt: null, resolution: null,
  }],
});

export const listUnappliedPaymentsQuery: JsonSchema = {
  type: 'object',
  properties: { ...pageQueryProperties, status: { type: 'string', enum: [...UNAPPLIED_STATUSES], description: 'OPEN or RESOLVED' } },
};

export const applyUnappliedPaymentBody: JsonSchema = named('ApplyUnappliedPaymentRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['debtId'],
  properties: {
    debtId: { type: 'string', minLength: 1, maxLength: 160, description: 'The debt (`debt_…` or its externalRequestId) that takes the whole amount' },
    ...companyCodeProperty,
  },
  examples: [{ debtId: 'debt_inv-2026-0002' }],
});

export const receivePaymentBody: JsonSchema = named('SandboxReceiveRequest', {
  type: 'object',
  additionalProperties: false,
  properties: { amount: { ...amountSchema, description: 'Default: the instruction amount' }, ...companyCodeProperty },
  examples: [{ amount: 1500 }],
});

export const sandboxNotificationSentSchema: JsonSchema = named('SandboxNotificationSent', {
  type: 'object',
  description: 'The signed notification the sandbox provider delivered to POST /provider-notifications/sandbox.',
  required: ['paymentInstructionId', 'provider', 'transactionId', 'amount', 'currency'],
  properties: {
    paymentInstructionId: { type: 'string' },
    provider: { type: 'string', enum: ['sandbox'] },
    transactionId: { type: 'string', description: 'The provider\'s id of this movement' },
    amount: amountSchema,
    currency: currencySchema,
  },
  examples: [{ paymentInstructionId: 'pin_4Kq8Zr2LmW7xTn3VbY9sPd1c', provider: 'sandbox', transactionId: 'sbx_txn_5f2c0a9e7d1b3c4a6e8f0a1b', amount: 1500, currency: 'MXN' }],
});

/** The sandbox provider's notification (a real provider's format is its own; each has its adapter). */
export const sandboxNotificationBody: JsonSchema = named('SandboxProviderNotification', {
  type: 'object',
  required: ['id', 'type', 'instruction', 'amount', 'currency', 'receivedAt'],
  description: 'Signed with `X-Sandbox-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>`; refused more than 5 minutes from now.',
  properties: {
    id: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,100}$', description: 'The provider\'s transaction id: the same id is recorded once' },
    type: { type: 'string', enum: ['payment.received'] },
    instruction: { type: 'string', pattern: '^[A-Za-z0-9_-]{1,64}$', description: 'The account or barcode the money was paid to' },
    amount: amountSchema,
    currency: currencySchema,
    receivedAt: { type: 'string', format: 'date-time', description: 'When the money arrived' },
  },
  examples: [{ id: 'sbx_txn_5f2c0a9e7d1b3c4a6e8f0a1b', type: 'payment.received', instruction: '646180991234567895', amount: 1500, currency: 'MXN', receivedAt: '2026-11-26T10:15:00.000Z' }],
});

export const notificationReceiptSchema: JsonSchema = named('ProviderNotificationReceipt', {
  type: 'object',
  description: 'Where the money went. A notification delivered again answers the first outcome (replayed: true) and records nothing.',
  required: ['transactionId', 'replayed', 'outcome', 'appliedAmount', 'unappliedAmount', 'currency'],
  properties: {
    transactionId: { type: 'string' },
    replayed: { type: 'boolean' },
    outcome: {
      type: 'string', enum: [...NOTIFICATION_OUTCOMES],
      description: 'APPLIED to the debt; PARTIALLY_APPLIED (the rest unapplied); UNAPPLIED; UNMATCHED: no instruction of ours has that reference (kept for the operators)',
    },
    appliedAmount: money('Applied to the debt'),
    unappliedAmount: money('Kept as an unapplied payment'),
    currency: currencySchema,
  },
  examples: [{ transactionId: 'sbx_txn_5f2c0a9e7d1b3c4a6e8f0a1b', replayed: false, outcome: 'APPLIED', appliedAmount: 1500, unappliedAmount: 0, currency: 'MXN' }],
});
