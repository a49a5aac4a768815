import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import {
  type EmailSender, type MessageSenders, type OutgoingEmail, type OutgoingText, PermanentSendFailure, type SentMessage, type TextSender,
} from '../../ports/message-sender';
import type { SandboxMessageLog } from '../../ports/sandbox-message-log';

/**
 * Addresses and numbers the sandbox refuses, so integrators can see a FAILED reminder: an email
 * at `invalid.example` or a phone number ending in 0000 is a permanent failure.
 */
export function sandboxRefusal(to: string): string | null {
  if (/@invalid\.example$/i.test(to)) return 'the sandbox refuses addresses at invalid.example';
  if (/0000$/.test(to.replace(/\D/g, ''))) return 'the sandbox refuses numbers ending in 0000';
  return null;
}

/**
 * The sandbox adapter of the message sender port: every message goes to a table (the database
 * the API process reads too, so GET /test-helpers/messages shows what a worker process sent),
 * keyed by the message's reference, so a message handed over twice is kept once and answers the
 * same providerMessageId.
 */
export function sandboxMessageSenders(log: SandboxMessageLog, clock: Clock, ids: IdGenerator): MessageSenders {
  const record = async (message: { channel: 'email' | 'sms' | 'whatsapp'; to: string; subject: string | null; body: string; html: string | null; unsubscribeUrl: string | null; reference: string }): Promise<SentMessage> => {
    const refusal = sandboxRefusal(message.to);
    if (refusal) throw new PermanentSendFailure(refusal);
    const kept = await log.record({ ...message, providerMessageId: `sbx_${ids.alphanumeric(20)}`, sentAt: clock.now() });
    return { providerMessageId: kept.providerMessageId };
  };
  const email: EmailSender = {
    send: (m: OutgoingEmail) => record({ channel: 'email', to: m.to, subject: m.subject, body: m.text, html: m.html, unsubscribeUrl: m.unsubscribeUrl, reference: m.reference }),
  };
  const text = (channel: 'sms' | 'whatsapp'): TextSender => ({
    send: (m: OutgoingText) => record({ channel, to: m.to, subject: null, body: m.body, html: null, unsubscribeUrl: null, reference: m.reference }),
  });
  return { email, sms: text('sms'), whatsapp: text('whatsapp') };
}
