import type { Clock } from '../../../ports/clock';
import type { MessageSenders, PermanentSendFailure, SentMessage } from '../../../ports/message-sender';
import type { ReminderLinks } from '../../../ports/reminder-links';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { Contact } from '../../contacts/contact';
import { type Debt, effectiveStatus } from '../../debts/debt';
import { eventOf } from '../../events/domain-event';
import { utcDateOf } from '../../shared/calendar-date';
import { requireDeps } from '../../shared/use-case-deps';
import type { Company } from '../../tenancy/company';
import { loadWorkerScope } from '../../tenancy/worker-scope';
import { addressOf, composeMessage, type ComposedMessage, messageLocale, preferencesOf, recipientProblem } from '../message';
import { ineligibility, MAX_SEND_ATTEMPTS, type Reminder, reminderIdOf } from '../reminder';
import { QUEUED_LEASE_MS, SEND_LEASE_MS } from './schedule-reminders';

/**
 * The claims and finishes of a worker's sends under way at once (its queue consumer runs several
 * jobs side by side) share transactions (UnitOfWork.runGrouped): a group locks its reminders in
 * one statement, its debts in another, and reads each kind of what the messages need (companies,
 * contacts, preferences, policies, templates) once for all; the finishes write their events in one
 * INSERT. Each send still gets its own outcome, and a failing one is run again alone. One key for
 * every company: the works lock only their own reminders and debts.
 */
const REMINDER_GROUP = 'reminders.send';

export type SendOutcome = 'SENT' | 'FAILED' | 'SKIPPED' | 'NOTHING_TO_DO';

interface Claimed {
  reminder: Reminder;
  debt: Debt;
  contact: Contact;
  company: Company;
  message: ComposedMessage;
  to: string;
}

/**
 * The job `reminders.send` (docs/reminders.md): one reminder's message.
 * 1. In one transaction: lock the reminder; unless it is SCHEDULED (or a SENDING whose claim
 *    ran out: its worker died), nothing to do. Lock the debt and read it again on the
 *    organization's clock: no longer payable (paid, cancelled), an autopay debt, the contact's
 *    channel off or no address → SKIPPED with the reason, before anything goes out. Else claim it
 *    (SENDING, one more attempt, a lease) and render the message.
 * 2. Outside any transaction: hand it to the channel, with the reminder's code as the stable
 *    reference (a channel that sees it again keeps one message).
 * 3. In one transaction: SENT with the provider's id and `reminder.sent`; a PermanentSendFailure
 *    → FAILED with its reason and `reminder.failed`; any other error → SCHEDULED again and the
 *    error rethrown, so the queue retries with backoff; after MAX_SEND_ATTEMPTS → FAILED.
 * Steps 1 and 3 share their transaction with the other sends' of the moment (REMINDER_GROUP).
 */
export class SendReminder {
  /**
   * The reminders this process is sending (claim to finish). A second job of one of them (handed
   * again while the first still ran) has nothing to do, as the row's lock and lease tell a job of
   * another process: here the two claims could share a group, read the row together before
   * either wrote it, and both send.
   */
  private readonly underWay = new Set<number>();

  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; senders: MessageSenders; links: ReminderLinks }) {
    requireDeps('SendReminder', deps);
  }

  async execute(input: { reminderId: number }): Promise<{ outcome: SendOutcome }> {
    if (this.underWay.has(input.reminderId)) return { outcome: 'NOTHING_TO_DO' };
    this.underWay.add(input.reminderId);
    try {
      return await this.sendOnce(input.reminderId);
    } finally {
      this.underWay.delete(input.reminderId);
    }
  }

  private async sendOnce(reminderId: number): Promise<{ outcome: SendOutcome }> {
    const claimed = await this.claim(reminderId);
    if (claimed === 'SKIPPED' || claimed === null) return { outcome: claimed ?? 'NOTHING_TO_DO' };
    let sent: SentMessage;
    try {
      sent = await this.send(claimed);
    } catch (error) {
      const permanent = isPermanentFailure(error);
      if (permanent || claimed.reminder.attempts >= MAX_SEND_ATTEMPTS) {
        const reason = permanent ? error.reason : `gave up after ${claimed.reminder.attempts} attempts: ${(error as Error).message}`;
        await this.finish(claimed, 'FAILED', { failureReason: reason });
        return { outcome: 'FAILED' };
      }
      await this.deps.uow.run(({ reminders }) =>
        reminders.update(claimed.reminder, { status: 'SCHEDULED', leaseUntil: new Date(this.deps.clock.now().getTime() + QUEUED_LEASE_MS), updatedAt: claimed.reminder.updatedAt }),
      );
      throw error;
    }
    await this.finish(claimed, 'SENT', { providerMessageId: sent.providerMessageId });
    return { outcome: 'SENT' };
  }

  private async claim(reminderId: number): Promise<Claimed | 'SKIPPED' | null> {
    const real = this.deps.clock.now();
    return this.deps.uow.runGrouped(REMINDER_GROUP, async (tx) => {
      const reminder = await tx.reminders.lockById(reminderId);
      if (!reminder) return null;
      const reclaim = reminder.status === 'SENDING' && reminder.leaseUntil.getTime() <= real.getTime();
      if (reminder.status !== 'SCHEDULED' && !reclaim) return null;
      const scope = await loadWorkerScope(tx.tenancy, this.deps.clock, reminder.companyId);
      // The payment paths lock the debt too: a payment either committed before this read, or waits until the claim is done.
      const debt = scope && (await tx.debts.lockById(reminder.companyId, reminder.debtId));
      const now = scope ? scope.clock.now() : real;
      const skip = async (reason: string) => {
        await tx.reminders.update(reminder, { status: 'SKIPPED', failureReason: reason, updatedAt: now });
        return 'SKIPPED' as const;
      };
      if (!scope || !debt) return skip('the debt no longer exists');
      const notEligible = ineligibility({ status: effectiveStatus(debt, utcDateOf(now)), autopay: debt.autopay }, reminder.offsetDays);
      if (notEligible) return skip(notEligible);
      const contact = debt.contactId === null ? null : await tx.reminders.findContact(scope.organizationId, debt.contactId);
      const preferences = preferencesOf(contact ? await tx.reminders.findPreferences(contact.id) : null);
      const problem = recipientProblem(contact, preferences, reminder.channel);
      if (problem || !contact) return skip(problem ?? 'the debt has no contact');
      const to = addressOf(contact, reminder.channel)!;
      const policy = await tx.reminders.findPolicy(reminder.companyId);
      const message = await composeMessage(
        { reminders: tx.reminders, links: this.deps.links },
        { company: scope.company, debt, contact, channel: reminder.channel, locale: messageLocale(policy, scope.company, debt) },
      );
      const updated = await tx.reminders.update(reminder, {
        status: 'SENDING', attempts: reminder.attempts + 1, recipient: to, leaseUntil: new Date(real.getTime() + SEND_LEASE_MS), updatedAt: now,
      });
      return { reminder: updated, debt, contact, company: scope.company, message, to };
    });
  }

  private send({ reminder, company, message, to }: Claimed): Promise<SentMessage> {
    const reference = reminderIdOf(reminder);
    if (reminder.channel === 'email') {
      return this.deps.senders.email.send({
        to, fromName: company.name, subject: message.subject ?? '', text: message.body, html: message.html ?? '', unsubscribeUrl: message.unsubscribeUrl ?? '', reference,
      });
    }
    return this.deps.senders[reminder.channel].send({ channel: reminder.channel, to, body: message.body, reference });
  }

  private async finish(claimed: Claimed, status: 'SENT' | 'FAILED', result: { providerMessageId?: string; failureReason?: string }): Promise<void> {
    await this.deps.uow.runGrouped(REMINDER_GROUP, async ({ reminders, events, tenancy, debts }) => {
      const scope = await loadWorkerScope(tenancy, this.deps.clock, claimed.reminder.companyId);
      const now = scope ? scope.clock.now() : this.deps.clock.now();
      const reminder = await reminders.update(claimed.reminder, {
        status,
        sentAt: status === 'SENT' ? now : null,
        providerMessageId: result.providerMessageId ?? null,
        failureReason: result.failureReason ?? null,
        updatedAt: now,
      });
      const debt = await debts.findById(claimed.reminder.companyId, claimed.reminder.debtId);
      if (scope && debt) {
        await events.append([eventOf(scope, status === 'SENT' ? 'reminder.sent' : 'reminder.failed', { kind: 'reminder', reminder, debt }, now)]);
      }
    });
  }
}

/** The port's PermanentSendFailure (the core imports ports as types only, so it tells it by name). */
function isPermanentFailure(error: unknown): error is PermanentSendFailure {
  return error instanceof Error && error.name === 'PermanentSendFailure' && typeof (error as { reason?: unknown }).reason === 'string';
}
