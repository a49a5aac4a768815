import type { MessageChannel } from '../../ports/message-sender';
import { type ErrorDetail, InvalidRequestError } from '../shared/errors';
import { isLocale, type Locale } from '../shared/locale';

export const REMINDER_CHANNELS = ['email', 'sms', 'whatsapp'] as const satisfies readonly MessageChannel[];
export type ReminderChannel = (typeof REMINDER_CHANNELS)[number];

export const MIN_OFFSET_DAYS = -30;
export const MAX_OFFSET_DAYS = 90;
export const MAX_STEPS = 10;

export interface ReminderStep {
  /** Days after the due date (negative: before it). */
  offsetDays: number;
  channels: ReminderChannel[];
}

/** A local time of day, `HH:MM`, as minutes after midnight. */
export interface SendWindow {
  from: string;
  to: string;
}

/** How a company reminds its debtors (decisions.md section 7). */
export interface ReminderPolicy {
  enabled: boolean;
  /** IANA time zone the send window and the step days are read in. */
  timeZone: string;
  sendWindow: SendWindow;
  steps: ReminderStep[];
  /** The locale messages are written in; null: the company's (its default currency's, else the debt's). */
  locale: Locale | null;
}

export interface StoredReminderPolicy extends ReminderPolicy {
  organizationId: number;
  companyId: number;
  updatedAt: Date;
}

/** What a company without a policy has: nothing is sent. */
export const DEFAULT_POLICY: ReminderPolicy = {
  enabled: false,
  timeZone: 'America/Mexico_City',
  sendWindow: { from: '09:00', to: '20:00' },
  steps: [],
  locale: null,
};

const HH_MM = /^([01]\d|2[0-3]):([0-5]\d)$/;

export function minutesOf(hhmm: string): number {
  const m = HH_MM.exec(hhmm);
  if (!m) throw new Error(`not a HH:MM time: ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
}

/** Whether the runtime knows `timeZone` as an IANA zone name (offsets like `+05:00` are refused). */
export function isTimeZone(timeZone: unknown): timeZone is string {
  if (typeof timeZone !== 'string' || !/^[A-Za-z][A-Za-z0-9_+-]*(\/[A-Za-z0-9_+-]+)*$/.test(timeZone)) return false;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone }).format(0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rules a schema cannot state (the HTTP schema checks types, ranges and enums first): a real
 * IANA zone, a window that ends after it starts, unique offsets, no channel twice in a step.
 */
export function policyProblems(policy: ReminderPolicy): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  if (!isTimeZone(policy.timeZone)) problems.push({ field: 'timeZone', issue: 'must be an IANA time zone such as America/Mexico_City' });
  if (!HH_MM.test(policy.sendWindow.from)) problems.push({ field: 'sendWindow.from', issue: 'must be a time HH:MM' });
  if (!HH_MM.test(policy.sendWindow.to)) problems.push({ field: 'sendWindow.to', issue: 'must be a time HH:MM' });
  else if (HH_MM.test(policy.sendWindow.from) && minutesOf(policy.sendWindow.to) <= minutesOf(policy.sendWindow.from)) {
    problems.push({ field: 'sendWindow.to', issue: 'must be later than sendWindow.from' });
  }
  if (policy.steps.length > MAX_STEPS) problems.push({ field: 'steps', issue: `must have at most ${MAX_STEPS} steps` });
  const seen = new Set<number>();
  policy.steps.forEach((step, i) => {
    if (!Number.isInteger(step.offsetDays) || step.offsetDays < MIN_OFFSET_DAYS || step.offsetDays > MAX_OFFSET_DAYS) {
      problems.push({ field: `steps[${i}].offsetDays`, issue: `must be an integer from ${MIN_OFFSET_DAYS} to ${MAX_OFFSET_DAYS}` });
    } else if (seen.has(step.offsetDays)) {
      problems.push({ field: `steps[${i}].offsetDays`, issue: 'must be unique within the policy' });
    }
    seen.add(step.offsetDays);
    if (step.channels.length === 0) problems.push({ field: `steps[${i}].channels`, issue: 'must have at least 1 channel' });
    step.channels.forEach((channel, j) => {
      if (!(REMINDER_CHANNELS as readonly string[]).includes(channel)) problems.push({ field: `steps[${i}].channels[${j}]`, issue: 'must be email, sms or whatsapp' });
      else if (step.channels.indexOf(channel) !== j) problems.push({ field: `steps[${i}].channels[${j}]`, issue: 'must not repeat a channel' });
    });
  });
  if (policy.locale !== null && !isLocale(policy.locale)) problems.push({ field: 'locale', issue: 'must be a supported locale' });
  return problems;
}

export function assertValidPolicy(policy: ReminderPolicy): void {
  const problems = policyProblems(policy);
  if (problems.length > 0) throw new InvalidRequestError(problems.map((p) => `${p.field}: ${p.issue}`).join('; '), problems);
}
