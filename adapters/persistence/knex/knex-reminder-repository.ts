import type { Knex } from 'knex';
import type { Contact } from '../../../internal/contacts/contact';
import type { DebtStatus } from '../../../internal/debts/debt';
import { PAYABLE_STATUSES, type Reminder, type StoredReminderStatus, withChanges } from '../../../internal/reminders/reminder';
import type { ReminderChannel, ReminderPolicy, ReminderStep, StoredReminderPolicy } from '../../../internal/reminders/reminder-policy';
import type { ReminderTemplate } from '../../../internal/reminders/template';
import type { Locale } from '../../../internal/shared/locale';
import type {
  CommunicationPreferences, NewReminder, ReminderCandidate, ReminderChanges, ReminderCount, ReminderRepository,
} from '../../../ports/reminder-repository';
import { sqlDialect } from './dialect';
import { lookUp } from './shared-transaction';
import { KnexContactRepository } from './knex-contact-repository';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, any>;

export class KnexReminderRepository implements ReminderRepository {
  constructor(private readonly db: Knex | Knex.Transaction) {}

  async savePolicy(organizationId: number, companyId: number, policy: ReminderPolicy, at: Date): Promise<StoredReminderPolicy> {
    const row = {
      company_id: companyId,
      organization_id: organizationId,
      enabled: policy.enabled,
      time_zone: policy.timeZone,
      window_from: policy.sendWindow.from,
      window_to: policy.sendWindow.to,
      steps: JSON.stringify(policy.steps),
      locale: policy.locale,
      updated_at: toMillis(at),
    };
    await this.db('reminder_policies').insert(row).onConflict('company_id').merge();
    return (await this.findPolicy(companyId))!;
  }

  findPolicy(companyId: number): Promise<StoredReminderPolicy | null> {
    // Here and below, with the reads of the same moment or of the shared transaction (lookUp): a group of sends' claims reads each kind in one SELECT.
    return lookUp(this.db, 'reminder policies', String(companyId), async (keys, db) =>
      byKey(await db('reminder_policies').whereIn('company_id', keys.map(Number)), (row) => String(row.company_id), toPolicy),
    );
  }

  async listEnabledPolicies(): Promise<StoredReminderPolicy[]> {
    const rows = await this.db('reminder_policies').where({ enabled: true }).orderBy('company_id');
    return rows.map(toPolicy);
  }

  async saveTemplate(template: ReminderTemplate): Promise<ReminderTemplate> {
    await this.db('reminder_templates')
      .insert({ company_id: template.companyId, channel: template.channel, locale: template.locale, subject: template.subject, body: template.body, updated_at: toMillis(template.updatedAt) })
      .onConflict(['company_id', 'channel', 'locale'])
      .merge(['subject', 'body', 'updated_at']);
    return (await this.findTemplate(template.companyId, template.channel, template.locale))!;
  }

  findTemplate(companyId: number, channel: ReminderChannel, locale: Locale): Promise<ReminderTemplate | null> {
    return lookUp(this.db, `reminder templates of ${companyId}`, `${channel} ${locale}`, async (keys, db) => {
      const rows = await db('reminder_templates')
        .where('company_id', companyId)
        .whereIn(['channel', 'locale'], keys.map((key) => key.split(' ')));
      return byKey(rows, (row) => `${row.channel} ${row.locale}`, (row): ReminderTemplate => ({
        companyId: Number(row.company_id), channel: row.channel, locale: row.locale, subject: row.subject ?? null, body: row.body, updatedAt: fromMillis(row.updated_at),
      }));
    });
  }

  findPreferences(contactId: number): Promise<CommunicationPreferences | null> {
    return lookUp(this.db, 'contact preferences', String(contactId), async (keys, db) =>
      byKey(await db('contact_preferences').whereIn('contact_id', keys.map(Number)), (row) => String(row.contact_id), (row) => ({
        email: bool(row.email), sms: bool(row.sms), whatsapp: bool(row.whatsapp),
      })),
    );
  }

  async savePreferences(contactId: number, preferences: CommunicationPreferences, at: Date): Promise<void> {
    await this.db('contact_preferences')
      .insert({ contact_id: contactId, email: preferences.email, sms: preferences.sms, whatsapp: preferences.whatsapp, updated_at: toMillis(at) })
      .onConflict('contact_id')
      .merge();
  }

  async findContact(organizationId: number, contactId: number): Promise<Contact | null> {
    return new KnexContactRepository(this.db).findById(organizationId, contactId);
  }

  async candidates(
    companyId: number, dueDate: string, offsetDays: number, channels: ReminderChannel[], limit: number,
    options: { afterId?: number; excludeAutopay?: boolean } = {},
  ): Promise<ReminderCandidate[]> {
    const query = this.db('debts as d')
      .where('d.company_id', companyId)
      .whereIn('d.status', PAYABLE_STATUSES as DebtStatus[])
      .where('d.due_date', dueDate)
      // Uses the unique key (debt_id, offset_days, channel) per debt of the range.
      .whereRaw(
        `(select count(*) from reminders r where r.debt_id = d.id and r.offset_days = ? and r.channel in (${channels.map(() => '?').join(', ')})) < ?`,
        [offsetDays, ...channels, channels.length],
      )
      .where('d.id', '>', options.afterId ?? 0)
      .select('d.id', 'd.status', 'd.due_date', 'd.autopay')
      .orderBy('d.id')
      .limit(limit);
    if (options.excludeAutopay) query.where('d.autopay', false);
    const rows = await query;
    return rows.map((r: Row) => ({ id: Number(r.id), status: r.status as DebtStatus, dueDate: r.due_date, autopay: bool(r.autopay) }));
  }

  async insertMissing(reminders: NewReminder[]): Promise<Reminder[]> {
    if (reminders.length === 0) return [];
    await this.db('reminders').insert(reminders.map(toRow)).onConflict(['debt_id', 'offset_days', 'channel']).ignore();
    const rows = await this.db('reminders').whereIn('code', reminders.map((r) => r.code)).orderBy('id');
    return rows.map(toReminder);
  }

  async findById(id: number): Promise<Reminder | null> {
    const row = await this.db('reminders').where({ id }).first();
    return row ? toReminder(row) : null;
  }

  lockById(id: number): Promise<Reminder | null> {
    return lookUp(this.db, 'reminders locked', String(id), async (keys, db) =>
      byKey(await sqlDialect(db).lockRows(db('reminders').whereIn('id', keys.map(Number)).orderBy('id')), (row) => String(row.id), toReminder),
    );
  }

  async update(current: Reminder, changes: ReminderChanges): Promise<Reminder> {
    const next = withChanges(current, changes);
    const patch: Row = { updated_at: toMillis(next.updatedAt) };
    if (changes.status !== undefined) patch.status = next.status;
    if (changes.sentAt !== undefined) patch.sent_at = toMillisOrNull(next.sentAt);
    if (changes.recipient !== undefined) patch.recipient = next.recipient;
    if (changes.providerMessageId !== undefined) patch.provider_message_id = next.providerMessageId;
    if (changes.failureReason !== undefined) patch.failure_reason = next.failureReason;
    if (changes.attempts !== undefined) patch.attempts = next.attempts;
    if (changes.leaseUntil !== undefined) patch.lease_until = toMillis(next.leaseUntil);
    // Matched rows (mysql2 asks for FOUND_ROWS): 0 only when the reminder is gone.
    const matched = await this.db('reminders').where({ id: current.id }).update(patch);
    if (matched === 0) throw new Error(`reminder ${current.id} vanished during update`);
    return next;
  }

  async listOfDebt(companyId: number, debtId: number): Promise<Reminder[]> {
    const rows = await this.db('reminders').where({ company_id: companyId, debt_id: debtId }).orderBy([{ column: 'scheduled_for' }, { column: 'id' }]);
    return rows.map(toReminder);
  }

  async listStale(now: Date, limit: number): Promise<Reminder[]> {
    const rows = await this.db('reminders')
      .whereIn('status', ['SCHEDULED', 'SENDING'])
      .where('lease_until', '<=', toMillis(now))
      .orderBy('lease_until')
      .limit(limit);
    return rows.map(toReminder);
  }

  async counts(): Promise<ReminderCount[]> {
    const rows = await this.db('reminders').select('channel', 'status').count({ count: '*' }).groupBy('channel', 'status');
    return rows.map((r: Row) => ({ channel: r.channel as ReminderChannel, status: r.status as StoredReminderStatus, count: Number(r.count) }));
  }
}

function toPolicy(row: Row): StoredReminderPolicy {
  return {
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    enabled: bool(row.enabled),
    timeZone: row.time_zone,
    sendWindow: { from: row.window_from, to: row.window_to },
    steps: JSON.parse(row.steps) as ReminderStep[],
    locale: (row.locale ?? null) as Locale | null,
    updatedAt: fromMillis(row.updated_at),
  };
}

function toRow(r: NewReminder): Row {
  return {
    organization_id: r.organizationId,
    company_id: r.companyId,
    debt_id: r.debtId,
    code: r.code,
    offset_days: r.offsetDays,
    channel: r.channel,
    status: r.status,
    scheduled_for: toMillis(r.scheduledFor),
    sent_at: toMillisOrNull(r.sentAt),
    recipient: r.recipient,
    provider_message_id: r.providerMessageId,
    failure_reason: r.failureReason,
    attempts: r.attempts,
    lease_until: toMillis(r.leaseUntil),
    created_at: toMillis(r.createdAt),
    updated_at: toMillis(r.updatedAt),
  };
}

function toReminder(row: Row): Reminder {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    companyId: Number(row.company_id),
    debtId: Number(row.debt_id),
    code: row.code,
    offsetDays: Number(row.offset_days),
    channel: row.channel as ReminderChannel,
    status: row.status as StoredReminderStatus,
    scheduledFor: fromMillis(row.scheduled_for),
    sentAt: fromMillisOrNull(row.sent_at),
    recipient: row.recipient ?? null,
    providerMessageId: row.provider_message_id ?? null,
    failureReason: row.failure_reason ?? null,
    attempts: Number(row.attempts),
    leaseUntil: fromMillis(row.lease_until),
    createdAt: fromMillis(row.created_at),
    updatedAt: fromMillis(row.updated_at),
  };
}

/** What lookUp answers: each row's value under its key. */
function byKey<T>(rows: Row[], keyOf: (row: Row) => string, toValue: (row: Row) => T): Map<string, T> {
  return new Map(rows.map((row) => [keyOf(row), toValue(row)]));
}
