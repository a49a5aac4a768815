import type { Contact } from '../../../internal/contacts/contact';
import { PAYABLE_STATUSES, type Reminder, REMINDER_ID_PREFIX, withChanges } from '../../../internal/reminders/reminder';
import type { ReminderChannel, ReminderPolicy, StoredReminderPolicy } from '../../../internal/reminders/reminder-policy';
import type { ReminderTemplate } from '../../../internal/reminders/template';
import type { Locale } from '../../../internal/shared/locale';
import type {
  CommunicationPreferences, NewReminder, ReminderCandidate, ReminderChanges, ReminderCount, ReminderRepository,
} from '../../../ports/reminder-repository';
import type { SandboxMessage, SandboxMessageLog } from '../../../ports/sandbox-message-log';
import { copy, type MemoryStore } from './memory-store';

/** Transactions run one at a time here, so a lock is the transaction itself. */
export class MemoryReminderRepository implements ReminderRepository {
  constructor(private readonly store: MemoryStore) {}

  private get t() {
    return this.store.tables;
  }

  async savePolicy(organizationId: number, companyId: number, policy: ReminderPolicy, at: Date): Promise<StoredReminderPolicy> {
    const stored: StoredReminderPolicy = { ...copy(policy), organizationId, companyId, updatedAt: new Date(at.getTime()) };
    this.t.reminderPolicies = this.t.reminderPolicies.filter((p) => p.companyId !== companyId).concat(stored);
    return copy(stored);
  }

  async findPolicy(companyId: number): Promise<StoredReminderPolicy | null> {
    return copy(this.t.reminderPolicies.find((p) => p.companyId === companyId) ?? null);
  }

  async listEnabledPolicies(): Promise<StoredReminderPolicy[]> {
    return copy(this.t.reminderPolicies.filter((p) => p.enabled).sort((a, b) => a.companyId - b.companyId));
  }

  async saveTemplate(template: ReminderTemplate): Promise<ReminderTemplate> {
    const same = (t: ReminderTemplate) => t.companyId === template.companyId && t.channel === template.channel && t.locale === template.locale;
    this.t.reminderTemplates = this.t.reminderTemplates.filter((t) => !same(t)).concat(copy(template));
    return copy(template);
  }

  async findTemplate(companyId: number, channel: ReminderChannel, locale: Locale): Promise<ReminderTemplate | null> {
    return copy(this.t.reminderTemplates.find((t) => t.companyId === companyId && t.channel === channel && t.locale === locale) ?? null);
  }

  async findPreferences(contactId: number): Promise<CommunicationPreferences | null> {
    const found = this.t.contactPreferences.find((p) => p.contactId === contactId);
    return found ? { email: found.email, sms: found.sms, whatsapp: found.whatsapp } : null;
  }

  async savePreferences(contactId: number, preferences: CommunicationPreferences, _at: Date): Promise<void> {
    this.t.contactPreferences = this.t.contactPreferences.filter((p) => p.contactId !== contactId).concat({ ...preferences, contactId });
  }

  async findContact(organizationId: number, contactId: number): Promise<Contact | null> {
    return copy(this.t.contacts.find((c) => c.organizationId === organizationId && c.id === contactId) ?? null);
  }

  async candidates(
    companyId: number, dueDate: string, offsetDays: number, channels: ReminderChannel[], limit: number,
    options: { afterId?: number; excludeAutopay?: boolean } = {},
  ): Promise<ReminderCandidate[]> {
    return this.t.debts
      .filter((d) => d.companyId === companyId && d.dueDate === dueDate && PAYABLE_STATUSES.includes(d.status))
      .filter((d) => d.id > (options.afterId ?? 0) && !(options.excludeAutopay && d.autopay))
      .filter((d) => this.t.reminders.filter((r) => r.debtId === d.id && r.offsetDays === offsetDays && channels.includes(r.channel)).length < channels.length)
      .sort((a, b) => a.id - b.id)
      .slice(0, limit)
      .map((d) => ({ id: d.id, status: d.status, dueDate: d.dueDate, autopay: d.autopay }));
  }

  async insertMissing(reminders: NewReminder[]): Promise<Reminder[]> {
    const inserted: Reminder[] = [];
    for (const reminder of reminders) {
      const taken = this.t.reminders.some(
        (r) => r.code === reminder.code || (r.debtId === reminder.debtId && r.offsetDays === reminder.offsetDays && r.channel === reminder.channel),
      );
      if (taken) continue;
      const stored = { ...copy(reminder), id: this.store.nextId() };
      this.t.reminders.push(stored);
      inserted.push(copy(stored));
    }
    return inserted;
  }

  async findById(id: number): Promise<Reminder | null> {
    return copy(this.t.reminders.find((r) => r.id === id) ?? null);
  }

  lockById(id: number): Promise<Reminder | null> {
    return this.findById(id);
  }

  async update(current: Reminder, changes: ReminderChanges): Promise<Reminder> {
    const row = this.t.reminders.find((r) => r.id === current.id);
    if (!row) throw new Error(`reminder ${current.id} not found`);
    const next = withChanges(current, changes);
    // Only the fields changed, as the SQL UPDATE writes them.
    for (const key of Object.keys(changes) as (keyof typeof changes)[]) if (changes[key] !== undefined) (row as unknown as Record<string, unknown>)[key] = copy(next[key]);
    return copy(next);
  }

  async listOfDebt(companyId: number, debtId: number): Promise<Reminder[]> {
    return copy(
      this.t.reminders
        .filter((r) => r.companyId === companyId && r.debtId === debtId)
        .sort((a, b) => a.scheduledFor.getTime() - b.scheduledFor.getTime() || a.id - b.id),
    );
  }

  async listStale(now: Date, limit: number): Promise<Reminder[]> {
    return copy(
      this.t.reminders
        .filter((r) => (r.status === 'SCHEDULED' || r.status === 'SENDING') && r.leaseUntil.getTime() <= now.getTime())
        .sort((a, b) => a.leaseUntil.getTime() - b.leaseUntil.getTime())
        .slice(0, limit),
    );
  }

  async counts(): Promise<ReminderCount[]> {
    const counts = new Map<string, ReminderCount>();
    for (const r of this.t.reminders) {
      const key = `${r.channel}/${r.status}`;
      const entry = counts.get(key) ?? { channel: r.channel, status: r.status, count: 0 };
      entry.count++;
      counts.set(key, entry);
    }
    return [...counts.values()];
  }
}

export class MemorySandboxMessageLog implements SandboxMessageLog {
  constructor(private readonly store: MemoryStore) {}

  async record(message: SandboxMessage): Promise<SandboxMessage> {
    const existing = this.store.tables.sandboxMessages.find((m) => m.reference === message.reference);
    if (existing) return copy(existing);
    this.store.tables.sandboxMessages.push(copy(message));
    return copy(message);
  }

  async listOfDebt(companyId: number, debtId: number): Promise<SandboxMessage[]> {
    // The reminder's sentAt (the organization's clock, sandbox-frozen or not) when it has one.
    const sentAt = new Map(
      this.store.tables.reminders.filter((r) => r.companyId === companyId && r.debtId === debtId).map((r) => [REMINDER_ID_PREFIX + r.code, r.sentAt] as const),
    );
    return copy(
      this.store.tables.sandboxMessages
        .filter((m) => sentAt.has(m.reference))
        .map((m) => ({ ...m, sentAt: sentAt.get(m.reference) ?? m.sentAt }))
        .sort((a, b) => a.sentAt.getTime() - b.sentAt.getTime()),
    );
  }

  async countByReference(reference: string): Promise<number> {
    return this.store.tables.sandboxMessages.filter((m) => m.reference === reference).length;
  }
}
