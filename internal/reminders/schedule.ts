import { addDaysToDate } from '../shared/calendar-date';
import { minutesOf, type ReminderChannel, type ReminderPolicy } from './reminder-policy';
import { localTimeOf, zonedInstant } from './zoned-time';

/** One step due now: the debts due on `dueDate` get it on each of `channels`, scheduled for `scheduledFor`. */
export interface DueStep {
  offsetDays: number;
  channels: ReminderChannel[];
  /** The local day the step is sent on. */
  day: string;
  dueDate: string;
  /** The start of that day's send window. */
  scheduledFor: Date;
}

/** Days back the scheduler still sends a step it missed (the worker away for a window): yesterday's. */
export const CATCH_UP_DAYS = 1;

/**
 * The steps due at `now` under the policy (decisions.md section 7): nothing outside the send
 * window in the policy's zone; inside it, every step whose local day (dueDate + offsetDays) is
 * today, and, once, yesterday's (a step whose day passed more than one day ago is never sent).
 * The scheduler inserts the reminders of these steps that do not exist yet, so a debt or policy
 * that appears later inside the window is reminded at once.
 */
export function dueSteps(policy: Pick<ReminderPolicy, 'enabled' | 'timeZone' | 'sendWindow' | 'steps'>, now: Date): DueStep[] {
  if (!policy.enabled || policy.steps.length === 0) return [];
  const local = localTimeOf(now, policy.timeZone);
  const from = minutesOf(policy.sendWindow.from);
  if (local.minutes < from || local.minutes >= minutesOf(policy.sendWindow.to)) return [];
  const due: DueStep[] = [];
  for (let back = CATCH_UP_DAYS; back >= 0; back--) {
    const day = addDaysToDate(local.date, -back);
    const scheduledFor = zonedInstant(day, from, policy.timeZone);
    for (const step of policy.steps) {
      due.push({ offsetDays: step.offsetDays, channels: [...step.channels], day, dueDate: addDaysToDate(day, -step.offsetDays), scheduledFor });
    }
  }
  return due;
}

/** When a step of a debt due on `dueDate` is sent: the start of the window of its local day. */
export function sendTimeOf(policy: Pick<ReminderPolicy, 'timeZone' | 'sendWindow'>, dueDate: string, offsetDays: number): Date {
  return zonedInstant(addDaysToDate(dueDate, offsetDays), minutesOf(policy.sendWindow.from), policy.timeZone);
}
