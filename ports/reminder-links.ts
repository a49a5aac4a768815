import type { ReminderChannel } from '../internal/reminders/reminder-policy';

/** The hosted pages a reminder links to. */
export interface ReminderLinks {
  /** The debt's payment page (its paymentUrl); null when the portal cannot give one. */
  debtUrl(debt: { companyCode: string; debtId: string }): string | null;
  /** The one-click unsubscribe page of one contact and channel (RFC 8058), signed. */
  unsubscribeUrl(target: UnsubscribeTarget): string;
}

export interface UnsubscribeTarget {
  companyCode: string;
  /** The contact's code (its contactId without the `con_` prefix). */
  contactCode: string;
  channel: ReminderChannel;
}
