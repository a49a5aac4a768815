import type { ReminderLinks } from '../../../ports/reminder-links';
import type { SandboxMessage, SandboxMessageLog } from '../../../ports/sandbox-message-log';
import type { Repositories } from '../../../ports/unit-of-work';
import { findDebt } from '../../debts/find-debt';
import { effectiveStatus } from '../../debts/debt';
import { utcDateOf } from '../../shared/calendar-date';
import { InvalidRequestError, NotFoundError } from '../../shared/errors';
import type { Locale } from '../../shared/locale';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { Company } from '../../tenancy/company';
import { organizationClock } from '../../tenancy/organization-clock';
import type { Clock } from '../../../ports/clock';
import { composeMessage, type ComposedMessage } from '../message';
import type { Reminder } from '../reminder';
import { ineligibility } from '../reminder';
import { DEFAULT_POLICY, type ReminderChannel, type ReminderPolicy, REMINDER_CHANNELS } from '../reminder-policy';
import { sendTimeOf } from '../schedule';
import { isCalendarDate } from '../../shared/calendar-date';

/** GET /reminder-policies/{companyCode}: the company's policy; without one, `enabled: false` and no steps. */
export class GetReminderPolicy {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('GetReminderPolicy', deps);
  }

  async execute(scope: TenantScope): Promise<ReminderPolicy & { updatedAt: Date | null }> {
    const stored = await this.deps.repos.reminders.findPolicy(scope.company.id);
    return stored ?? { ...DEFAULT_POLICY, updatedAt: null };
  }
}

/** GET /debts/{id}/reminders. */
export class ListDebtReminders {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('ListDebtReminders', deps);
  }

  async execute(debtId: string, scope: TenantScope): Promise<{ debt: { externalRequestId: string }; reminders: Reminder[] }> {
    const debt = await findDebt(this.deps.repos.debts, debtId, scope);
    return { debt, reminders: await this.deps.repos.reminders.listOfDebt(scope.company.id, debt.id) };
  }
}

/** POST /reminder-templates/preview: exactly what the sending job would hand to the channel for that debt now. */
export class PreviewReminder {
  constructor(private readonly deps: { repos: Repositories; links: ReminderLinks }) {
    requireDeps('PreviewReminder', deps);
  }

  async execute(input: { channel: ReminderChannel; locale: Locale; debtId: string }, scope: TenantScope): Promise<ComposedMessage> {
    const { repos } = this.deps;
    const debt = await findDebt(repos.debts, input.debtId, scope);
    const contact = debt.contactId === null ? null : await repos.reminders.findContact(scope.organizationId, debt.contactId);
    return composeMessage({ reminders: repos.reminders, links: this.deps.links }, { company: scope.company, debt, contact, channel: input.channel, locale: input.locale });
  }
}

/** GET /test-helpers/messages?debtId=: what the sandbox sender delivered for the debt, oldest first. */
export class ListSandboxMessages {
  constructor(private readonly deps: { repos: Repositories; sandboxMessages: SandboxMessageLog }) {
    requireDeps('ListSandboxMessages', deps);
  }

  async execute(debtId: string, scope: TenantScope): Promise<{ debtId: string; messages: SandboxMessage[] }> {
    const debt = await findDebt(this.deps.repos.debts, debtId, scope);
    return { debtId: `debt_${debt.externalRequestId}`, messages: await this.deps.sandboxMessages.listOfDebt(scope.company.id, debt.id) };
  }
}

/** One line of `admin reminders`: a step of a debt whose local day is the date asked. */
export interface DueReminderLine {
  debtId: string;
  offsetDays: number;
  channel: ReminderChannel;
  dueDate: string;
  sendAt: Date;
  /** The reminder's status when it exists, `DUE` when the scheduler has not inserted it yet, `INELIGIBLE` with the reason otherwise. */
  state: string;
  reason: string | null;
}

/** `npm run admin -- reminders --company <CODE> --date <YYYY-MM-DD>`: what the company's policy sends on that local day. */
export class RemindersDue {
  constructor(private readonly deps: { repos: Repositories; clock: Clock }) {
    requireDeps('RemindersDue', deps);
  }

  async execute(companyCode: string, date: string, limit = 1000): Promise<{ company: Company; policy: ReminderPolicy; lines: DueReminderLine[] }> {
    if (!isCalendarDate(date)) throw InvalidRequestError.field('date', 'must be a date YYYY-MM-DD');
    const { repos } = this.deps;
    const company = await repos.tenancy.findCompanyByCode(companyCode);
    const organization = company && (await repos.tenancy.findOrganization(company.organizationId));
    if (!company || !organization) throw new NotFoundError('Company');
    const policy = (await repos.reminders.findPolicy(company.id)) ?? DEFAULT_POLICY;
    const today = utcDateOf(organizationClock(this.deps.clock, organization).now());
    const lines: DueReminderLine[] = [];
    for (const step of policy.steps) {
      const dueDate = addDays(date, -step.offsetDays);
      const candidates = await repos.reminders.candidates(company.id, dueDate, step.offsetDays, [...REMINDER_CHANNELS], limit);
      for (const candidate of candidates) {
        const debt = await repos.debts.findById(company.id, candidate.id);
        if (!debt) continue;
        const existing = await repos.reminders.listOfDebt(company.id, debt.id);
        for (const channel of step.channels) {
          const reminder = existing.find((r) => r.offsetDays === step.offsetDays && r.channel === channel);
          const reason = reminder ? null : ineligibility({ status: effectiveStatus(debt, today), autopay: debt.autopay }, step.offsetDays);
          lines.push({
            debtId: `debt_${debt.externalRequestId}`, offsetDays: step.offsetDays, channel, dueDate, sendAt: sendTimeOf(policy, dueDate, step.offsetDays),
            state: reminder ? reminder.status : reason ? 'INELIGIBLE' : 'DUE', reason: reminder?.failureReason ?? reason,
          });
        }
      }
    }
    return { company, policy, lines };
  }
}

function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** Reminders by channel and status (the metrics). */
export class ReminderCounts {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('ReminderCounts', deps);
  }

  execute() {
    return this.deps.repos.reminders.counts();
  }
}
