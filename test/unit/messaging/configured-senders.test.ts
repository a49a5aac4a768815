import crypto from 'node:crypto';
import { expect } from 'chai';
import { configuredSenders, describeChannels, type ChannelSettings } from '../../../adapters/messaging/configured-senders';
import { SmtpEmailSender } from '../../../adapters/messaging/smtp-email-sender';
import { TwilioTextSender } from '../../../adapters/messaging/twilio-text-sender';
import { loadConfig } from '../../../cmd/shared/config';
import { createLogger } from '../../../cmd/shared/logger';
import type { EmailSender, MessageSenders, TextSender } from '../../../ports/message-sender';

/** adapters/messaging/configured-senders.ts and the channel settings of cmd/shared/config.ts. */
describe('reminder channels: configured senders and their settings', () => {
  const sandbox: MessageSenders = {
    email: { send: async () => ({ providerMessageId: 'sandbox-email' }) } satisfies EmailSender,
    sms: { send: async () => ({ providerMessageId: 'sandbox-sms' }) } satisfies TextSender,
    whatsapp: { send: async () => ({ providerMessageId: 'sandbox-whatsapp' }) } satisfies TextSender,
  };
  const SID = 'AC0123456789abcdef0123456789abcdef';
  const TOKEN = 'f00dfeedc0ffee0123456789abcdef42';
  const SMTP_PASSWORD = 'p4ss-w0rd-never-logged';
  const SMTP_URL = `smtps://mailer:${SMTP_PASSWORD}@smtp.example.com:465`;
  const none: ChannelSettings = { smtpUrl: null, remindersFromEmail: null, smsProvider: 'sandbox', whatsappProvider: 'sandbox', twilio: null };
  const twilio = { accountSid: SID, authToken: TOKEN, from: '+15017122661', whatsappFrom: '+14155238886', apiBaseUrl: 'https://api.twilio.com' };

  describe('configuredSenders', () => {
    it('uses the sandbox for every channel by default', async () => {
      const senders = configuredSenders(none, sandbox);
      expect(senders.email).to.equal(sandbox.email);
      expect(senders.sms).to.equal(sandbox.sms);
      expect(senders.whatsapp).to.equal(sandbox.whatsapp);
      await senders.close();
    });

    it('sends email over SMTP when SMTP_URL is set, the text channels staying on the sandbox', async () => {
      const senders = configuredSenders({ ...none, smtpUrl: SMTP_URL, remindersFromEmail: 'recordatorios@example.mx' }, sandbox);
      expect(senders.email).to.be.instanceOf(SmtpEmailSender);
      expect(senders.sms).to.equal(sandbox.sms);
      expect(senders.whatsapp).to.equal(sandbox.whatsapp);
      await senders.close();
    });

    it('chooses Twilio per channel', async () => {
      const smsOnly = configuredSenders({ ...none, smsProvider: 'twilio', twilio: { ...twilio, whatsappFrom: null } }, sandbox);
      expect(smsOnly.sms).to.be.instanceOf(TwilioTextSender);
      expect(smsOnly.whatsapp).to.equal(sandbox.whatsapp);
      expect(smsOnly.email).to.equal(sandbox.email);

      const whatsappOnly = configuredSenders({ ...none, whatsappProvider: 'twilio', twilio: { ...twilio, from: null } }, sandbox);
      expect(whatsappOnly.whatsapp).to.be.instanceOf(TwilioTextSender);
      expect(whatsappOnly.sms).to.equal(sandbox.sms);

      const both = configuredSenders({ ...none, smsProvider: 'twilio', whatsappProvider: 'twilio', twilio }, sandbox);
      expect(both.sms).to.be.instanceOf(TwilioTextSender);
      expect(both.whatsapp).to.be.instanceOf(TwilioTextSender);
      await Promise.all([smsOnly.close(), whatsappOnly.close(), both.close()]);
    });

    it('a sandbox channel never reaches Twilio, even with Twilio settings present', async () => {
      const senders = configuredSenders({ ...none, smsProvider: 'twilio', twilio }, sandbox);
      expect(await senders.whatsapp.send({ channel: 'whatsapp', to: '+5215512345678', body: 'x', reference: 'r' })).to.deep.equal({ providerMessageId: 'sandbox-whatsapp' });
    });

    it('refuses settings that cannot work (config.ts refuses them first)', () => {
      expect(() => configuredSenders({ ...none, smtpUrl: SMTP_URL }, sandbox)).to.throw(/REMINDERS_FROM_EMAIL/);
      expect(() => configuredSenders({ ...none, smsProvider: 'twilio' }, sandbox)).to.throw(/TWILIO_ACCOUNT_SID/);
      expect(() => configuredSenders({ ...none, smsProvider: 'twilio', twilio: { ...twilio, from: null } }, sandbox)).to.throw(/TWILIO_FROM/);
      expect(() => configuredSenders({ ...none, whatsappProvider: 'twilio', twilio: { ...twilio, whatsappFrom: null } }, sandbox)).to.throw(/TWILIO_WHATSAPP_FROM/);
    });

    it('describes the channels for a start-up log line without user, password or token', () => {
      const described = describeChannels({ smtpUrl: SMTP_URL, remindersFromEmail: 'r@example.mx', smsProvider: 'twilio', whatsappProvider: 'sandbox', twilio });
      expect(described).to.deep.equal({ email: 'smtps smtp.example.com:465', sms: 'twilio', whatsapp: 'sandbox' });
      expect(describeChannels(none)).to.deep.equal({ email: 'sandbox', sms: 'sandbox', whatsapp: 'sandbox' });
      expect(JSON.stringify(described)).to.not.match(/mailer|p4ss|f00dfeed/);
    });
  });

  describe('config: SMTP_URL, REMINDERS_FROM_EMAIL, SMS_PROVIDER, WHATSAPP_PROVIDER, TWILIO_*', () => {
    const base = { JWT_SECRET: 'config-test-secret-0123456789abcdef0123456789', SECRETS_KEY: crypto.randomBytes(32).toString('base64') };
    const twilioEnv = { TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15017122661', TWILIO_WHATSAPP_FROM: 'whatsapp:+14155238886' };

    it('defaults every channel to the sandbox', () => {
      const config = loadConfig(base);
      expect({ smtpUrl: config.smtpUrl, remindersFromEmail: config.remindersFromEmail, smsProvider: config.smsProvider, whatsappProvider: config.whatsappProvider, twilio: config.twilio }).to.deep.equal(none);
      expect(loadConfig({ ...base, SMS_PROVIDER: '', WHATSAPP_PROVIDER: 'sandbox', SMTP_URL: '' }).smsProvider).to.equal('sandbox');
      // Twilio variables without a provider set to twilio are not used.
      expect(loadConfig({ ...base, ...twilioEnv }).twilio).to.equal(null);
    });

    it('reads SMTP_URL and REMINDERS_FROM_EMAIL', () => {
      const config = loadConfig({ ...base, SMTP_URL, REMINDERS_FROM_EMAIL: 'recordatorios@cobranzas.example.mx' });
      expect(config.smtpUrl).to.equal(SMTP_URL);
      expect(config.remindersFromEmail).to.equal('recordatorios@cobranzas.example.mx');
    });

    it('refuses a bad SMTP_URL without repeating it, and SMTP_URL without REMINDERS_FROM_EMAIL', () => {
      for (const bad of [`http://mailer:${SMTP_PASSWORD}@smtp.example.com`, `smtp://mailer:${SMTP_PASSWORD}@`, `smtp://mailer:${SMTP_PASSWORD}@smtp.example.com/x`, `${SMTP_PASSWORD}`]) {
        expect(() => loadConfig({ ...base, SMTP_URL: bad, REMINDERS_FROM_EMAIL: 'r@example.mx' }), bad).to.throw(/^SMTP_URL /);
        expect(() => loadConfig({ ...base, SMTP_URL: bad, REMINDERS_FROM_EMAIL: 'r@example.mx' }), bad).to.not.throw(new RegExp(SMTP_PASSWORD));
      }
      expect(() => loadConfig({ ...base, SMTP_URL })).to.throw(/SMTP_URL needs REMINDERS_FROM_EMAIL/);
      for (const bad of ['Cobranzas <r@example.mx>', 'r@', 'no-at-sign', 'r@example', 'a b@example.mx']) {
        expect(() => loadConfig({ ...base, REMINDERS_FROM_EMAIL: bad }), bad).to.throw(/REMINDERS_FROM_EMAIL must be a plain address/);
      }
    });

    it('refuses an unknown provider', () => {
      for (const [name, value] of [['SMS_PROVIDER', 'Twilio'], ['SMS_PROVIDER', 'vonage'], ['WHATSAPP_PROVIDER', 'meta']]) {
        expect(() => loadConfig({ ...base, [name!]: value }), `${name}=${value}`).to.throw(new RegExp(`^${name} must be one of sandbox, twilio$`));
      }
    });

    it('reads the Twilio settings when a provider is twilio', () => {
      const config = loadConfig({ ...base, ...twilioEnv, SMS_PROVIDER: 'twilio', WHATSAPP_PROVIDER: 'twilio' });
      expect(config.smsProvider).to.equal('twilio');
      expect(config.whatsappProvider).to.equal('twilio');
      expect(config.twilio).to.deep.equal({ accountSid: SID, authToken: TOKEN, from: '+15017122661', whatsappFrom: 'whatsapp:+14155238886', apiBaseUrl: 'https://api.twilio.com' });
      const smsOnly = loadConfig({ ...base, ...twilioEnv, SMS_PROVIDER: 'twilio', TWILIO_API_BASE_URL: 'http://127.0.0.1:4010/' });
      expect(smsOnly.twilio).to.include({ from: '+15017122661', whatsappFrom: null, apiBaseUrl: 'http://127.0.0.1:4010' });
      expect(loadConfig({ ...base, ...twilioEnv, SMS_PROVIDER: 'twilio', TWILIO_FROM: 'MG9752274e9e519418a7406176694466fa' }).twilio?.from).to.equal('MG9752274e9e519418a7406176694466fa');
    });

    it('twilio without its credentials or its sender refuses to start, naming what is missing and never the token', () => {
      const cases: [Record<string, string>, RegExp][] = [
        [{ SMS_PROVIDER: 'twilio' }, /^SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN$/],
        [{ WHATSAPP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID }, /^WHATSAPP_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN$/],
        [{ SMS_PROVIDER: 'twilio', WHATSAPP_PROVIDER: 'twilio', TWILIO_AUTH_TOKEN: TOKEN }, /^SMS_PROVIDER and WHATSAPP_PROVIDER=twilio needs/],
        [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: 'AC123', TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15017122661' }, /^TWILIO_ACCOUNT_SID must be AC followed by 32 hexadecimal characters$/],
        [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN }, /^SMS_PROVIDER=twilio needs TWILIO_FROM/],
        [{ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '5017122661' }, /^TWILIO_FROM must be a number in E\.164 form/],
        [{ WHATSAPP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_FROM: '+15017122661' }, /^WHATSAPP_PROVIDER=twilio needs TWILIO_WHATSAPP_FROM/],
        [{ WHATSAPP_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: SID, TWILIO_AUTH_TOKEN: TOKEN, TWILIO_WHATSAPP_FROM: 'whatsapp:14155238886' }, /^TWILIO_WHATSAPP_FROM must be a number in E\.164 form/],
        [{ SMS_PROVIDER: 'twilio', ...twilioEnv, TWILIO_API_BASE_URL: `https://${SID}:${TOKEN}@api.twilio.com` }, /^TWILIO_API_BASE_URL must be an http\(s\) origin/],
        [{ SMS_PROVIDER: 'twilio', ...twilioEnv, TWILIO_API_BASE_URL: 'ftp://api.twilio.com' }, /^TWILIO_API_BASE_URL must be an http\(s\) origin/],
        [{ SMS_PROVIDER: 'twilio', ...twilioEnv, APP_ENV: 'production', TWILIO_API_BASE_URL: 'http://twilio-mock:4010' }, /^TWILIO_API_BASE_URL must be https in production$/],
      ];
      for (const [env, pattern] of cases) {
        const load = () => loadConfig({ ...base, ...env });
        expect(load, JSON.stringify(env)).to.throw(pattern);
        expect(load, JSON.stringify(env)).to.not.throw(new RegExp(TOKEN));
      }
    });
  });

  it('the logger censors the channel secrets wherever a config or its parts are logged', () => {
    const lines: string[] = [];
    const logger = createLogger('info', 'test', 1, { write: (line: string) => void lines.push(line) });
    const config = loadConfig({
      JWT_SECRET: 'config-test-secret-0123456789abcdef0123456789',
      SECRETS_KEY: crypto.randomBytes(32).toString('base64'),
      SMTP_URL,
      REMINDERS_FROM_EMAIL: 'r@example.mx',
      SMS_PROVIDER: 'twilio',
      TWILIO_ACCOUNT_SID: SID,
      TWILIO_AUTH_TOKEN: TOKEN,
      TWILIO_FROM: '+15017122661',
    });
    logger.info({ smtpUrl: config.smtpUrl, twilio: config.twilio }, 'top level');
    logger.info({ config: { smtpUrl: config.smtpUrl, twilio: config.twilio } }, 'nested');
    logger.info({ transport: { auth: { user: 'mailer', pass: SMTP_PASSWORD } }, headers: { authorization: `Basic ${Buffer.from(`${SID}:${TOKEN}`).toString('base64')}` } }, 'transport');
    expect(lines).to.have.length(3);
    for (const line of lines) {
      expect(line).to.not.contain(SMTP_PASSWORD);
      expect(line).to.not.contain(TOKEN);
      expect(line).to.not.contain(Buffer.from(`${SID}:${TOKEN}`).toString('base64'));
    }
    expect(JSON.parse(lines[0]!).twilio).to.include({ accountSid: SID, authToken: '[redacted]', from: '+15017122661' });
  });
});
