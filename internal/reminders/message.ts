import type { Contact } from '../contacts/contact';
import { contactIdOf } from '../contacts/contact';
import type { Debt } from '../debts/debt';
import { debtIdOf, remainingCents } from '../debts/debt';
import type { Locale } from '../shared/locale';
import { localeOfCurrency } from '../shared/locale';
import type { Company } from '../tenancy/company';
import type { CommunicationPreferences, ReminderRepository } from '../../ports/reminder-repository';
import type { ReminderLinks } from '../../ports/reminder-links';
import { defaultTemplate } from './default-templates';
import type { ReminderChannel, ReminderPolicy } from './reminder-policy';
import { render, type RenderedMessage, templateValues } from './template';

/** The language of a company's messages: the policy's, else its default currency's, else the debt's currency's. */
export function messageLocale(policy: Pick<ReminderPolicy, 'locale'> | null, company: Company, debt: Pick<Debt, 'currency'>): Locale {
  return policy?.locale ?? localeOfCurrency(company.defaultCurrency ?? debt.currency);
}

/** Where a channel reaches the contact: the email, or the primary phone (else the first mobile, else the first). */
export function addressOf(contact: Contact, channel: ReminderChannel): string | null {
  if (channel === 'email') return contact.email.trim() === '' ? null : contact.email.trim();
  const phone = contact.phones.find((p) => p.primary) ?? contact.phones.find((p) => p.type === 'MOBILE') ?? contact.phones[0];
  return phone ? phone.number.replace(/[\s().-]/g, '') : null;
}

/** Stored preferences, or the default: every channel on (the address decides). */
export function preferencesOf(stored: CommunicationPreferences | null): CommunicationPreferences {
  return stored ?? { email: true, sms: true, whatsapp: true };
}

/** Why the contact cannot get the channel, or null. */
export function recipientProblem(contact: Contact | null, preferences: CommunicationPreferences, channel: ReminderChannel): string | null {
  if (!contact) return 'the debt has no contact';
  if (!contact.active) return 'the contact is inactive';
  if (!preferences[channel]) return `the contact turned ${channel} off`;
  if (addressOf(contact, channel) === null) return channel === 'email' ? 'the contact has no email address' : 'the contact has no phone number';
  return null;
}

export interface ComposedMessage extends RenderedMessage {
  locale: Locale;
  unsubscribeUrl: string | null;
}

/**
 * The message of one debt on one channel, exactly as the sending job hands it to the channel:
 * the company's template for the channel and locale (or the default), its variables filled and
 * formatted for the locale and the debt's currency (the amount is what remains to pay).
 */
export async function composeMessage(
  deps: { reminders: Pick<ReminderRepository, 'findTemplate'>; links: ReminderLinks },
  input: { company: Company; debt: Debt; contact: Contact | null; channel: ReminderChannel; locale: Locale },
): Promise<ComposedMessage> {
  const { company, debt, contact, channel, locale } = input;
  const stored = await deps.reminders.findTemplate(company.id, channel, locale);
  const template = stored ?? defaultTemplate(channel, locale);
  const paymentUrl = deps.links.debtUrl({ companyCode: company.code, debtId: debtIdOf(debt) }) ?? '';
  const unsubscribeUrl = channel === 'email' && contact ? deps.links.unsubscribeUrl({ companyCode: company.code, contactCode: contact.code, channel }) : null;
  const values = templateValues({
    contactName: contact?.name ?? '',
    amountCents: remainingCents(debt),
    currency: debt.currency,
    dueDate: debt.dueDate,
    paymentUrl,
    companyName: company.name,
    locale,
  });
  return { ...render({ channel, subject: template.subject, body: template.body }, values, unsubscribeUrl), locale, unsubscribeUrl };
}

export { contactIdOf };
