import type { DebtStatus } from '../debts/debt';
import type { ReminderChannel } from './reminder-policy';

/**
 * The stored status. SENDING is a claimed reminder whose message is being handed to the channel:
 * it reads SCHEDULED (the message has not gone out as far as anyone can tell yet).
 */
export const STORED_REMINDER_STATUSES = ['SCHEDULED', 'SENDING', 'SENT', 'FAILED', 'SKIPPED'] as const;
export type StoredReminderStatus = (typeof STORED_REMINDER_STATUSES)[number];
export const REMINDER_STATUSES = ['SCHEDULED', 'SENT', 'FAILED', 'SKIPPED'] as const;
export type ReminderStatus = (typeof REMINDER_STATUSES)[number];

/** One message of one step of a company's policy for one debt, on one channel: at most one per (debt, offsetDays, channel). */
export interface Reminder {
  id: number;
  organizationId: number;
  companyId: number;
  debtId: number;
  /** Public id without its `rem_` prefix; also the message's stable reference. */
  code: string;
  offsetDays: number;
  channel: ReminderChannel;
  status: StoredReminderStatus;
  scheduledFor: Date;
  sentAt: Date | null;
  /** The address or phone the message went (or would go) to; null until it is known. */
  recipient: string | null;
  providerMessageId: string | null;
  failureReason: string | null;
  /** Claims so far (each send attempt claims once). */
  attempts: number;
  /** Real time after which a SCHEDULED or SENDING reminder is handed to the queue again (a lost job, a killed worker). */
  leaseUntil: Date;
  createdAt: Date;
  updatedAt: Date;
}

/** What a step of a reminder's life sets (claim, outcome, hand-over); updatedAt always. */
export interface ReminderChanges {
  status?: StoredReminderStatus;
  sentAt?: Date | null;
  recipient?: string | null;
  providerMessageId?: string | null;
  failureReason?: string | null;
  attempts?: number;
  leaseUntil?: Date;
  updatedAt: Date;
}

/** A failure reason is kept to this many characters. */
export const FAILURE_REASON_MAX_LENGTH = 500;

/** The reminder with the changes made, as it is then stored. */
export function withChanges(reminder: Reminder, changes: ReminderChanges): Reminder {
  const next: Reminder = { ...reminder, updatedAt: changes.updatedAt };
  if (changes.status !== undefined) next.status = changes.status;
  if (changes.sentAt !== undefined) next.sentAt = changes.sentAt;
  if (changes.recipient !== undefined) next.recipient = changes.recipient;
  if (changes.providerMessageId !== undefined) next.providerMessageId = changes.providerMessageId;
  if (changes.failureReason !== undefined) next.failureReason = changes.failureReason === null ? null : changes.failureReason.slice(0, FAILURE_REASON_MAX_LENGTH);
  if (changes.attempts !== undefined) next.attempts = changes.attempts;
  if (changes.leaseUntil !== undefined) next.leaseUntil = changes.leaseUntil;
  return next;
}

export const REMINDER_ID_PREFIX = 'rem_';
export const REMINDER_CODE_LENGTH = 24;

export function reminderIdOf(reminder: Pick<Reminder, 'code'>): string {
  return REMINDER_ID_PREFIX + reminder.code;
}

export function publicReminderStatus(status: StoredReminderStatus): ReminderStatus {
  return status === 'SENDING' ? 'SCHEDULED' : status;
}

/** Send attempts before a reminder whose channel keeps failing transiently is FAILED. */
export const MAX_SEND_ATTEMPTS = 5;

/** Debts that are reminded: those that can still be paid. */
export const PAYABLE_STATUSES: readonly DebtStatus[] = ['PENDING', 'PARTIALLY_PAID', 'OVERDUE'];

/**
 * Why a debt (in its effective status) gets no message of a step, or null when it gets one:
 * it is payable; steps after the due date only for an OVERDUE debt; autopay debts get none
 * before or on the due date (they are debited then).
 */
export function ineligibility(debt: { status: DebtStatus; autopay: boolean }, offsetDays: number): string | null {
  if (!PAYABLE_STATUSES.includes(debt.status)) return `the debt is ${debt.status}`;
  if (offsetDays >= 1 && debt.status !== 'OVERDUE') return `the debt is ${debt.status}, not OVERDUE`;
  if (offsetDays <= 0 && debt.autopay) return 'the debt is paid by autopay';
  return null;
}

/** `ma***@example.com`, `+52******5678`: enough to recognise, not to contact. */
export function maskRecipient(recipient: string | null): string | null {
  if (recipient === null) return null;
  const at = recipient.indexOf('@');
  if (at > 0) {
    const local = recipient.slice(0, at);
    return `${local.slice(0, Math.min(2, local.length - 1))}***${recipient.slice(at)}`;
  }
  const chars = [...recipient];
  if (chars.length <= 4) return '*'.repeat(chars.length);
  const keepStart = recipient.startsWith('+') ? 3 : 0;
  return chars.map((c, i) => (i < keepStart || i >= chars.length - 4 || !/\d/.test(c) ? c : '*')).join('');
}
