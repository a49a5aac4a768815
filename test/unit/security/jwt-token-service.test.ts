import crypto from 'node:crypto';
import { expect } from 'chai';
import jwt from 'jsonwebtoken';
import { RandomIdGenerator } from '../../../adapters/ids/random-id-generator';
import { JwtTokenService } from '../../../adapters/security/jwt-token-service';

const SECRET = 'unit-test-secret-that-is-long-enough-0123456789';
const TTL = 14_400;

describe('JwtTokenService', () => {
  let now = Date.parse('2031-05-10T12:00:00.000Z');
  const service = () => new JwtTokenService(SECRET, TTL, () => now);

  beforeEach(() => {
    now = Date.parse('2031-05-10T12:00:00.000Z');
  });

  it('verifies what it issued, again from its cache, and refuses it once expired', () => {
    const tokens = service();
    const { token } = tokens.issue({ clientUserId: 7, organizationId: 3 });
    expect(tokens.verify(token)).to.deep.equal({ clientUserId: 7, organizationId: 3 });
    now += (TTL - 1) * 1000;
    expect(tokens.verify(token)).to.deep.equal({ clientUserId: 7, organizationId: 3 });
    now += 1000;
    expect(tokens.verify(token)).to.equal(null);
  });

  it('hands out copies of cached claims', () => {
    const tokens = service();
    const { token } = tokens.issue({ clientUserId: 7, organizationId: 3 });
    tokens.verify(token)!.organizationId = 99;
    expect(tokens.verify(token)).to.deep.equal({ clientUserId: 7, organizationId: 3 });
  });

  it('refuses tampered, foreign, alg none and issuer-less tokens, also after a good one was cached', () => {
    const tokens = service();
    const { token } = tokens.issue({ clientUserId: 7, organizationId: 3 });
    expect(tokens.verify(token)).to.not.equal(null);
    const [header, payload, signature] = token.split('.');
    const forged = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), org: 4 })).toString('base64url');
    expect(tokens.verify(`${header}.${forged}.${signature}`)).to.equal(null);
    const iat = Math.floor(now / 1000);
    expect(tokens.verify(jwt.sign({ org: 3, iat }, 'another-secret-that-is-long-enough-0123456789', { subject: '7', issuer: 'collections-facade', expiresIn: 60 }))).to.equal(null);
    const none = `${Buffer.from('{"alg":"none","typ":"JWT"}').toString('base64url')}.${payload}.`;
    expect(tokens.verify(none)).to.equal(null);
    const key = crypto.createSecretKey(Buffer.from(SECRET));
    expect(tokens.verify(jwt.sign({ org: 3, iat }, key, { subject: '7', expiresIn: 60 }))).to.equal(null);
  });
});

describe('RandomIdGenerator', () => {
  it('draws base62 ids of the asked length, without repeats', () => {
    const ids = new RandomIdGenerator();
    const seen = new Set<string>();
    for (let i = 0; i < 5000; i++) {
      const id = ids.alphanumeric(24);
      expect(id).to.match(/^[0-9A-Za-z]{24}$/);
      seen.add(id);
    }
    expect(seen.size).to.equal(5000);
  });

  it('uses every character of the alphabet about equally', () => {
    const ids = new RandomIdGenerator();
    const counts = new Map<string, number>();
    for (const ch of ids.alphanumeric(62_000)) counts.set(ch, (counts.get(ch) ?? 0) + 1);
    expect(counts.size).to.equal(62);
    for (const n of counts.values()) expect(n).to.be.within(800, 1200);
  });
});
