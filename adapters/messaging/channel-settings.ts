/**
 * The settings of the reminder channels (decisions.md section 7) and their parsing, without the
 * transports: cmd/shared/config.ts checks them at boot without loading nodemailer.
 */

export const TWILIO_API_BASE_URL = 'https://api.twilio.com';

/** SMS_PROVIDER / WHATSAPP_PROVIDER. */
export type TextProvider = 'sandbox' | 'twilio';
export const TEXT_PROVIDERS: readonly TextProvider[] = ['sandbox', 'twilio'];

/** TWILIO_*: present when SMS_PROVIDER or WHATSAPP_PROVIDER is `twilio` (config.ts checks them). */
export interface TwilioSettings {
  accountSid: string;
  /** TWILIO_AUTH_TOKEN: a secret; never logged (the logger censors `authToken`). */
  authToken: string;
  /** TWILIO_FROM (E.164, or a Messaging Service `MG…`); null when SMS is not on Twilio. */
  from: string | null;
  /** TWILIO_WHATSAPP_FROM; null when WhatsApp is not on Twilio. */
  whatsappFrom: string | null;
  /** TWILIO_API_BASE_URL, https://api.twilio.com unless set (a local receiver in tests). */
  apiBaseUrl: string;
}

/** The settings that choose each channel's sender: fields of cmd/shared/config.ts's Config. */
export interface ChannelSettings {
  /** SMTP_URL (holds the password; never logged): email by SMTP; null: the sandbox sender. */
  smtpUrl: string | null;
  /** REMINDERS_FROM_EMAIL: required with SMTP_URL. */
  remindersFromEmail: string | null;
  smsProvider: TextProvider;
  whatsappProvider: TextProvider;
  twilio: TwilioSettings | null;
}

/** What an SMTP URL holds, parsed and checked; the password stays in here, never in a message. */
export interface SmtpServer {
  secure: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string | null;
}

/**
 * `smtp://` or `smtps://`, a host, an optional port (default 587 / 465) and optional `user:pass`
 * (percent-encoded). Errors name the problem and never repeat the URL, which holds a password.
 */
export function parseSmtpUrl(text: string): SmtpServer {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new Error('SMTP_URL must be a URL such as smtps://user:password@smtp.example.com:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// or smtps://');
  if (!url.hostname) throw new Error('SMTP_URL must name a host');
  if ((url.pathname !== '' && url.pathname !== '/') || url.search !== '' || url.hash !== '') {
    throw new Error('SMTP_URL takes no path or query: smtp[s]://[user:password@]host[:port]');
  }
  const secure = url.protocol === 'smtps:';
  let user: string | null = null;
  let password: string | null = null;
  try {
    user = url.username ? decodeURIComponent(url.username) : null;
    password = url.password ? decodeURIComponent(url.password) : null;
  } catch {
    throw new Error('SMTP_URL has a malformed percent-encoding in its user or password');
  }
  if (password !== null && user === null) throw new Error('SMTP_URL has a password without a user');
  return { secure, host: url.hostname.replace(/^\[(.*)\]$/, '$1'), port: url.port ? Number(url.port) : secure ? 465 : 587, user, password };
}

/** A plain address `local@domain` (no display name, no spaces, one @): REMINDERS_FROM_EMAIL. */
export function isPlainEmailAddress(text: string): boolean {
  return /^[^\s@<>"(),;:]+@[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?)+$/.test(text);
}

