import net from 'node:net';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { inspect } from 'node:util';
import { expect } from 'chai';
import { TwilioTextSender, twilioSignature, verifyTwilioSignature } from '../../adapters/messaging/twilio-text-sender';
import { PermanentSendFailure, type OutgoingText } from '../../ports/message-sender';
import { startFakeTwilio, twilioError, type FakeTwilio } from '../support/fake-twilio';

/**
 * adapters/messaging/twilio-text-sender.ts against a local HTTP receiver that checks every
 * request against Twilio's documented shape (test/support/fake-twilio.ts) and answers as Twilio
 * does: the message's sid, its error codes, 429, 5xx, and no answer at all.
 */
describe('Twilio text sender (SMS and WhatsApp, against a local Twilio receiver)', function () {
  this.timeout(20_000);

  const ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef';
  const AUTH_TOKEN = 'f00dfeedc0ffee0123456789abcdef42';
  const SMS_FROM = '+15017122661';
  const WHATSAPP_FROM = '+14155238886';
  let twilio: FakeTwilio;

  before(async () => {
    twilio = await startFakeTwilio(ACCOUNT_SID, AUTH_TOKEN);
  });
  after(() => twilio.close());
  beforeEach(() => twilio.reset());

  const sender = (over: Partial<ConstructorParameters<typeof TwilioTextSender>[0]> = {}) =>
    new TwilioTextSender({ accountSid: ACCOUNT_SID, authToken: AUTH_TOKEN, from: SMS_FROM, whatsappFrom: WHATSAPP_FROM, baseUrl: twilio.baseUrl, timeoutMs: 2000, ...over });

  const BODY = 'Begoña: tu pago de $1,234.50 MXN (≈ €66,80) vence mañana. Paga aquí: https://pagos.example.mx/d/deb_1?s=a&t=b';
  const text = (over: Partial<OutgoingText> = {}): OutgoingText => ({
    channel: 'sms',
    to: '+5215512345678',
    body: BODY,
    reference: 'deb_1.step-0.sms',
    statusCallbackUrl: 'https://api.example.mx/provider-status/twilio?ref=deb_1.step-0.sms',
    ...over,
  });

  /** Every error the sender threw, to search for the token. */
  const errors: unknown[] = [];
  const failure = async (s: TwilioTextSender, message: OutgoingText): Promise<unknown> => {
    const error = await s.send(message).then(
      () => null,
      (e: unknown) => e,
    );
    errors.push(error);
    expect(error, 'the send should have failed').to.be.instanceOf(Error);
    return error;
  };

  it('sends an SMS as Twilio documents it and answers with the message sid', async () => {
    const sent = await sender().send(text());
    expect(twilio.requests).to.have.length(1);
    const [request] = twilio.requests;
    expect(request!.problems).to.deep.equal([]);
    expect(request!.method).to.equal('POST');
    expect(request!.path).to.equal(`/2010-04-01/Accounts/${ACCOUNT_SID}/Messages.json`);
    expect(request!.headers['content-type']).to.match(/^application\/x-www-form-urlencoded/);
    expect(request!.headers.authorization).to.equal(`Basic ${Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64')}`);
    expect(Object.fromEntries(request!.form)).to.deep.equal({
      To: '+5215512345678',
      From: SMS_FROM,
      Body: BODY,
      StatusCallback: 'https://api.example.mx/provider-status/twilio?ref=deb_1.step-0.sms',
    });
    expect(sent.providerMessageId).to.equal(twilio.sids.at(-1));
    expect(sent.providerMessageId).to.match(/^SM[0-9a-f]{32}$/);
  });

  it('leaves StatusCallback out when there is none, and sends from a Messaging Service when TWILIO_FROM is one', async () => {
    const service = 'MG9752274e9e519418a7406176694466fa';
    await sender({ from: service }).send(text({ statusCallbackUrl: undefined }));
    const [request] = twilio.requests;
    expect(request!.problems).to.deep.equal([]);
    expect(Object.fromEntries(request!.form)).to.deep.equal({ To: '+5215512345678', MessagingServiceSid: service, Body: BODY });
  });

  it('sends WhatsApp with whatsapp: on both To and From (TWILIO_WHATSAPP_FROM with or without it)', async () => {
    for (const whatsappFrom of [WHATSAPP_FROM, `whatsapp:${WHATSAPP_FROM}`]) {
      twilio.requests.length = 0;
      const sent = await sender({ whatsappFrom, from: null }).send(text({ channel: 'whatsapp', to: '+5491123456789' }));
      const [request] = twilio.requests;
      expect(request!.problems, whatsappFrom).to.deep.equal([]);
      expect(request!.form.get('To')).to.equal('whatsapp:+5491123456789');
      expect(request!.form.get('From')).to.equal(`whatsapp:${WHATSAPP_FROM}`);
      expect(request!.form.get('Body')).to.equal(BODY);
      expect(sent.providerMessageId).to.equal(twilio.sids.at(-1));
    }
  });

  it('a channel without its sender configured is refused before any request', async () => {
    await failure(sender({ whatsappFrom: null }), text({ channel: 'whatsapp' }));
    await failure(sender({ from: null }), text({ channel: 'sms' }));
    expect(twilio.requests).to.have.length(0);
  });

  it('Twilio error codes for the recipient are permanent failures with a reason', async () => {
    const cases: [OutgoingText['channel'], number, string][] = [
      ['sms', 21211, 'sms_invalid_number (twilio 21211)'],
      ['sms', 21610, 'sms_unsubscribed (twilio 21610)'],
      ['sms', 21614, 'sms_not_mobile (twilio 21614)'],
      ['sms', 21408, 'sms_region_not_permitted (twilio 21408)'],
      ['whatsapp', 63003, 'whatsapp_unknown_recipient (twilio 63003)'],
      ['whatsapp', 63016, 'whatsapp_outside_session_window (twilio 63016)'],
      ['sms', 21999, 'sms_rejected (twilio 21999)'],
    ];
    for (const [channel, code, reason] of cases) {
      twilio.script(twilioError(400, code, `The 'To' number +5215512345678 is not valid (${code}).`));
      const error = await failure(sender(), text({ channel }));
      expect(error, String(code)).to.be.instanceOf(PermanentSendFailure);
      expect((error as PermanentSendFailure).reason).to.equal(reason);
      // Twilio's text repeats the phone number: it is not part of the reason.
      expect((error as PermanentSendFailure).reason).to.not.contain('+52');
    }
    // A 400 without a JSON body is still a refusal of this message.
    twilio.script({ status: 400, body: '<html>Bad Request</html>' });
    expect(((await failure(sender(), text())) as PermanentSendFailure).reason).to.equal('sms_rejected');
    expect(twilio.requests.every((r) => r.problems.length === 0)).to.equal(true);
  });

  it('429, 5xx, wrong credentials and a dropped connection are transient', async () => {
    const cases: [Parameters<FakeTwilio['script']>[0], RegExp][] = [
      [{ ...twilioError(429, 20429, 'Too Many Requests'), headers: { 'Retry-After': '1' } }, /^Twilio: rate limited \(HTTP 429, code 20429\)$/],
      [twilioError(500, 20500, 'Internal Server Error'), /^Twilio: server error \(HTTP 500, code 20500\)$/],
      [{ status: 503, body: '<html>Service Unavailable</html>' }, /^Twilio: server error \(HTTP 503\)$/],
      ['drop', /^Twilio: (connection reset|network error)$/],
    ];
    for (const [scripted, pattern] of cases) {
      twilio.script(scripted);
      const error = await failure(sender(), text());
      expect(error, JSON.stringify(scripted)).to.not.be.instanceOf(PermanentSendFailure);
      expect((error as Error).message).to.match(pattern);
    }
    const wrongToken = await failure(sender({ authToken: 'deadbeefdeadbeefdeadbeefdeadbeef' }), text());
    expect(wrongToken).to.not.be.instanceOf(PermanentSendFailure);
    expect((wrongToken as Error).message).to.equal('Twilio: account or credentials refused (HTTP 401, code 20003)');
  });

  it('a closed port is transient', async () => {
    const closed = net.createServer();
    closed.listen(0, '127.0.0.1');
    await once(closed, 'listening');
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise<void>((r) => closed.close(() => r()));
    const refused = await failure(sender({ baseUrl: `http://127.0.0.1:${closedPort}` }), text());
    expect(refused).to.not.be.instanceOf(PermanentSendFailure);
    expect((refused as Error).message).to.equal('Twilio: connection refused');
  });

  it('an answer that never comes is transient once the timeout passes', async () => {
    twilio.script('hang');
    const started = Date.now();
    const error = await failure(sender({ timeoutMs: 400 }), text());
    expect(error).to.not.be.instanceOf(PermanentSendFailure);
    expect((error as Error).message).to.equal('Twilio: timeout');
    expect(Date.now() - started).to.be.within(350, 3000);
  });

  it('an accepted answer without a sid is not taken for a sent message', async () => {
    twilio.script({ status: 201, body: { status: 'queued' } });
    const error = await failure(sender(), text());
    expect(error).to.not.be.instanceOf(PermanentSendFailure);
  });

  it('no error carries the auth token, the Authorization header or the account SID', () => {
    expect(errors.length).to.be.at.least(10);
    const basic = Buffer.from(`${ACCOUNT_SID}:${AUTH_TOKEN}`).toString('base64');
    for (const error of errors) {
      const everything = [String(error), (error as Error)?.stack ?? '', inspect(error, { depth: 5, showHidden: true }), JSON.stringify(error)].join('\n');
      for (const secret of [AUTH_TOKEN, basic, ACCOUNT_SID, 'deadbeefdeadbeef', '127.0.0.1']) {
        expect(everything, `${secret} in ${(error as Error)?.message}`).to.not.contain(secret);
      }
    }
  });

  it('refuses an account SID that is not one', () => {
    expect(() => new TwilioTextSender({ accountSid: 'not-a-sid', authToken: AUTH_TOKEN, from: SMS_FROM, whatsappFrom: null })).to.throw(/TWILIO_ACCOUNT_SID/);
  });
});

describe('Twilio status callback signature (X-Twilio-Signature)', () => {
  // Twilio's documented example (https://www.twilio.com/docs/usage/security#validating-requests).
  const TOKEN = '12345';
  const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
  const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+14158675309', Digits: '1234', From: '+14158675309', To: '+18005551212' };
  const SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';

  it('computes the documented example', () => {
    expect(twilioSignature(TOKEN, URL, PARAMS)).to.equal(SIGNATURE);
    // The order parameters arrive in does not matter: they are sorted by name.
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(twilioSignature(TOKEN, URL, reversed)).to.equal(SIGNATURE);
  });

  it('accepts the documented request and refuses any change to it', () => {
    expect(verifyTwilioSignature(TOKEN, URL, PARAMS, SIGNATURE)).to.equal(true);
    expect(verifyTwilioSignature(TOKEN, URL, { ...PARAMS, Digits: '9999' }, SIGNATURE)).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, URL, { ...PARAMS, Extra: 'x' }, SIGNATURE)).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, 'https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS, SIGNATURE)).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, 'https://evil.example/myapp.php?foo=1&bar=2', PARAMS, SIGNATURE)).to.equal(false);
    expect(verifyTwilioSignature('54321', URL, PARAMS, SIGNATURE)).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, URL, PARAMS, undefined)).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, URL, PARAMS, '')).to.equal(false);
    expect(verifyTwilioSignature(TOKEN, URL, PARAMS, SIGNATURE.slice(0, -2))).to.equal(false);
  });

  it('accepts the URL with or without its default port, as Twilio’s libraries do', () => {
    expect(verifyTwilioSignature(TOKEN, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', PARAMS, SIGNATURE)).to.equal(true);
    const withPort = twilioSignature(TOKEN, 'https://mycompany.com:443/myapp.php?foo=1&bar=2', PARAMS);
    expect(verifyTwilioSignature(TOKEN, URL, PARAMS, withPort)).to.equal(true);
    // Another port is another URL.
    expect(verifyTwilioSignature(TOKEN, 'https://mycompany.com:8443/myapp.php?foo=1&bar=2', PARAMS, SIGNATURE)).to.equal(false);
  });

  it('signs a status callback’s fields (the shape Twilio posts for a message)', () => {
    const callback = { MessageSid: 'SM0123456789abcdef0123456789abcdef', MessageStatus: 'undelivered', ErrorCode: '30003', AccountSid: 'AC0123456789abcdef0123456789abcdef', To: '+5215512345678' };
    const url = 'https://api.example.mx/provider-status/twilio?ref=deb_1.step-0.sms';
    const signature = twilioSignature('f00dfeedc0ffee0123456789abcdef42', url, callback);
    expect(verifyTwilioSignature('f00dfeedc0ffee0123456789abcdef42', url, callback, signature)).to.equal(true);
    expect(verifyTwilioSignature('f00dfeedc0ffee0123456789abcdef42', url, { ...callback, MessageStatus: 'delivered' }, signature)).to.equal(false);
    // A repeated field: its distinct values, sorted.
    expect(twilioSignature(TOKEN, URL, { x: ['2', '1', '1'] })).to.equal(twilioSignature(TOKEN, URL, { x: ['1', '2'] }));
  });
});
