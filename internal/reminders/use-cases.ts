import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { MessageSenders } from '../../ports/message-sender';
import type { ReminderLinks } from '../../ports/reminder-links';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import type { DispatchOutbox } from '../shared/jobs/dispatch-outbox';
import { SaveReminderPolicy, SaveReminderTemplate, SetCommunicationPreferences, UnsubscribeContact } from './commands/reminder-commands';
import { ScheduleReminders } from './jobs/schedule-reminders';
import { SendReminder } from './jobs/send-reminder';
import { GetReminderPolicy, ListDebtReminders, ListSandboxMessages, PreviewReminder, ReminderCounts, RemindersDue } from './queries/reminder-queries';

/**
 * The use cases of payment reminders (docs/reminders.md), wired once and merged into the
 * application's commands, queries and jobs (internal/application.ts).
 */
export function reminderUseCases(base: {
  uow: UnitOfWork;
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
  /** The process's one outbox dispatcher: the scheduler hands each chunk's send jobs over through it. */
  dispatchOutbox: DispatchOutbox;
  senders: MessageSenders;
  reminderLinks: ReminderLinks;
}) {
  const links = base.reminderLinks;
  return {
    commands: {
      saveReminderPolicy: new SaveReminderPolicy(base),
      saveReminderTemplate: new SaveReminderTemplate(base),
      setCommunicationPreferences: new SetCommunicationPreferences(base),
      unsubscribeContact: new UnsubscribeContact(base),
    },
    queries: {
      getReminderPolicy: new GetReminderPolicy(base),
      listDebtReminders: new ListDebtReminders(base),
      previewReminder: new PreviewReminder({ ...base, links }),
      listSandboxMessages: new ListSandboxMessages({ ...base, sandboxMessages: base.repos.sandboxMessages }),
      remindersDue: new RemindersDue(base),
      reminderCounts: new ReminderCounts(base),
    },
    jobs: {
      scheduleReminders: new ScheduleReminders(base),
      sendReminder: new SendReminder({ ...base, links }),
    },
  };
}
