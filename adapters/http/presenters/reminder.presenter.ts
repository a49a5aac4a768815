import { contactIdOf } from '../../../internal/contacts/contact';
import type { Contact } from '../../../internal/contacts/contact';
import type { ComposedMessage } from '../../../internal/reminders/message';
import { maskRecipient, publicReminderStatus, type Reminder, reminderIdOf } from '../../../internal/reminders/reminder';
import type { ReminderPolicy } from '../../../internal/reminders/reminder-policy';
import type { ReminderTemplate } from '../../../internal/reminders/template';
import { toIsoUtc } from '../../../internal/shared/calendar-date';
import type { CommunicationPreferences } from '../../../ports/reminder-repository';
import type { SandboxMessage } from '../../../ports/sandbox-message-log';

export function presentReminder(reminder: Reminder, debt: { externalRequestId: string }) {
  return {
    reminderId: reminderIdOf(reminder),
    debtId: `debt_${debt.externalRequestId}`,
    offsetDays: reminder.offsetDays,
    channel: reminder.channel,
    status: publicReminderStatus(reminder.status),
    scheduledFor: toIsoUtc(reminder.scheduledFor),
    sentAt: reminder.sentAt ? toIsoUtc(reminder.sentAt) : null,
    recipient: maskRecipient(reminder.recipient),
    providerMessageId: reminder.providerMessageId,
    failureReason: reminder.failureReason,
  };
}

export function presentReminderPolicy(policy: ReminderPolicy & { updatedAt: Date | null }, companyCode: string) {
  return {
    companyCode,
    enabled: policy.enabled,
    timeZone: policy.timeZone,
    sendWindow: { from: policy.sendWindow.from, to: policy.sendWindow.to },
    steps: policy.steps.map((s) => ({ offsetDays: s.offsetDays, channels: [...s.channels] })),
    locale: policy.locale,
    updatedAt: policy.updatedAt ? toIsoUtc(policy.updatedAt) : null,
  };
}

export function presentReminderTemplate(template: ReminderTemplate) {
  return {
    channel: template.channel,
    locale: template.locale,
    ...(template.subject !== null ? { subject: template.subject } : {}),
    body: template.body,
    updatedAt: toIsoUtc(template.updatedAt),
  };
}

export function presentPreview(message: ComposedMessage) {
  return {
    ...(message.subject !== null ? { subject: message.subject } : {}),
    body: message.body,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.segments !== null ? { segments: message.segments } : {}),
  };
}

export function presentPreferences(contact: Contact, preferences: CommunicationPreferences) {
  return { contactId: contactIdOf(contact), email: preferences.email, sms: preferences.sms, whatsapp: preferences.whatsapp };
}

export function presentSandboxMessage(message: SandboxMessage, debtId: string) {
  return {
    channel: message.channel,
    to: message.to,
    ...(message.subject !== null ? { subject: message.subject } : {}),
    body: message.body,
    ...(message.html !== null ? { html: message.html } : {}),
    ...(message.unsubscribeUrl !== null ? { unsubscribeUrl: message.unsubscribeUrl } : {}),
    providerMessageId: message.providerMessageId,
    sentAt: toIsoUtc(message.sentAt),
    debtId,
  };
}
