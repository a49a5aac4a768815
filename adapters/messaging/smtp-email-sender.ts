import nodemailer, { type Transporter } from 'nodemailer';
import { PermanentSendFailure, type EmailSender, type OutgoingEmail, type SentMessage } from '../../ports/message-sender';
import { isPlainEmailAddress, parseSmtpUrl } from './channel-settings';

export { isPlainEmailAddress, parseSmtpUrl };

/**
 * Reminder emails over SMTP (decisions.md section 7, `SMTP_URL`), through a pooled nodemailer
 * transport. What it adds to nodemailer:
 *
 * - the headers a reminder needs: `From: "<company>" <REMINDERS_FROM_EMAIL>`, both parts, the
 *   one-click unsubscribe of RFC 8058, and a Message-ID made of the message's `reference` and the
 *   sender's domain, so a resend of the same (debt, step, channel) carries the same Message-ID
 *   (the receiving side, and we, can tell it is the same reminder);
 * - the failure classes the sending job acts on: a recipient the server refuses for good is a
 *   `PermanentSendFailure`; anything else (connection refused or dropped, timeouts, 4xx,
 *   authentication) is a plain `Error` the job retries with backoff;
 * - errors that never carry the server's address, the URL's credentials or the server's free
 *   text (which often repeats addresses): only a class and the SMTP reply codes.
 */
export interface SmtpEmailSenderOptions {
  /** `smtp://user:pass@host:587` (STARTTLS; see requireTls) or `smtps://user:pass@host:465` (TLS). */
  smtpUrl: string;
  /** REMINDERS_FROM_EMAIL: the From address, and the domain of every Message-ID. */
  fromAddress: string;
  /** Connections kept open to the server (default 5). */
  maxConnections?: number;
  /** Waits, in ms: TCP connect (default 10 s), the server's greeting (10 s), an idle socket mid-command (30 s). */
  connectionTimeoutMs?: number;
  greetingTimeoutMs?: number;
  socketTimeoutMs?: number;
  /**
   * `smtp://` only: whether STARTTLS is required (fail rather than go on in the clear). Default:
   * required when the URL carries credentials and the host is not this machine (a network
   * attacker who strips STARTTLS from the server's answer must not get the password), else used
   * when offered.
   */
  requireTls?: boolean;
}

/**
 * The Message-ID of a reminder: `<reference@from-domain>`. The reference becomes a valid
 * dot-atom: characters outside RFC 5322's atext are written `=XX` (and `=` itself), so two
 * different references never share a Message-ID.
 */
export function messageIdFor(reference: string, fromAddress: string): string {
  const domain = fromAddress.slice(fromAddress.lastIndexOf('@') + 1).toLowerCase();
  const local = Array.from(Buffer.from(reference, 'utf8'))
    .map((byte) => {
      const char = String.fromCharCode(byte);
      return /[A-Za-z0-9!#$%&'*+/?^_`{|}~-]/.test(char) ? char : `=${byte.toString(16).toUpperCase().padStart(2, '0')}`;
    })
    .join('')
    // dots are atext too, but not first, last or doubled: keep them only between other characters
    .replace(/=2E/g, '.')
    .replace(/^\.|\.$/g, '=2E')
    .replace(/\.\./g, '.=2E');
  return `<${local || '='}@${domain}>`; // '=' alone: no escaped reference is ever that
}

export class SmtpEmailSender implements EmailSender {
  private readonly transport: Transporter;
  private readonly fromAddress: string;

  constructor(options: SmtpEmailSenderOptions) {
    const server = parseSmtpUrl(options.smtpUrl);
    if (!isPlainEmailAddress(options.fromAddress)) throw new Error('REMINDERS_FROM_EMAIL must be a plain address such as recordatorios@example.com');
    this.fromAddress = options.fromAddress;
    this.transport = nodemailer.createTransport({
      pool: true,
      maxConnections: options.maxConnections ?? 5,
      // A long-lived connection gets a fresh one now and then (servers cap messages per session).
      maxMessages: 100,
      host: server.host,
      port: server.port,
      secure: server.secure,
      requireTLS: !server.secure && (options.requireTls ?? requiresStartTls(server)),
      auth: server.user !== null ? { user: server.user, pass: server.password ?? '' } : undefined,
      connectionTimeout: options.connectionTimeoutMs ?? 10_000,
      greetingTimeout: options.greetingTimeoutMs ?? 10_000,
      socketTimeout: options.socketTimeoutMs ?? 30_000,
      dnsTimeout: options.connectionTimeoutMs ?? 10_000,
      // nodemailer's own logging would write the SMTP dialogue (AUTH included): off.
      logger: false,
      debug: false,
    });
  }

  async send(message: OutgoingEmail): Promise<SentMessage> {
    // One mailbox, nothing that could smuggle a second recipient or a header into the envelope.
    if (!isSingleAddress(message.to)) throw new PermanentSendFailure('email_invalid_recipient');
    const unsubscribe = checkedUnsubscribeUrl(message.unsubscribeUrl);
    const messageId = messageIdFor(message.reference, this.fromAddress);
    try {
      await this.transport.sendMail({
        from: { name: message.fromName, address: this.fromAddress },
        to: message.to,
        envelope: { from: this.fromAddress, to: [message.to] },
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId,
        headers: {
          // Prepared: written as is, never folded inside the URL (checked above: ASCII, no spaces).
          'List-Unsubscribe': { prepared: true, value: `<${unsubscribe}>` },
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
        },
        // Both parts carry UTF-8 text (ñ, á, €): quoted-printable keeps Spanish text readable.
        textEncoding: 'quoted-printable',
      });
    } catch (error) {
      throw classifySmtpError(error);
    }
    return { providerMessageId: messageId };
  }

  /** Closes the pooled connections (the worker's shutdown). */
  async close(): Promise<void> {
    this.transport.close();
  }
}

/** `smtp://` with credentials to another machine: STARTTLS is required (see the option). */
export function requiresStartTls(server: { secure: boolean; host: string; user: string | null }): boolean {
  if (server.secure || server.user === null) return false;
  return !(server.host === 'localhost' || server.host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(server.host));
}

/** A character of an address this sender takes: no space, separator, bracket, quote or control character (IDN allowed). */
const ADDRESS_CHAR = String.raw`[^\s@<>"(),;:\[\]\\\x00-\x1f\x7f]`;
const SINGLE_ADDRESS = new RegExp(`^${ADDRESS_CHAR}+@${ADDRESS_CHAR}+\\.${ADDRESS_CHAR}+$`, 'u');

/** `local@domain`: one mailbox, nothing that could add a recipient or a header. */
function isSingleAddress(text: string): boolean {
  return SINGLE_ADDRESS.test(text) && !text.includes('..');
}

/**
 * The RFC 8058 header carries the URL inside `<>` on one line: it must be an absolute http(s)
 * URL of printable ASCII (URL.href percent-encodes the rest) that fits a header line.
 */
function checkedUnsubscribeUrl(text: string): string {
  let href: string;
  try {
    const url = new URL(text);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new Error('scheme');
    href = url.href;
  } catch {
    throw new PermanentSendFailure('email_invalid_unsubscribe_url');
  }
  if (!/^[\x21-\x7e]+$/.test(href) || /[<>]/.test(href) || href.length > 900) throw new PermanentSendFailure('email_invalid_unsubscribe_url');
  return href;
}

interface SmtpLikeError {
  code?: string;
  command?: string;
  responseCode?: number;
  response?: string;
  rejectedErrors?: SmtpLikeError[];
}

/** SMTP replies to RCPT TO that say the recipient address itself is refused for good. */
const RECIPIENT_REJECTIONS = new Set([501, 550, 551, 553]);

/**
 * The error a sender throws for a nodemailer failure. Permanent: the server refused the
 * recipient for good (550 mailbox unavailable, 551 not local, 553 mailbox name not allowed, 501
 * bad address syntax, on RCPT TO), or nodemailer itself found the address invalid. Everything
 * else is transient, including other 5xx replies: a 5xx to MAIL FROM or AUTH is this service's
 * configuration (the sender domain, the credentials), which an operator fixes and the retries
 * then get through, rather than failing every debtor's reminder for good; a 5xx to DATA (552
 * size, 554 content refused) is retried too, and ends FAILED when the retries run out.
 *
 * The message names a class and the reply codes only: never the server's text, host or port.
 */
export function classifySmtpError(error: unknown): Error {
  const e = (error ?? {}) as SmtpLikeError;
  const rcpt = e.command === 'RCPT TO' ? (e.rejectedErrors?.[e.rejectedErrors.length - 1] ?? e) : null;
  if (rcpt) {
    const code = rcpt.responseCode ?? e.responseCode;
    const detail = replyCodes(rcpt.response ?? e.response, code);
    if (code !== undefined && RECIPIENT_REJECTIONS.has(code)) return new PermanentSendFailure(`email_recipient_rejected (${detail})`);
    return new Error(`SMTP: recipient not accepted now (${detail})`);
  }
  if (e.code === 'EENVELOPE' && e.command === 'API') return new PermanentSendFailure('email_invalid_recipient');
  if (e.responseCode !== undefined) {
    return new Error(`SMTP: ${commandClass(e)} refused (${replyCodes(e.response, e.responseCode)})`);
  }
  return new Error(`SMTP: ${transportClass(e.code)}`);
}

/** `550 5.1.1`: the reply code and the enhanced status code, nothing of the server's text. */
function replyCodes(response: string | undefined, code: number | undefined): string {
  const match = /^(\d{3})[ -](\d\.\d{1,3}\.\d{1,3})?/.exec(response ?? '');
  if (match) return match[2] ? `${match[1]} ${match[2]}` : match[1]!;
  return code !== undefined ? String(code) : 'no reply code';
}

function commandClass(e: SmtpLikeError): string {
  if (e.code === 'EAUTH') return 'authentication';
  switch (e.command) {
    case 'MAIL FROM':
      return 'sender';
    case 'DATA':
      return 'message';
    case 'CONN':
      return 'connection';
    default:
      return 'command';
  }
}

function transportClass(code: string | undefined): string {
  switch (code) {
    case 'ETIMEDOUT':
      return 'timeout';
    case 'ECONNECTION':
      return 'connection closed';
    case 'ESOCKET':
      return 'connection error';
    case 'EDNS':
      return 'dns error';
    case 'ETLS':
    case 'EREQUIRETLS':
      return 'tls error';
    case 'EAUTH':
    case 'ENOAUTH':
      return 'authentication failed';
    default:
      return 'send failed';
  }
}
