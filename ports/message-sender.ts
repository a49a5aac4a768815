/**
 * The channels payment reminders go out on (decisions.md section 7): email, SMS and WhatsApp.
 * Adapters: the sandbox sender (what GET /test-helpers/messages reads), SMTP over nodemailer for
 * email, the Twilio Messages API for SMS and WhatsApp.
 */

export type MessageChannel = 'email' | 'sms' | 'whatsapp';

/** One email, rendered: both parts, and the one-click unsubscribe of RFC 8058. */
export interface OutgoingEmail {
  to: string;
  /** Display name of the sender (the company's name); the address is REMINDERS_FROM_EMAIL. */
  fromName: string;
  subject: string;
  text: string;
  html: string;
  /**
   * The hosted page that turns this channel off for the contact: sent as `List-Unsubscribe:
   * <url>` with `List-Unsubscribe-Post: List-Unsubscribe=One-Click`.
   */
  unsubscribeUrl: string;
  /** Stable per (debt, step, channel): the Message-ID's local part, so a resend is recognisable. */
  reference: string;
}

/** One SMS or WhatsApp message, rendered. */
export interface OutgoingText {
  channel: 'sms' | 'whatsapp';
  /** E.164 phone number. */
  to: string;
  body: string;
  /** Stable per (debt, step, channel). */
  reference: string;
  /** Where the provider reports delivery status, when the adapter supports it. */
  statusCallbackUrl?: string;
}

export interface SentMessage {
  /** The provider's id of the accepted message (Message-ID for SMTP, SM… for Twilio). */
  providerMessageId: string;
}

/**
 * A failure that retrying cannot fix (invalid number, unsubscribed recipient, rejected
 * address): the reminder becomes FAILED with `reason`. Any other error thrown by a sender is
 * transient, and the job that sends retries it with backoff.
 */
export class PermanentSendFailure extends Error {
  constructor(readonly reason: string) {
    super(reason);
    this.name = 'PermanentSendFailure';
  }
}

export interface EmailSender {
  send(message: OutgoingEmail): Promise<SentMessage>;
}

export interface TextSender {
  send(message: OutgoingText): Promise<SentMessage>;
}

/** The senders a worker uses, one per channel. */
export interface MessageSenders {
  email: EmailSender;
  sms: TextSender;
  whatsapp: TextSender;
}
