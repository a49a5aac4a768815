import { MAX_OFFSET_DAYS, MAX_STEPS, MIN_OFFSET_DAYS, REMINDER_CHANNELS } from '../../../internal/reminders/reminder-policy';
import { REMINDER_STATUSES } from '../../../internal/reminders/reminder';
import { LOCALES } from '../../../internal/shared/locale';
import type { JsonSchema } from '../validation';
import { companyCodeProperty, dateTimeSchema } from './common.schemas';
import { named } from './named';

const channel = { type: 'string', enum: [...REMINDER_CHANNELS], description: 'email, sms or whatsapp' };
const locale = { type: 'string', enum: [...LOCALES] };
const hhmm = { type: 'string', pattern: '^([01]\\d|2[0-3]):[0-5]\\d$', description: 'Local time HH:MM (24 h)' };

const stepSchema: JsonSchema = named('ReminderStep', {
  type: 'object',
  additionalProperties: false,
  required: ['offsetDays', 'channels'],
  properties: {
    offsetDays: { type: 'integer', minimum: MIN_OFFSET_DAYS, maximum: MAX_OFFSET_DAYS, description: 'Days after the due date (negative: before); unique per policy' },
    channels: { type: 'array', items: channel, minItems: 1, maxItems: 3, uniqueItems: true, description: 'Each gets its own message' },
  },
});

const sendWindowSchema: JsonSchema = named('SendWindow', {
  type: 'object',
  additionalProperties: false,
  required: ['from', 'to'],
  description: 'The local hours (in timeZone) messages go out in; a step is sent when its day\'s window opens',
  properties: { from: hhmm, to: hhmm },
});

const policyExample = {
  enabled: true,
  timeZone: 'America/Mexico_City',
  sendWindow: { from: '09:00', to: '20:00' },
  steps: [{ offsetDays: -3, channels: ['email'] }, { offsetDays: 0, channels: ['whatsapp', 'email'] }, { offsetDays: 3, channels: ['sms'] }],
};

export const reminderPolicyBody: JsonSchema = named('ReminderPolicyRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['enabled', 'timeZone', 'sendWindow', 'steps'],
  properties: {
    enabled: { type: 'boolean' },
    timeZone: { type: 'string', minLength: 1, maxLength: 64, description: 'IANA time zone (America/Mexico_City): the send window and the step days are local to it' },
    sendWindow: sendWindowSchema,
    steps: { type: 'array', items: stepSchema, maxItems: MAX_STEPS, description: `At most ${MAX_STEPS}` },
    locale: { ...locale, description: 'The language of the messages; default: the locale of the company\'s default currency (else the debt\'s)' },
    ...companyCodeProperty,
  },
  examples: [policyExample],
});

export const reminderPolicySchema: JsonSchema = named('ReminderPolicy', {
  type: 'object',
  required: ['companyCode', 'enabled', 'timeZone', 'sendWindow', 'steps', 'locale', 'updatedAt'],
  description: 'How a company reminds its debtors. A company without a policy reads `enabled: false`, no steps.',
  properties: {
    companyCode: { type: 'string' },
    enabled: { type: 'boolean' },
    timeZone: { type: 'string' },
    sendWindow: sendWindowSchema,
    steps: { type: 'array', items: stepSchema, description: 'By offsetDays' },
    locale: { ...locale, type: ['string', 'null'], enum: [...LOCALES, null], description: 'Null: by currency' },
    updatedAt: { ...dateTimeSchema, type: ['string', 'null'], description: 'Null for a company that never saved one' },
  },
  examples: [{ companyCode: 'ACME', ...policyExample, locale: null, updatedAt: '2026-11-25T16:04:05.123Z' }],
});

export const reminderTemplateBody: JsonSchema = named('ReminderTemplateRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['body'],
  properties: {
    subject: { type: 'string', minLength: 1, maxLength: 300, description: 'Email only (required there)' },
    body: { type: 'string', minLength: 1, maxLength: 5000, description: 'Plain text with variables {{contact.name}}, {{debt.amount}}, {{debt.dueDate}}, {{debt.paymentUrl}}, {{company.name}}' },
    ...companyCodeProperty,
  },
  examples: [{ subject: '{{company.name}}: your payment of {{debt.amount}}', body: 'Hello {{contact.name}}, pay {{debt.amount}} by {{debt.dueDate}}: {{debt.paymentUrl}}' }],
});

export const reminderTemplateSchema: JsonSchema = named('ReminderTemplate', {
  type: 'object',
  required: ['channel', 'locale', 'body', 'updatedAt'],
  properties: {
    channel,
    locale,
    subject: { type: 'string', description: 'Email only' },
    body: { type: 'string' },
    updatedAt: dateTimeSchema,
  },
  examples: [{ channel: 'email', locale: 'en-US', subject: '{{company.name}}: your payment of {{debt.amount}}', body: 'Hello {{contact.name}}, pay {{debt.amount}} by {{debt.dueDate}}: {{debt.paymentUrl}}', updatedAt: '2026-11-25T16:04:05.123Z' }],
});

export const reminderPreviewBody: JsonSchema = named('ReminderPreviewRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['channel', 'locale', 'debtId'],
  properties: { channel, locale, debtId: { type: 'string', minLength: 1, maxLength: 200, description: 'The debtId (`debt_…`) or the externalRequestId' }, ...companyCodeProperty },
  examples: [{ channel: 'sms', locale: 'es-MX', debtId: 'debt_inv-2026-0001' }],
});

export const reminderPreviewSchema: JsonSchema = named('ReminderPreview', {
  type: 'object',
  required: ['body'],
  description: 'Exactly what would be sent for that debt now: email has `subject`, `body` (the text part) and `html`; SMS has `segments`',
  properties: {
    subject: { type: 'string' },
    body: { type: 'string' },
    html: { type: 'string', description: 'Email: the HTML part (every value escaped)' },
    segments: { type: 'integer', minimum: 1, description: 'SMS: segments the message takes (GSM-7 160/153, UCS-2 70/67 characters)' },
  },
  examples: [{ body: 'ACME: tu pago de $1,500.00 vence el 15 de enero de 2027. Paga aqui: https://api.collections.example/pay/ACME/debts/debt_inv-2026-0001/Xq3v9LrT2mK8pW1s', segments: 1 }],
});

export const reminderSchema: JsonSchema = named('Reminder', {
  type: 'object',
  required: ['reminderId', 'debtId', 'offsetDays', 'channel', 'status', 'scheduledFor', 'sentAt', 'recipient', 'providerMessageId', 'failureReason'],
  description: 'One message of one step of the policy for a debt, on one channel: at most one per (debt, offsetDays, channel).',
  properties: {
    reminderId: { type: 'string', pattern: '^rem_[A-Za-z0-9]+$' },
    debtId: { type: 'string' },
    offsetDays: { type: 'integer' },
    channel,
    status: { type: 'string', enum: [...REMINDER_STATUSES], description: 'SCHEDULED (not sent yet), SENT, FAILED (failureReason says why), SKIPPED (not sent: paid, cancelled, autopay, channel off or no address)' },
    scheduledFor: { ...dateTimeSchema, description: 'The start of the send window of the step\'s local day' },
    sentAt: { ...dateTimeSchema, type: ['string', 'null'] },
    recipient: { type: ['string', 'null'], description: 'Masked address or phone; null until known' },
    providerMessageId: { type: ['string', 'null'] },
    failureReason: { type: ['string', 'null'] },
  },
  examples: [{
    reminderId: 'rem_4Kq8Zr2LmW7xTn3VbY9sPd1c', debtId: 'debt_inv-2026-0001', offsetDays: 0, channel: 'email', status: 'SENT',
    scheduledFor: '2027-01-15T15:00:00.000Z', sentAt: '2027-01-15T15:00:02.123Z', recipient: 'ma***@example.mx', providerMessageId: 'sbx_7Yq2Lm9XwP3r', failureReason: null,
  }],
});

export const communicationPreferencesBody: JsonSchema = named('CommunicationPreferencesRequest', {
  type: 'object',
  additionalProperties: false,
  required: ['email', 'sms', 'whatsapp'],
  properties: { email: { type: 'boolean' }, sms: { type: 'boolean' }, whatsapp: { type: 'boolean' }, ...companyCodeProperty },
  examples: [{ email: true, sms: false, whatsapp: true }],
});

export const communicationPreferencesSchema: JsonSchema = named('CommunicationPreferences', {
  type: 'object',
  required: ['contactId', 'email', 'sms', 'whatsapp'],
  description: 'The channels the contact is reminded on (a channel on still needs the address or phone)',
  properties: { contactId: { type: 'string' }, email: { type: 'boolean' }, sms: { type: 'boolean' }, whatsapp: { type: 'boolean' } },
  examples: [{ contactId: 'con_4Kq8Zr2LmW7xTn3VbY9s', email: true, sms: false, whatsapp: true }],
});

export const sandboxMessagesQuery: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['debtId'],
  properties: { debtId: { type: 'string', minLength: 1, maxLength: 200, description: 'The debtId (`debt_…`) or the externalRequestId' } },
};

export const sandboxMessageSchema: JsonSchema = named('SandboxMessage', {
  type: 'object',
  required: ['channel', 'to', 'body', 'sentAt', 'debtId'],
  properties: {
    channel,
    to: { type: 'string' },
    subject: { type: 'string', description: 'Email only' },
    body: { type: 'string', description: 'Email: the text part' },
    html: { type: 'string', description: 'Email: the HTML part' },
    unsubscribeUrl: { type: 'string', description: 'Email: its List-Unsubscribe URL' },
    providerMessageId: { type: 'string' },
    sentAt: dateTimeSchema,
    debtId: { type: 'string' },
  },
  examples: [{ channel: 'sms', to: '+525512345678', body: 'ACME: tu pago de $1,500.00 vence el 15 de enero de 2027. Paga aqui: https://api.collections.example/pay/ACME/debts/debt_inv-2026-0001/Xq3v9LrT2mK8pW1s', sentAt: '2027-01-15T15:00:02.123Z', debtId: 'debt_inv-2026-0001' }],
});
