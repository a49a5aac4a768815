import type { Application } from '../../../internal/application';
import type { ReminderChannel, ReminderPolicy } from '../../../internal/reminders/reminder-policy';
import { REMINDER_CHANNELS } from '../../../internal/reminders/reminder-policy';
import { InvalidRequestError, type ErrorDetail } from '../../../internal/shared/errors';
import { isLocale, type Locale, LOCALES } from '../../../internal/shared/locale';
import type { CommunicationPreferences } from '../../../ports/reminder-repository';
import {
  presentPreferences, presentPreview, presentReminder, presentReminderPolicy, presentReminderTemplate, presentSandboxMessage,
} from '../presenters/reminder.presenter';
import { route } from '../route';
import {
  communicationPreferencesBody, communicationPreferencesSchema, reminderPolicyBody, reminderPolicySchema, reminderPreviewBody, reminderPreviewSchema,
  reminderSchema, reminderTemplateBody, reminderTemplateSchema, sandboxMessageSchema, sandboxMessagesQuery,
} from '../schemas/reminder.schemas';

const TAG = 'Payment reminders';
const DEBT_ID = 'The debtId (`debt_…`) or the externalRequestId';
const VARIABLES = '`{{contact.name}}`, `{{debt.amount}}` (formatted for the locale and the debt\'s currency), `{{debt.dueDate}}`, `{{debt.paymentUrl}}`, `{{company.name}}`';

/** Payment reminders → internal/reminders (docs/reminders.md). */
export function reminderRoutes(app: Application) {
  const { saveReminderPolicy, saveReminderTemplate, setCommunicationPreferences } = app.commands;
  return [
    route<Omit<ReminderPolicy, 'locale'> & { locale?: Locale }>({
      method: 'put', path: '/reminder-policies/:companyCode', operationId: 'putReminderPolicy', tag: TAG, summary: "Set a company's reminder policy",
      description:
        'Replaces the policy. A step is due on the local day `dueDate + offsetDays` in `timeZone`, when that day\'s `sendWindow` opens ' +
        '(or at once, when the policy or the debt appears later inside the window); it is sent at most once per (debt, step, channel), only ' +
        'while the debt is PENDING, PARTIALLY_PAID or OVERDUE; steps with `offsetDays` >= 1 only to OVERDUE debts; autopay debts get no step ' +
        'with `offsetDays` <= 0. A step whose day passed more than one day ago when the policy is saved is never sent. The audit log keeps the change.',
      params: { companyCode: 'The company (one of the client\'s)' },
      companyFromPath: 'companyCode',
      auth: 'facade', body: reminderPolicyBody, response: reminderPolicySchema, errors: [400, 401],
      handle: async ({ body, scope }) => ({ data: presentReminderPolicy(await saveReminderPolicy.execute(body, scope), scope.company.code) }),
    }),
    route({
      method: 'get', path: '/reminder-policies/:companyCode', operationId: 'getReminderPolicy', tag: TAG, summary: "A company's reminder policy",
      description: 'A company that never set one reads `enabled: false` with no steps (and `updatedAt: null`).',
      params: { companyCode: 'The company (one of the client\'s)' },
      companyFromPath: 'companyCode',
      auth: 'facade', response: reminderPolicySchema, errors: [400, 401],
      handle: async ({ scope }) => ({ data: presentReminderPolicy(await app.queries.getReminderPolicy.execute(scope), scope.company.code) }),
    }),
    route<{ subject?: string; body: string }>({
      method: 'put', path: '/reminder-templates/:channel/:locale', operationId: 'putReminderTemplate', tag: TAG, summary: 'Set the wording of a channel in a locale',
      description:
        `The company's template for the channel and locale (without one, the built-in default). Variables: ${VARIABLES}; any other ` +
        '`{{…}}` is 400 naming the field (`body` or `subject`). `subject` is required for email and refused for sms and whatsapp. The email ' +
        'is sent as text and as HTML (every character escaped). An SMS template that takes more than 4 segments with long values is 400. The audit log keeps the change.',
      params: { channel: 'email, sms or whatsapp', locale: LOCALES.join(', ') },
      auth: 'facade', body: reminderTemplateBody, response: reminderTemplateSchema, errors: [400, 401],
      handle: async ({ params, body, scope }) => {
        const { channel, locale } = channelAndLocale(params.channel!, params.locale!);
        return { data: presentReminderTemplate(await saveReminderTemplate.execute({ channel, locale, subject: body.subject, body: body.body }, scope)) };
      },
    }),
    route<{ channel: ReminderChannel; locale: Locale; debtId: string }>({
      method: 'post', path: '/reminder-templates/preview', operationId: 'previewReminder', tag: TAG, summary: 'Render a reminder for a debt',
      description: 'Exactly what the workers would send for that debt now on the channel: the company\'s template (or the default) with the debt\'s values. Nothing is sent.',
      idempotent: true,
      auth: 'facade', body: reminderPreviewBody, response: reminderPreviewSchema, errors: [400, 401, 404],
      handle: async ({ body, scope }) => ({ data: presentPreview(await app.queries.previewReminder.execute(body, scope)) }),
    }),
    route({
      method: 'get', path: '/debts/:id/reminders', operationId: 'listDebtReminders', tag: TAG, summary: "A debt's reminders",
      description: 'Every reminder of the debt (one per step and channel), by scheduledFor. The recipient is masked.',
      params: { id: DEBT_ID },
      auth: 'facade', response: reminderSchema, list: 'all', errors: [401, 404],
      handle: async ({ params, scope }) => {
        const { debt, reminders } = await app.queries.listDebtReminders.execute(params.id!, scope);
        return { data: reminders.map((r) => presentReminder(r, debt)) };
      },
    }),
    route<CommunicationPreferences>({
      method: 'put', path: '/contacts/:id/communication-preferences', operationId: 'putCommunicationPreferences', tag: TAG, summary: "Set the channels a contact is reminded on",
      description:
        'Default: every channel on (a channel still needs the contact\'s email or phone). A channel off makes the reminders of that channel SKIPPED with the reason. ' +
        'The one-click unsubscribe link of a reminder email turns email off.',
      params: { id: 'The contactId (`con_…`), with or without its prefix' },
      auth: 'facade', body: communicationPreferencesBody, response: communicationPreferencesSchema, errors: [400, 401, 404],
      handle: async ({ params, body, scope }) => {
        const { contact, preferences } = await setCommunicationPreferences.execute(params.id!, body, scope);
        return { data: presentPreferences(contact, preferences) };
      },
    }),
  ];
}

/** Sandbox helper (never mounted in production). */
export function reminderTestHelperRoutes(app: Application) {
  return [
    route<unknown, { debtId: string }>({
      method: 'get', path: '/test-helpers/messages', operationId: 'listSandboxMessages', tag: 'Sandbox test helpers', summary: 'Messages the sandbox sender delivered for a debt',
      description: 'Sandbox only. What the sandbox message sender delivered for the debt\'s reminders (email, SMS, WhatsApp), oldest first.',
      auth: 'facade', query: sandboxMessagesQuery, response: sandboxMessageSchema, list: 'all', errors: [400, 401, 404],
      handle: async ({ query, scope }) => {
        const { debtId, messages } = await app.queries.listSandboxMessages.execute(query.debtId, scope);
        return { data: messages.map((m) => presentSandboxMessage(m, debtId)) };
      },
    }),
  ];
}

function channelAndLocale(channel: string, locale: string): { channel: ReminderChannel; locale: Locale } {
  const details: ErrorDetail[] = [];
  if (!(REMINDER_CHANNELS as readonly string[]).includes(channel)) details.push({ field: 'channel', issue: 'must be email, sms or whatsapp' });
  if (!isLocale(locale)) details.push({ field: 'locale', issue: `must be one of ${LOCALES.join(', ')}` });
  if (details.length > 0) throw new InvalidRequestError(details.map((d) => `${d.field}: ${d.issue}`).join('; '), details);
  return { channel: channel as ReminderChannel, locale: locale as Locale };
}
