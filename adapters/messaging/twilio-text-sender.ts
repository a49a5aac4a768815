import crypto from 'node:crypto';
import { PermanentSendFailure, type OutgoingText, type SentMessage, type TextSender } from '../../ports/message-sender';
import { TWILIO_API_BASE_URL } from './channel-settings';

/**
 * SMS and WhatsApp reminders through Twilio's Messages API (decisions.md section 7,
 * `SMS_PROVIDER=twilio` / `WHATSAPP_PROVIDER=twilio`):
 *
 *   POST {base}/2010-04-01/Accounts/{AccountSid}/Messages.json
 *   Authorization: Basic base64(AccountSid:AuthToken)
 *   Content-Type: application/x-www-form-urlencoded
 *   To=+52...&From=+1...&Body=...[&StatusCallback=https://...]
 *
 * WhatsApp is the same call with `whatsapp:` in front of both numbers. A `TWILIO_FROM` that is a
 * Messaging Service (`MG…`) goes as `MessagingServiceSid` instead of `From`.
 *
 * Failures: Twilio's answer 400 with an error code says the message cannot go to that recipient
 * (invalid number, unsubscribed by STOP, a landline, not on WhatsApp…): `PermanentSendFailure`
 * with a reason class and the code. Everything else is transient (the job retries with backoff):
 * 429, 5xx, a network error, no answer within the timeout, and 401/403/404 (the account SID or
 * the token is wrong: an operator fixes the setting, the retries then go out). No error carries
 * the token, the Authorization header or Twilio's free text (which repeats the phone number).
 */
export interface TwilioTextSenderOptions {
  accountSid: string;
  authToken: string;
  /** TWILIO_FROM: the SMS sender, an E.164 number or a Messaging Service SID (`MG…`); null: no SMS. */
  from: string | null;
  /** TWILIO_WHATSAPP_FROM: the WhatsApp sender, `+E.164` or `whatsapp:+E.164`; null: no WhatsApp. */
  whatsappFrom: string | null;
  /** Default https://api.twilio.com; tests point it at a local receiver. */
  baseUrl?: string;
  /** The whole call, answer included (default 15 s). */
  timeoutMs?: number;
}


/** Twilio error codes (https://www.twilio.com/docs/api/errors) that no retry can fix, by class. */
const PERMANENT_CODES = new Map<number, string>([
  [21211, 'invalid_number'], // Invalid 'To' phone number
  [21214, 'invalid_number'], // 'To' phone number cannot be reached
  [21217, 'invalid_number'], // Phone number does not appear to be valid
  [21401, 'invalid_number'], // Invalid phone number
  [21407, 'unsupported_destination'], // This phone number type does not support SMS or MMS
  [21408, 'region_not_permitted'], // Permission to send an SMS has not been enabled for the region
  [21610, 'unsubscribed'], // Attempt to send to unsubscribed recipient (replied STOP)
  [21612, 'unreachable_route'], // The 'To' phone number is not currently reachable via SMS
  [21614, 'not_mobile'], // 'To' number is not a valid mobile number
  [21617, 'body_too_long'], // The concatenated message body exceeds the 1600 character limit
  [63003, 'unknown_recipient'], // Channel could not find To address
  [63016, 'outside_session_window'], // Freeform message outside the 24-hour window (needs a template)
  [63024, 'invalid_recipient'], // Invalid message recipient
  [63032, 'recipient_not_allowed'], // WhatsApp will not deliver to this user
]);

export class TwilioTextSender implements TextSender {
  private readonly endpoint: string;
  private readonly authorization: string;
  private readonly timeoutMs: number;

  constructor(private readonly options: TwilioTextSenderOptions) {
    if (!/^AC[0-9a-fA-F]{32}$/.test(options.accountSid)) throw new Error('TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal characters');
    if (!options.authToken) throw new Error('TWILIO_AUTH_TOKEN is required');
    const base = (options.baseUrl ?? TWILIO_API_BASE_URL).replace(/\/+$/, '');
    this.endpoint = `${base}/2010-04-01/Accounts/${options.accountSid}/Messages.json`;
    this.authorization = `Basic ${Buffer.from(`${options.accountSid}:${options.authToken}`, 'utf8').toString('base64')}`;
    this.timeoutMs = options.timeoutMs ?? 15_000;
  }

  async send(message: OutgoingText): Promise<SentMessage> {
    const form = new URLSearchParams();
    if (message.channel === 'whatsapp') {
      if (!this.options.whatsappFrom) throw new Error('Twilio: no WhatsApp sender configured (TWILIO_WHATSAPP_FROM)');
      form.set('To', whatsappAddress(message.to));
      form.set('From', whatsappAddress(this.options.whatsappFrom));
    } else {
      if (!this.options.from) throw new Error('Twilio: no SMS sender configured (TWILIO_FROM)');
      form.set('To', message.to);
      form.set(this.options.from.startsWith('MG') ? 'MessagingServiceSid' : 'From', this.options.from);
    }
    form.set('Body', message.body);
    if (message.statusCallbackUrl) form.set('StatusCallback', message.statusCallbackUrl);

    let response: Response;
    let text: string;
    try {
      response = await fetch(this.endpoint, {
        method: 'POST',
        headers: {
          Authorization: this.authorization,
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          'User-Agent': 'CollectionsFacade-Reminders/1',
        },
        body: form.toString(),
        // A redirect would carry the credentials elsewhere: Twilio's API never answers with one.
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
      });
      text = await response.text();
    } catch (error) {
      throw new Error(`Twilio: ${networkClass(error)}`);
    }
    return interpretAnswer(message.channel, response.status, text);
  }
}

/** Twilio's answer to a create-message call: the message's sid, or the error to throw. */
export function interpretAnswer(channel: 'sms' | 'whatsapp', status: number, text: string): SentMessage {
  let body: { sid?: unknown; code?: unknown } = {};
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed && typeof parsed === 'object') body = parsed as typeof body;
  } catch {
    // not JSON (a proxy's error page): judged by the status alone
  }
  const code = typeof body.code === 'number' ? body.code : typeof body.code === 'string' && /^\d+$/.test(body.code) ? Number(body.code) : null;
  const codeText = code === null ? '' : `, code ${code}`;
  if (status === 200 || status === 201) {
    if (typeof body.sid === 'string' && /^[A-Za-z]{2}[0-9a-fA-F]{32}$/.test(body.sid)) return { providerMessageId: body.sid };
    throw new Error(`Twilio: accepted without a message sid (HTTP ${status})`);
  }
  if (status === 400) {
    const kind = code === null ? 'rejected' : (PERMANENT_CODES.get(code) ?? 'rejected');
    throw new PermanentSendFailure(`${channel}_${kind}${code === null ? '' : ` (twilio ${code})`}`);
  }
  if (status === 401 || status === 403 || status === 404) throw new Error(`Twilio: account or credentials refused (HTTP ${status}${codeText})`);
  if (status === 429) throw new Error(`Twilio: rate limited (HTTP 429${codeText})`);
  if (status >= 500) throw new Error(`Twilio: server error (HTTP ${status}${codeText})`);
  throw new Error(`Twilio: unexpected answer (HTTP ${status}${codeText})`);
}

function whatsappAddress(number: string): string {
  return number.startsWith('whatsapp:') ? number : `whatsapp:${number}`;
}

/** The class of a failed call, never its message (which names the URL and address). */
function networkClass(error: unknown): string {
  const e = error as { name?: string; cause?: { code?: string; name?: string } };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError' || e?.cause?.name === 'TimeoutError') return 'timeout';
  const code = e?.cause?.code ?? '';
  if (code === 'ECONNREFUSED') return 'connection refused';
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return 'dns error';
  if (/CERT|SSL|TLS/.test(code) || code === 'EPROTO') return 'tls error';
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET') return 'connection reset';
  if (code.startsWith('UND_ERR_') && /TIMEOUT/.test(code)) return 'timeout';
  return 'network error';
}

/**
 * X-Twilio-Signature of a request Twilio sends (a status callback): base64 HMAC-SHA1, keyed with
 * the auth token, of the full URL Twilio called (query string included) followed by each POST
 * parameter's name and value, sorted by name (a repeated name: its distinct values, sorted), with
 * no separators (https://www.twilio.com/docs/usage/security#validating-requests).
 */
export function twilioSignature(authToken: string, url: string, params: Readonly<Record<string, string | readonly string[]>>): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name]!;
    const values = typeof value === 'string' ? [value] : [...new Set(value)].sort();
    for (const v of values) data += name + v;
  }
  return crypto.createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * Whether `signature` (the X-Twilio-Signature header) signs this request. The URL is tried as
 * given and with its default port added or removed, as Twilio's own libraries do (a proxy may
 * report either form). Constant-time comparison.
 */
export function verifyTwilioSignature(
  authToken: string,
  url: string,
  params: Readonly<Record<string, string | readonly string[]>>,
  signature: string | undefined | null,
): boolean {
  if (!signature) return false;
  const given = Buffer.from(signature, 'utf8');
  return urlForms(url).some((form) => {
    const expected = Buffer.from(twilioSignature(authToken, form, params), 'utf8');
    return expected.length === given.length && crypto.timingSafeEqual(expected, given);
  });
}

function urlForms(url: string): string[] {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return [url];
  }
  const defaultPort = parsed.protocol === 'https:' ? '443' : parsed.protocol === 'http:' ? '80' : null;
  if (!defaultPort) return [url];
  const authority = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(url);
  if (!authority) return [url];
  const [, scheme, host, rest] = authority as unknown as [string, string, string, string];
  const withPort = new RegExp(`:${defaultPort}$`).test(host) ? host : /:\d+$/.test(host) ? null : `${host}:${defaultPort}`;
  const withoutPort = host.replace(new RegExp(`:${defaultPort}$`), '');
  const forms = new Set([url, `${scheme}${withoutPort}${rest}`]);
  if (withPort) forms.add(`${scheme}${withPort}${rest}`);
  return [...forms];
}
