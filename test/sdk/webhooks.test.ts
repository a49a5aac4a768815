import crypto from 'node:crypto';
import { expect } from 'chai';
import { signatureHeader } from '../../adapters/webhooks/signature';
import { parseSignatureHeader, signWebhook, verifyWebhook, WebhookSignatureError } from '../../sdk/typescript/src/index.js';

/**
 * verifyWebhook (Web Crypto) against the server's own signer (adapters/webhooks/signature.ts)
 * and node:crypto: valid deliveries, secret rotation, tolerance, wrong secret, tampered body.
 */

const SECRET = 'whsec_Abc123Abc123Abc123Abc123Abc123Ab';
const NEXT_SECRET = 'whsec_Xyz789Xyz789Xyz789Xyz789Xyz789Xy';
const EVENT = {
  eventId: 'evt_4fQ9wZk2LmP0aXc7Tb1RyN8s',
  type: 'debt.paid',
  createdAt: '2031-05-10T15:00:00.000Z',
  companyCode: 'ACME',
  data: { object: { debtId: 'debt_order-1', status: 'PAID', amount: 100, amountPaid: 100, description: 'Cuota — ñandú' } },
  requestId: 'req_9H2kx0QpA7bLmN3cVt6YzR1w',
};
const RAW = JSON.stringify(EVENT);
const NOW = 1_900_000_000;
const at = (seconds: number) => ({ now: seconds * 1000 });

const hmac = (secret: string, t: number, body: string) => crypto.createHmac('sha256', secret).update(`${t}.${body}`).digest('hex');

async function refusal(promise: Promise<unknown>): Promise<WebhookSignatureError> {
  try {
    await promise;
  } catch (error) {
    expect(error).to.be.instanceOf(WebhookSignatureError);
    return error as WebhookSignatureError;
  }
  throw new Error('expected verifyWebhook to refuse');
}

describe('SDK verifyWebhook', () => {
  it('accepts a delivery signed by the server\'s signer and answers the event', async () => {
    const event = await verifyWebhook(RAW, signatureHeader(SECRET, NOW, RAW), SECRET, at(NOW));
    expect(event).to.deep.equal(EVENT);
  });

  it('takes the raw body as bytes too (Uint8Array, ArrayBuffer), UTF-8 beyond ASCII included', async () => {
    const bytes = new TextEncoder().encode(RAW);
    const header = signatureHeader(SECRET, NOW, RAW);
    expect(await verifyWebhook(bytes, header, SECRET, at(NOW))).to.deep.equal(EVENT);
    expect(await verifyWebhook(bytes.buffer.slice(0) as ArrayBuffer, header, SECRET, { now: new Date(NOW * 1000) })).to.deep.equal(EVENT);
  });

  it('a header with two v1 (a secret rotation): valid with either secret, or with the list of both', async () => {
    const header = `t=${NOW},v1=${hmac(SECRET, NOW, RAW)},v1=${hmac(NEXT_SECRET, NOW, RAW)}`;
    expect(await verifyWebhook(RAW, header, SECRET, at(NOW))).to.deep.equal(EVENT);
    expect(await verifyWebhook(RAW, header, NEXT_SECRET, at(NOW))).to.deep.equal(EVENT);
    // The receiver rotating: it holds both secrets while the sender still signs with the old one.
    const oldOnly = signatureHeader(SECRET, NOW, RAW);
    expect(await verifyWebhook(RAW, oldOnly, [NEXT_SECRET, SECRET], at(NOW))).to.deep.equal(EVENT);
    expect(await signWebhook(RAW, [SECRET, NEXT_SECRET], NOW)).to.equal(header);
  });

  it('refuses a wrong secret', async () => {
    const error = await refusal(verifyWebhook(RAW, signatureHeader(SECRET, NOW, RAW), NEXT_SECRET, at(NOW)));
    expect(error.reason).to.equal('NO_MATCHING_SIGNATURE');
  });

  it('refuses a tampered body (one character, or re-serialised JSON)', async () => {
    const header = signatureHeader(SECRET, NOW, RAW);
    expect((await refusal(verifyWebhook(RAW.replace('100', '900'), header, SECRET, at(NOW)))).reason).to.equal('NO_MATCHING_SIGNATURE');
    expect((await refusal(verifyWebhook(JSON.stringify(EVENT, null, 2), header, SECRET, at(NOW)))).reason).to.equal('NO_MATCHING_SIGNATURE');
    // A signature for another timestamp does not carry over.
    const moved = signatureHeader(SECRET, NOW, RAW).replace(`t=${NOW}`, `t=${NOW + 1}`);
    expect((await refusal(verifyWebhook(RAW, moved, SECRET, at(NOW)))).reason).to.equal('NO_MATCHING_SIGNATURE');
  });

  it('refuses timestamps beyond the tolerance (300 s by default), either side of now', async () => {
    const header = signatureHeader(SECRET, NOW, RAW);
    expect(await verifyWebhook(RAW, header, SECRET, at(NOW + 300))).to.deep.equal(EVENT);
    expect(await verifyWebhook(RAW, header, SECRET, at(NOW - 300))).to.deep.equal(EVENT);
    expect((await refusal(verifyWebhook(RAW, header, SECRET, at(NOW + 301)))).reason).to.equal('TIMESTAMP_OUT_OF_TOLERANCE');
    expect((await refusal(verifyWebhook(RAW, header, SECRET, at(NOW - 301)))).reason).to.equal('TIMESTAMP_OUT_OF_TOLERANCE');
    expect(await verifyWebhook(RAW, header, SECRET, { now: (NOW + 3000) * 1000, toleranceSeconds: 3600 })).to.deep.equal(EVENT);
  });

  it('checks against the clock by default', async () => {
    const t = Math.floor(Date.now() / 1000);
    expect(await verifyWebhook(RAW, await signWebhook(RAW, SECRET, t), SECRET)).to.deep.equal(EVENT);
    expect((await refusal(verifyWebhook(RAW, await signWebhook(RAW, SECRET, t - 3600), SECRET))).reason).to.equal('TIMESTAMP_OUT_OF_TOLERANCE');
  });

  it('refuses a missing or malformed header', async () => {
    expect((await refusal(verifyWebhook(RAW, undefined, SECRET))).reason).to.equal('MISSING_HEADER');
    expect((await refusal(verifyWebhook(RAW, '', SECRET))).reason).to.equal('MISSING_HEADER');
    for (const bad of [`v1=${hmac(SECRET, NOW, RAW)}`, `t=${NOW}`, `t=soon,v1=${hmac(SECRET, NOW, RAW)}`, `t=${NOW},v1=abc`, 'garbage']) {
      expect((await refusal(verifyWebhook(RAW, bad, SECRET, at(NOW)))).reason, bad).to.equal('MALFORMED_HEADER');
    }
    // Unknown schemes beside v1 are ignored; spaces around parts are tolerated.
    expect(await verifyWebhook(RAW, ` t=${NOW} , v0=zzz, v1=${hmac(SECRET, NOW, RAW)}`, SECRET, at(NOW))).to.deep.equal(EVENT);
    expect(parseSignatureHeader(`t=${NOW},v1=${hmac(SECRET, NOW, RAW)},v1=${hmac(NEXT_SECRET, NOW, RAW)}`).signatures).to.have.length(2);
  });

  it('refuses a signed body that is not JSON, and needs a secret', async () => {
    expect((await refusal(verifyWebhook('not json', signatureHeader(SECRET, NOW, 'not json'), SECRET, at(NOW)))).reason).to.equal('INVALID_PAYLOAD');
    try {
      await verifyWebhook(RAW, signatureHeader(SECRET, NOW, RAW), [], at(NOW));
      expect.fail('no secret');
    } catch (error) {
      expect(error).to.be.instanceOf(TypeError);
    }
  });
});
