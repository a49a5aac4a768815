import type { MessageSenders } from '../../ports/message-sender';
import { parseSmtpUrl, TWILIO_API_BASE_URL, type ChannelSettings, type TextProvider } from './channel-settings';
import { SmtpEmailSender } from './smtp-email-sender';
import { TwilioTextSender } from './twilio-text-sender';

export type { ChannelSettings, TextProvider, TwilioSettings } from './channel-settings';

export type ConfiguredSenders = MessageSenders & {
  /** Closes what this made (the SMTP pool); the sandbox senders are the caller's. */
  close(): Promise<void>;
};

/**
 * The sender of each channel (decisions.md section 7): email over SMTP when SMTP_URL is set,
 * else the sandbox's; SMS and WhatsApp over Twilio when their provider is `twilio`, else the
 * sandbox's. One Twilio sender serves both text channels when both are on Twilio.
 */
export function configuredSenders(settings: ChannelSettings, sandbox: MessageSenders): ConfiguredSenders {
  let smtp: SmtpEmailSender | null = null;
  if (settings.smtpUrl !== null) {
    if (!settings.remindersFromEmail) throw new Error('SMTP_URL needs REMINDERS_FROM_EMAIL (the From address of reminder emails)');
    smtp = new SmtpEmailSender({ smtpUrl: settings.smtpUrl, fromAddress: settings.remindersFromEmail });
  }
  const usesTwilio = settings.smsProvider === 'twilio' || settings.whatsappProvider === 'twilio';
  let twilio: TwilioTextSender | null = null;
  if (usesTwilio) {
    if (!settings.twilio) throw new Error('SMS_PROVIDER / WHATSAPP_PROVIDER twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN');
    if (settings.smsProvider === 'twilio' && !settings.twilio.from) throw new Error('SMS_PROVIDER=twilio needs TWILIO_FROM');
    if (settings.whatsappProvider === 'twilio' && !settings.twilio.whatsappFrom) throw new Error('WHATSAPP_PROVIDER=twilio needs TWILIO_WHATSAPP_FROM');
    twilio = new TwilioTextSender({
      accountSid: settings.twilio.accountSid,
      authToken: settings.twilio.authToken,
      from: settings.smsProvider === 'twilio' ? settings.twilio.from : null,
      whatsappFrom: settings.whatsappProvider === 'twilio' ? settings.twilio.whatsappFrom : null,
      baseUrl: settings.twilio.apiBaseUrl,
    });
  }
  return {
    email: smtp ?? sandbox.email,
    sms: settings.smsProvider === 'twilio' ? twilio! : sandbox.sms,
    whatsapp: settings.whatsappProvider === 'twilio' ? twilio! : sandbox.whatsapp,
    close: async () => {
      await smtp?.close();
    },
  };
}

/**
 * What each channel goes out through, for a process's start-up log line: no password, no token,
 * no user (`{ email: 'smtp smtp.example.com:465', sms: 'twilio', whatsapp: 'sandbox' }`).
 */
export function describeChannels(settings: ChannelSettings): { email: string; sms: string; whatsapp: string } {
  let email = 'sandbox';
  if (settings.smtpUrl !== null) {
    const server = parseSmtpUrl(settings.smtpUrl);
    email = `${server.secure ? 'smtps' : 'smtp'} ${server.host}:${server.port}`;
  }
  const text = (provider: TextProvider) =>
    provider === 'twilio' && settings.twilio && settings.twilio.apiBaseUrl !== TWILIO_API_BASE_URL ? `twilio ${new URL(settings.twilio.apiBaseUrl).host}` : provider;
  return { email, sms: text(settings.smsProvider), whatsapp: text(settings.whatsappProvider) };
}
