import type { Contact } from '../internal/contacts/contact';
import type { DebtStatus } from '../internal/debts/debt';
import type { Reminder, ReminderChanges, StoredReminderStatus } from '../internal/reminders/reminder';
import type { ReminderChannel, ReminderPolicy, StoredReminderPolicy } from '../internal/reminders/reminder-policy';
import type { ReminderTemplate } from '../internal/reminders/template';
import type { Locale } from '../internal/shared/locale';

export type NewReminder = Omit<Reminder, 'id'>;

/** A contact's channels; absent: all on (the address or phone decides). */
export interface CommunicationPreferences {
  email: boolean;
  sms: boolean;
  whatsapp: boolean;
}

/** A debt the scheduler may remind: what the eligibility rules read. */
export interface ReminderCandidate {
  id: number;
  status: DebtStatus;
  dueDate: string;
  autopay: boolean;
}

export type { ReminderChanges };

/** Reminders by channel and status (metrics), across every company. */
export interface ReminderCount {
  channel: ReminderChannel;
  status: StoredReminderStatus;
  count: number;
}

/** Payment reminders (docs/reminders.md): policies, templates, contact preferences and the reminders themselves. */
export interface ReminderRepository {
  savePolicy(organizationId: number, companyId: number, policy: ReminderPolicy, at: Date): Promise<StoredReminderPolicy>;
  findPolicy(companyId: number): Promise<StoredReminderPolicy | null>;
  /** Every enabled policy (one per company that reminds), by company id. */
  listEnabledPolicies(): Promise<StoredReminderPolicy[]>;

  saveTemplate(template: ReminderTemplate): Promise<ReminderTemplate>;
  findTemplate(companyId: number, channel: ReminderChannel, locale: Locale): Promise<ReminderTemplate | null>;

  findPreferences(contactId: number): Promise<CommunicationPreferences | null>;
  savePreferences(contactId: number, preferences: CommunicationPreferences, at: Date): Promise<void>;
  /** A contact by its internal number, within the organization. */
  findContact(organizationId: number, contactId: number): Promise<Contact | null>;

  /**
   * Up to `limit` of the company's debts in a payable stored status (PENDING, PARTIALLY_PAID,
   * OVERDUE) due on `dueDate` that lack a reminder of (offsetDays, channel) for one of `channels`,
   * by id after `afterId` (a cursor), without autopay debts when `excludeAutopay`: an index range
   * of (company, status, due date), never a scan of the company's debts.
   */
  candidates(
    companyId: number, dueDate: string, offsetDays: number, channels: ReminderChannel[], limit: number,
    options?: { afterId?: number; excludeAutopay?: boolean },
  ): Promise<ReminderCandidate[]>;
  /**
   * Inserts the reminders whose (debt, offsetDays, channel) is not taken and skips the others (a
   * concurrent scheduler inserted them: the unique key decides); returns those this call inserted.
   */
  insertMissing(reminders: NewReminder[]): Promise<Reminder[]>;
  findById(id: number): Promise<Reminder | null>;
  /** Reads the reminder and locks it until the transaction ends. */
  lockById(id: number): Promise<Reminder | null>;
  /**
   * Writes the changes to `current` (the reminder as the caller read it: under its lock, or as
   * its own claim left it) and returns `withChanges(current, changes)`, what the row now holds,
   * without reading it again.
   */
  update(current: Reminder, changes: ReminderChanges): Promise<Reminder>;
  /** The debt's reminders, by scheduledFor then id. */
  listOfDebt(companyId: number, debtId: number): Promise<Reminder[]>;
  /** Up to `limit` SCHEDULED or SENDING reminders whose lease ended at or before `now` (real time), oldest lease first. */
  listStale(now: Date, limit: number): Promise<Reminder[]>;
  counts(): Promise<ReminderCount[]>;
}
