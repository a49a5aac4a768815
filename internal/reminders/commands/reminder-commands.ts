import type { CommunicationPreferences } from '../../../ports/reminder-repository';
import type { Clock } from '../../../ports/clock';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { clientActor } from '../../audit/audit-entry';
import { type Contact, contactCodeFromId } from '../../contacts/contact';
import { InvalidRequestError, NotFoundError } from '../../shared/errors';
import type { Locale } from '../../shared/locale';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { defaultTemplate } from '../default-templates';
import { assertValidPolicy, type ReminderChannel, type ReminderPolicy, type StoredReminderPolicy } from '../reminder-policy';
import { assertValidTemplate, MAX_SMS_SEGMENTS, type ReminderTemplate, render, type TemplateValues } from '../template';

/** PUT /reminder-policies/{companyCode}: replaces the company's policy; the audit log keeps who changed it. */
export class SaveReminderPolicy {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('SaveReminderPolicy', deps);
  }

  async execute(input: Omit<ReminderPolicy, 'locale'> & { locale?: Locale | null }, scope: TenantScope): Promise<StoredReminderPolicy> {
    const policy: ReminderPolicy = {
      enabled: input.enabled,
      timeZone: input.timeZone,
      sendWindow: { from: input.sendWindow.from, to: input.sendWindow.to },
      steps: input.steps.map((s) => ({ offsetDays: s.offsetDays, channels: [...s.channels] })),
      locale: input.locale ?? null,
    };
    assertValidPolicy(policy);
    policy.steps.sort((a, b) => a.offsetDays - b.offsetDays);
    const at = this.deps.clock.now();
    return this.deps.uow.run(async ({ reminders, audit }) => {
      const saved = await reminders.savePolicy(scope.organizationId, scope.company.id, policy, scope.clock.now());
      await audit.record({
        organizationId: scope.organizationId,
        action: 'reminder_policy.saved',
        resourceType: 'reminder_policy',
        resourceId: scope.company.code,
        actor: clientActor(scope),
        details: { enabled: policy.enabled, timeZone: policy.timeZone, sendWindow: policy.sendWindow, steps: policy.steps, locale: policy.locale },
        at,
      });
      return saved;
    });
  }
}

/** Long sample values: an SMS template must stay within MAX_SMS_SEGMENTS with them. */
const SAMPLE_VALUES: TemplateValues = {
  'contact.name': 'Maria Fernanda Gonzalez',
  'debt.amount': '$1,234,567.89',
  'debt.dueDate': '30 de septiembre de 2026',
  'debt.paymentUrl': 'https://pay.example.com/pay/COMPANY-CODE/debts/debt_inv-2026-000001/Xq3v9LrT2mK8pW1sXq3v9LrT2mK8pW1s',
  'company.name': 'Compania de Servicios',
};

/** PUT /reminder-templates/{channel}/{locale}: the company's wording; unknown variables are 400 naming the field. */
export class SaveReminderTemplate {
  constructor(private readonly deps: { uow: UnitOfWork; clock: Clock }) {
    requireDeps('SaveReminderTemplate', deps);
  }

  async execute(input: { channel: ReminderChannel; locale: Locale; subject?: string; body: string }, scope: TenantScope): Promise<ReminderTemplate> {
    if (input.channel === 'email' && input.subject === undefined) throw InvalidRequestError.field('subject', 'is required for email');
    if (input.channel !== 'email' && input.subject !== undefined) throw InvalidRequestError.field('subject', 'only email has a subject');
    assertValidTemplate(input);
    if (input.channel === 'sms') {
      const segments = render({ channel: 'sms', subject: null, body: input.body }, SAMPLE_VALUES, null).segments!;
      if (segments > MAX_SMS_SEGMENTS) throw InvalidRequestError.field('body', `takes ${segments} SMS segments with long values; at most ${MAX_SMS_SEGMENTS}`);
    }
    const at = this.deps.clock.now();
    return this.deps.uow.run(async ({ reminders, audit }) => {
      const saved = await reminders.saveTemplate({
        companyId: scope.company.id, channel: input.channel, locale: input.locale, subject: input.subject ?? null, body: input.body, updatedAt: scope.clock.now(),
      });
      await audit.record({
        organizationId: scope.organizationId,
        action: 'reminder_template.saved',
        resourceType: 'reminder_template',
        resourceId: `${scope.company.code}/${input.channel}/${input.locale}`,
        actor: clientActor(scope),
        details: { channel: input.channel, locale: input.locale, subject: input.subject ?? null, body: input.body },
        at,
      });
      return saved;
    });
  }
}

/** The template a company uses for a channel and locale: its own, or the default. */
export function effectiveTemplate(stored: ReminderTemplate | null, companyId: number, channel: ReminderChannel, locale: Locale): ReminderTemplate & { custom: boolean } {
  if (stored) return { ...stored, custom: true };
  return { companyId, channel, locale, ...defaultTemplate(channel, locale), updatedAt: new Date(0), custom: false };
}

/** PUT /contacts/{id}/communication-preferences. */
export class SetCommunicationPreferences {
  constructor(private readonly deps: { uow: UnitOfWork }) {
    requireDeps('SetCommunicationPreferences', deps);
  }

  async execute(contactId: string, preferences: CommunicationPreferences, scope: TenantScope): Promise<{ contact: Contact; preferences: CommunicationPreferences }> {
    return this.deps.uow.run(async ({ contacts, reminders }) => {
      const code = contactCodeFromId(contactId);
      const contact = code ? await contacts.findByCode(scope.organizationId, code) : null;
      if (!contact) throw new NotFoundError('Contact');
      const next = { email: preferences.email, sms: preferences.sms, whatsapp: preferences.whatsapp };
      await reminders.savePreferences(contact.id, next, scope.clock.now());
      return { contact, preferences: next };
    });
  }
}

/**
 * The one-click unsubscribe of an email (RFC 8058), from the hosted page whose signed URL the
 * message carried: turns the channel off for the contact. Doing it again changes nothing.
 */
export class UnsubscribeContact {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock }) {
    requireDeps('UnsubscribeContact', deps);
  }

  /** Who the link names, or null when the company or the contact is gone. */
  async find(target: { companyCode: string; contactCode: string }): Promise<{ contact: Contact; companyName: string } | null> {
    const company = await this.deps.repos.tenancy.findCompanyByCode(target.companyCode);
    const contact = company && (await this.deps.repos.contacts.findByCode(company.organizationId, target.contactCode));
    return company && contact ? { contact, companyName: company.name } : null;
  }

  async execute(target: { companyCode: string; contactCode: string; channel: ReminderChannel }): Promise<boolean> {
    return this.deps.uow.run(async ({ tenancy, contacts, reminders }) => {
      const company = await tenancy.findCompanyByCode(target.companyCode);
      const contact = company && (await contacts.findByCode(company.organizationId, target.contactCode));
      if (!contact) return false;
      const current = (await reminders.findPreferences(contact.id)) ?? { email: true, sms: true, whatsapp: true };
      await reminders.savePreferences(contact.id, { ...current, [target.channel]: false }, this.deps.clock.now());
      return true;
    });
  }
}
