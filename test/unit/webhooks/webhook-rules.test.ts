import { expect } from 'chai';
import fc from 'fast-check';
import { computeSignature, signatureHeader, verifySignature } from '../../../adapters/webhooks/signature';
import { durations } from '../../../cmd/shared/config';
import { InvalidRequestError } from '../../../internal/shared/errors';
import { ATTEMPT_ERRORS, attemptErrorOf, storedAttemptError } from '../../../internal/webhooks/attempt-error';
import { advanceCursor, GAP_WAIT_MS } from '../../../internal/webhooks/fan-out-cursor';
import { DEFAULT_RETRY_DELAYS_MS, isDelivered, retryDelayAfter } from '../../../internal/webhooks/retry-schedule';
import { DEFAULT_SECRET_GRACE_HOURS, MAX_SECRET_GRACE_HOURS, newWebhookSecret, parseGraceHours, rotateSecret, signingSecrets } from '../../../internal/webhooks/secret-rotation';
import { parseEnabledEvents, parseWebhookUrl, subscribes } from '../../../internal/webhooks/webhook-endpoint';

/** The pure rules of webhooks: signing, the retry schedule, the fan-out cursor, endpoint fields. */

describe('webhooks: signature', () => {
  const secret = 'whsec_0123456789abcdefghijABCDEFGHIJ';
  const body = '{"eventId":"evt_1","type":"debt.created"}';

  it('is HMAC-SHA256(secret, "<t>.<raw body>") in hex, in the header as t=<t>,v1=<hex>', () => {
    // Independent reference value (printf '1700000000.{"a":1}' | openssl dgst -sha256 -hmac whsec_test).
    expect(computeSignature('whsec_test', 1_700_000_000, '{"a":1}')).to.equal('38877139021993b830af32feea6e18a8da83eb2f6e49ee50bd9e4cf4ca4d3789');
    expect(signatureHeader(secret, 1_700_000_000, body)).to.equal(`t=1700000000,v1=${computeSignature(secret, 1_700_000_000, body)}`);
  });

  it('verifies the header a delivery carries, within the tolerance', () => {
    const header = signatureHeader(secret, 1_700_000_000, body);
    expect(verifySignature(header, secret, body, { nowSeconds: 1_700_000_100 })).to.equal(true);
    expect(verifySignature(header, secret, body, { nowSeconds: 1_700_000_000 - 299 })).to.equal(true);
  });

  it('refuses another body, another secret, an old or future timestamp, a missing or malformed header', () => {
    const header = signatureHeader(secret, 1_700_000_000, body);
    const now = { nowSeconds: 1_700_000_000 };
    expect(verifySignature(header, secret, body + ' ', now)).to.equal(false);
    expect(verifySignature(header, secret + 'x', body, now)).to.equal(false);
    expect(verifySignature(header, secret, body, { nowSeconds: 1_700_000_301 })).to.equal(false);
    expect(verifySignature(header, secret, body, { nowSeconds: 1_699_999_699 })).to.equal(false);
    expect(verifySignature(undefined, secret, body, now)).to.equal(false);
    expect(verifySignature('v1=abc', secret, body, now)).to.equal(false);
    expect(verifySignature(header.replace('t=1700000000', 't=1700000001'), secret, body, now)).to.equal(false);
  });

  it('any body and secret round-trip, and any change to the body breaks it', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string(), fc.integer({ min: 0, max: 2_000_000_000 }), (key, text, t) => {
        const header = signatureHeader(key, t, text);
        expect(verifySignature(header, key, text, { nowSeconds: t })).to.equal(true);
        expect(verifySignature(header, key, text + 'x', { nowSeconds: t })).to.equal(false);
      }),
    );
  });
});

describe('webhooks: retry schedule', () => {
  const MINUTE = 60_000;
  const HOUR = 60 * MINUTE;

  it('doubles from one minute (32 min, then whole hours), capped at 16 hours, and stays within three days: 15 attempts', () => {
    expect(DEFAULT_RETRY_DELAYS_MS).to.deep.equal([
      ...[1, 2, 4, 8, 16, 32].map((m) => m * MINUTE),
      ...[1, 2, 4, 8, 16, 16, 16, 7].map((h) => h * HOUR),
    ]);
    const total = DEFAULT_RETRY_DELAYS_MS.reduce((a, b) => a + b, 0);
    expect(total).to.be.at.most(72 * HOUR).and.at.least(70 * HOUR);
    expect(DEFAULT_RETRY_DELAYS_MS).to.have.length(14);
  });

  it('the n-th failed attempt waits the n-th delay; after the last one there is none', () => {
    expect(retryDelayAfter([10, 20, 30], 1)).to.equal(10);
    expect(retryDelayAfter([10, 20, 30], 3)).to.equal(30);
    expect(retryDelayAfter([10, 20, 30], 4)).to.equal(null);
    expect(retryDelayAfter(DEFAULT_RETRY_DELAYS_MS, 15)).to.equal(null);
  });

  it('only a 2xx status is a delivery', () => {
    expect([200, 201, 204, 299].map(isDelivered)).to.deep.equal([true, true, true, true]);
    expect([null, 100, 199, 301, 302, 400, 404, 410, 500, 503].map(isDelivered)).to.deep.equal(Array(10).fill(false));
  });

  it('WEBHOOK_RETRY_DELAYS reads durations with units (a bare number is ms) and refuses anything else', () => {
    expect(durations('100ms,1s, 2m ,1.5h,1d,250', 'X')).to.deep.equal([100, 1000, 120_000, 5_400_000, 86_400_000, 250]);
    for (const bad of ['', '0', '1m,', 'abc', '-1s', '1w']) expect(() => durations(bad, 'X'), bad).to.throw(/X must be/);
  });
});

describe('webhooks: fan-out cursor', () => {
  const NOW = 1_000_000;

  it('moves past consecutive rows without gaps', () => {
    expect(advanceCursor({ lastRowId: 10, gaps: [] }, [11, 12, 13], [], NOW)).to.deep.equal({ lastRowId: 13, gaps: [] });
    expect(advanceCursor({ lastRowId: 10, gaps: [] }, [], [], NOW)).to.deep.equal({ lastRowId: 10, gaps: [] });
  });

  it('keeps the ids missing before and between the rows read (not yet committed) as gaps', () => {
    expect(advanceCursor({ lastRowId: 10, gaps: [] }, [13, 14, 17], [], NOW)).to.deep.equal({
      lastRowId: 17,
      gaps: [
        { from: 11, to: 12, seenAt: NOW },
        { from: 15, to: 16, seenAt: NOW },
      ],
    });
  });

  it('a row that commits late leaves its gap, splitting it', () => {
    const cursor = { lastRowId: 20, gaps: [{ from: 11, to: 15, seenAt: NOW }] };
    expect(advanceCursor(cursor, [], [13], NOW + 1)).to.deep.equal({
      lastRowId: 20,
      gaps: [
        { from: 11, to: 12, seenAt: NOW },
        { from: 14, to: 15, seenAt: NOW },
      ],
    });
    expect(advanceCursor(cursor, [], [11, 12, 13, 14, 15], NOW + 1)).to.deep.equal({ lastRowId: 20, gaps: [] });
  });

  it('gives a gap up once it is older than the wait (a rolled-back transaction)', () => {
    const cursor = { lastRowId: 20, gaps: [{ from: 11, to: 11, seenAt: NOW }] };
    expect(advanceCursor(cursor, [], [], NOW + GAP_WAIT_MS).gaps).to.have.length(1);
    expect(advanceCursor(cursor, [], [], NOW + GAP_WAIT_MS + 1).gaps).to.deep.equal([]);
  });

  it('every id is read exactly once whatever order rows commit in (property)', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 60 }), { minLength: 1, maxLength: 60 }), (commitOrder) => {
        const ids = [...new Set(commitOrder)];
        let cursor = { lastRowId: 0, gaps: [] as { from: number; to: number; seenAt: number }[] };
        const committed = new Set<number>();
        const seen: number[] = [];
        for (const id of ids) {
          committed.add(id);
          const fresh = [...committed].filter((i) => i > cursor.lastRowId).sort((a, b) => a - b);
          const late = [...committed].filter((i) => cursor.gaps.some((g) => i >= g.from && i <= g.to));
          seen.push(...late, ...fresh);
          cursor = advanceCursor(cursor, fresh, late, NOW);
        }
        expect([...seen].sort((a, b) => a - b)).to.deep.equal([...ids].sort((a, b) => a - b));
      }),
    );
  });
});

describe('webhooks: endpoint fields', () => {
  const fieldOf = (work: () => unknown) => {
    try {
      work();
    } catch (error) {
      expect(error).to.be.instanceOf(InvalidRequestError);
      return (error as InvalidRequestError).details.map((d) => d.field);
    }
    return expect.fail('expected a 400');
  };

  it('enabledEvents: distinct event types, or ["*"] alone', () => {
    expect(parseEnabledEvents(['*'])).to.deep.equal(['*']);
    expect(parseEnabledEvents(['debt.paid', 'debt.created'])).to.deep.equal(['debt.paid', 'debt.created']);
    for (const bad of [[], ['*', 'debt.paid'], ['debt.paid', 'debt.paid'], ['debt.unknown']]) {
      expect(fieldOf(() => parseEnabledEvents(bad)), JSON.stringify(bad)).to.deep.equal(['enabledEvents']);
    }
  });

  it('subscribes to its types, or to every type with "*"', () => {
    expect(subscribes({ enabledEvents: ['*'] }, 'payment_link.paid')).to.equal(true);
    expect(subscribes({ enabledEvents: ['debt.paid'] }, 'debt.paid')).to.equal(true);
    expect(subscribes({ enabledEvents: ['debt.paid'] }, 'debt.created')).to.equal(false);
  });

  it('url: an absolute http(s) URL with a host, no credentials and no fragment; https only when required', () => {
    expect(parseWebhookUrl('http://127.0.0.1:8080/hooks?x=1', false)).to.equal('http://127.0.0.1:8080/hooks?x=1');
    expect(parseWebhookUrl('https://hooks.example.com/in', true)).to.equal('https://hooks.example.com/in');
    expect(parseWebhookUrl('https://hooks.example.com/in?user=a@b', true), 'an @ in the query is not a credential').to.equal('https://hooks.example.com/in?user=a@b');
    for (const bad of [
      'hooks.example.com', '/relative', 'ftp://example.com/x', 'javascript:alert(1)', 'https://example.com/#frag', `https://example.com/${'a'.repeat(2048)}`,
      'https://user:pw@hooks.example.com/in', 'https://user@hooks.example.com/in', 'https://:pw@hooks.example.com/in',
    ]) {
      expect(fieldOf(() => parseWebhookUrl(bad, false)), bad).to.deep.equal(['url']);
    }
    expect(fieldOf(() => parseWebhookUrl('http://hooks.example.com/in', true))).to.deep.equal(['url']);
  });
});

describe('webhooks: attempt errors are classes', () => {
  it('an answer that is not a 2xx is http_status; the transport\'s class otherwise; a 2xx none', () => {
    expect(attemptErrorOf(500, null)).to.equal('http_status');
    expect(attemptErrorOf(302, null)).to.equal('http_status');
    expect(attemptErrorOf(204, null)).to.equal(null);
    expect(attemptErrorOf(null, 'timeout')).to.equal('timeout');
    expect(attemptErrorOf(null, null)).to.equal('connection_error');
  });

  it('attempts stored before (raw transport messages, no error beside a status) read as classes, never with an address', () => {
    const read = (statusCode: number | null, succeeded: boolean, stored: string | null) => storedAttemptError(statusCode, succeeded, stored);
    expect(read(500, false, null)).to.equal('http_status');
    expect(read(200, true, null)).to.equal(null);
    expect(read(null, false, 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9')).to.equal('connection_refused');
    expect(read(null, false, 'connect ECONNREFUSED 10.0.0.7:5432')).to.equal('connection_refused');
    expect(read(null, false, 'timed out after 10000 ms')).to.equal('timeout');
    expect(read(null, false, 'refused: private address')).to.equal('blocked_address');
    expect(read(null, false, 'refused: metadata.internal resolves to a private address')).to.equal('blocked_address');
    expect(read(null, false, 'ENOTFOUND: getaddrinfo ENOTFOUND hooks.example.invalid')).to.equal('dns_error');
    expect(read(null, false, 'EAI_AGAIN: getaddrinfo EAI_AGAIN hooks.example.com')).to.equal('dns_error');
    expect(read(null, false, 'CERT_HAS_EXPIRED: certificate has expired')).to.equal('tls_error');
    expect(read(null, false, 'EPROTO: 80F8:error:0A00010B:SSL routines:ssl3_get_record:wrong version number')).to.equal('tls_error');
    expect(read(null, false, 'ECONNRESET: socket hang up')).to.equal('connection_error');
    expect(read(null, false, 'invalid url')).to.equal('connection_error');
    for (const cls of ATTEMPT_ERRORS) expect(read(null, false, cls)).to.equal(cls);
  });
});

describe('webhooks: secret rotation rules', () => {
  const NOW = new Date('2031-05-10T15:00:00.000Z');
  const HOUR = 3_600_000;

  it('expiresInHours: absent is 24; whole hours 0..168; anything else 400 on expiresInHours', () => {
    expect(DEFAULT_SECRET_GRACE_HOURS).to.equal(24);
    expect(MAX_SECRET_GRACE_HOURS).to.equal(168);
    expect(parseGraceHours(undefined)).to.equal(24);
    for (const ok of [0, 1, 24, 168]) expect(parseGraceHours(ok)).to.equal(ok);
    for (const bad of [-1, 169, 0.5, Number.NaN, Infinity, '24', null, true]) {
      expect(() => parseGraceHours(bad), String(bad)).to.throw(InvalidRequestError).with.property('details').that.deep.equals([
        { field: 'expiresInHours', issue: 'must be a whole number of hours from 0 to 168' },
      ]);
    }
  });

  it('rotating keeps the replaced secret for the grace period (0: none); again during it, only the one it replaces', () => {
    expect(rotateSecret({ secret: 'whsec_a' }, 'whsec_b', 24, NOW)).to.deep.equal({ secret: 'whsec_b', previousSecret: 'whsec_a', previousSecretExpiresAt: new Date(NOW.getTime() + 24 * HOUR) });
    expect(rotateSecret({ secret: 'whsec_a' }, 'whsec_b', 0, NOW)).to.deep.equal({ secret: 'whsec_b', previousSecret: null, previousSecretExpiresAt: null });
    const during = { secret: 'whsec_b', previousSecret: 'whsec_a', previousSecretExpiresAt: new Date(NOW.getTime() + HOUR) };
    expect(rotateSecret(during, 'whsec_c', 2, NOW)).to.deep.equal({ secret: 'whsec_c', previousSecret: 'whsec_b', previousSecretExpiresAt: new Date(NOW.getTime() + 2 * HOUR) });
  });

  it('signs with the current secret first and the previous one strictly before its expiry', () => {
    const endpoint = { secret: 'whsec_b', previousSecret: 'whsec_a', previousSecretExpiresAt: new Date(NOW.getTime() + HOUR) };
    expect(signingSecrets(endpoint, NOW)).to.deep.equal(['whsec_b', 'whsec_a']);
    expect(signingSecrets(endpoint, new Date(NOW.getTime() + HOUR - 1))).to.deep.equal(['whsec_b', 'whsec_a']);
    expect(signingSecrets(endpoint, new Date(NOW.getTime() + HOUR))).to.deep.equal(['whsec_b']);
    expect(signingSecrets({ secret: 'whsec_b', previousSecret: null, previousSecretExpiresAt: null }, NOW)).to.deep.equal(['whsec_b']);
  });

  it('a new secret is whsec_ and 32 base62 characters', () => {
    expect(newWebhookSecret({ alphanumeric: (n) => 'x'.repeat(n) })).to.equal(`whsec_${'x'.repeat(32)}`);
  });

  it('the header carries one v1 per secret; a receiver holding either secret verifies it', () => {
    const header = signatureHeader(['whsec_new', 'whsec_old'], 1_700_000_000, '{"a":1}');
    expect(header).to.equal(`t=1700000000,v1=${computeSignature('whsec_new', 1_700_000_000, '{"a":1}')},v1=${computeSignature('whsec_old', 1_700_000_000, '{"a":1}')}`);
    for (const secret of ['whsec_new', 'whsec_old']) expect(verifySignature(header, secret, '{"a":1}', { nowSeconds: 1_700_000_000 }), secret).to.equal(true);
    expect(verifySignature(header, 'whsec_other', '{"a":1}', { nowSeconds: 1_700_000_000 })).to.equal(false);
    expect(() => signatureHeader([], 1, 'x')).to.throw();
  });
});
