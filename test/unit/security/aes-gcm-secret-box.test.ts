import crypto from 'node:crypto';
import { expect } from 'chai';
import fc from 'fast-check';
import { AesGcmSecretBox, parseSecretsKey, secretsKeyId } from '../../../adapters/security/aes-gcm-secret-box';

/** The node:crypto SecretBox: AES-256-GCM, the key named in every value, several keys for rotation. */
describe('security: AesGcmSecretBox', () => {
  const keyA = crypto.randomBytes(32);
  const keyB = crypto.randomBytes(32);

  it('seals to enc:v1:<key id>:<base64url>, a fresh IV each time, and opens back', () => {
    const box = new AesGcmSecretBox([keyA]);
    const one = box.seal('whsec_secret', 'ctx');
    const two = box.seal('whsec_secret', 'ctx');
    expect(one).to.match(new RegExp(`^enc:v1:${secretsKeyId(keyA)}:[A-Za-z0-9_-]+$`));
    expect(one).to.not.equal(two);
    expect(box.open(one, 'ctx')).to.equal('whsec_secret');
    expect(box.isSealed(one)).to.equal(true);
    expect(box.isSealed('whsec_secret')).to.equal(false);
  });

  it('any text round-trips (property)', () => {
    const box = new AesGcmSecretBox([keyA]);
    fc.assert(fc.property(fc.string({ unit: 'binary', maxLength: 200 }), fc.string({ maxLength: 40 }), (text, context) => box.open(box.seal(text, context), context) === text));
  });

  it('does not open under another context, with a changed byte, a missing key, or a malformed value', () => {
    const box = new AesGcmSecretBox([keyA]);
    const sealed = box.seal('whsec_secret', 'webhook_endpoints:a');
    expect(() => box.open(sealed, 'webhook_endpoints:b')).to.throw(/does not authenticate/);
    const bytes = Buffer.from(sealed.split(':')[3]!, 'base64url');
    bytes[14] = bytes[14]! ^ 1;
    expect(() => box.open(`enc:v1:${secretsKeyId(keyA)}:${bytes.toString('base64url')}`, 'webhook_endpoints:a')).to.throw(/does not authenticate/);
    expect(() => new AesGcmSecretBox([keyB]).open(sealed, 'webhook_endpoints:a')).to.throw(/not loaded/);
    for (const bad of ['enc:v1:zz:abc', 'enc:v1:', 'whsec_x', `enc:v1:${secretsKeyId(keyA)}:AAAA`]) expect(() => box.open(bad, 'x'), bad).to.throw();
  });

  it('rotates: the first key seals, every key opens; keyOf tells current, older and unknown keys apart', () => {
    const old = new AesGcmSecretBox([keyA]).seal('s', 'c');
    const rotated = new AesGcmSecretBox([keyB, keyA]);
    expect(rotated.open(old, 'c')).to.equal('s');
    expect(rotated.keyOf(old)).to.equal('older');
    const fresh = rotated.seal('s', 'c');
    expect(fresh).to.include(`:${secretsKeyId(keyB)}:`);
    expect(rotated.keyOf(fresh)).to.equal('current');
    expect(new AesGcmSecretBox([keyB]).keyOf(old)).to.equal('unknown');
  });

  it('a key id is 16 hex characters derived from the key, and tells nothing of it', () => {
    expect(secretsKeyId(keyA)).to.match(/^[0-9a-f]{16}$/).and.equal(secretsKeyId(Buffer.from(keyA)));
    expect(secretsKeyId(keyA)).to.not.equal(secretsKeyId(keyB));
    expect(keyA.toString('hex')).to.not.include(secretsKeyId(keyA));
  });

  it('needs at least one key of 32 bytes', () => {
    expect(() => new AesGcmSecretBox([])).to.throw();
    expect(() => new AesGcmSecretBox([crypto.randomBytes(16)])).to.throw(/32 bytes/);
  });

  it('SECRETS_KEY entries: 64 hex characters or base64 (standard or URL-safe, padding optional) of 32 bytes; anything else throws without the value', () => {
    const key = crypto.randomBytes(32);
    expect(parseSecretsKey(key.toString('hex'), 'K').equals(key)).to.equal(true);
    expect(parseSecretsKey(key.toString('hex').toUpperCase(), 'K').equals(key)).to.equal(true);
    expect(parseSecretsKey(key.toString('base64'), 'K').equals(key)).to.equal(true);
    expect(parseSecretsKey(key.toString('base64url'), 'K').equals(key)).to.equal(true);
    expect(parseSecretsKey(` ${key.toString('base64')}\n`, 'K').equals(key)).to.equal(true);
    for (const bad of ['', 'short', crypto.randomBytes(16).toString('base64'), crypto.randomBytes(48).toString('base64'), 'g'.repeat(64), 'x'.repeat(44)]) {
      expect(() => parseSecretsKey(bad, 'SECRETS_KEY'), bad).to.throw(/SECRETS_KEY must hold 32 random bytes/);
      try {
        parseSecretsKey(bad, 'SECRETS_KEY');
      } catch (error) {
        if (bad.length > 0) expect((error as Error).message).to.not.include(bad);
      }
    }
  });
});
