import type { MessageChannel } from './message-sender';

/** A message the sandbox sender delivered (decisions.md section 7: GET /test-helpers/messages). */
export interface SandboxMessage {
  channel: MessageChannel;
  to: string;
  subject: string | null;
  body: string;
  html: string | null;
  /** The sender's stable reference (the reminder's code): a message handed over twice is kept once. */
  reference: string;
  providerMessageId: string;
  unsubscribeUrl: string | null;
  sentAt: Date;
}

export interface SandboxMessageLog {
  /** Keeps the message; one already kept under the same reference is answered instead. */
  record(message: SandboxMessage): Promise<SandboxMessage>;
  /**
   * The messages of the company's debt (through the reminders whose code they carry), oldest first;
   * `sentAt` is the reminder's (the organization's clock, sandbox-frozen or not) once it is SENT.
   */
  listOfDebt(companyId: number, debtId: number): Promise<SandboxMessage[]>;
  /** Every message kept under this reference (tests count duplicates). */
  countByReference(reference: string): Promise<number>;
}
