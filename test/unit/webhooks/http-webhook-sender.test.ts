import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { errorClassOf, HttpWebhookSender, USER_AGENT } from '../../../adapters/webhooks/http-webhook-sender';
import { NetworkUrlPolicy } from '../../../adapters/webhooks/network-url-policy';
import { isPrivateAddress } from '../../../adapters/webhooks/private-address';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/** The real HTTP adapter against real sockets on this machine (no waiting beyond short timeouts). */

const SECRET = 'whsec_sender_test_0123456789abcdef';
const request = (url: string, body = '{"eventId":"evt_abc","type":"debt.paid"}') => ({
  url,
  body,
  secrets: [SECRET],
  timestamp: Math.floor(Date.now() / 1000),
  eventId: 'evt_abc',
});

/** A server whose handler the test writes. */
async function rawServer(handler: http.RequestListener): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer(handler);
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe('webhooks: HttpWebhookSender (real sockets)', () => {
  let receiver: WebhookReceiver;
  const sender = new HttpWebhookSender({ blockPrivateAddresses: false, timeoutMs: 300 });

  before(async () => {
    receiver = await startWebhookReceiver();
    receiver.setSecret('/in', SECRET);
  });
  after(() => receiver.close());

  it('POSTs the body as JSON with a valid X-Signature, the event id and its user agent; answers the status', async () => {
    const response = await sender.send(request(receiver.url('/in')));
    expect(response).to.deep.include({ statusCode: 200, error: null });
    expect(response.durationMs).to.be.a('number').and.at.least(0);
    const [got] = receiver.received('/in');
    expect(got!.raw).to.equal('{"eventId":"evt_abc","type":"debt.paid"}');
    expect(got!.signatureValid).to.equal(true);
    expect(got!.headers).to.deep.include({ 'content-type': 'application/json', 'x-event-id': 'evt_abc', 'user-agent': USER_AGENT });
    expect(got!.headers['x-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64}$/);
  });

  it('sends non-ASCII bodies byte for byte (the signature covers the UTF-8 bytes)', async () => {
    receiver.setSecret('/utf8', SECRET);
    const body = '{"name":"José Ñúñez ✓"}';
    expect((await sender.send(request(receiver.url('/utf8'), body))).statusCode).to.equal(200);
    const [got] = receiver.received('/utf8');
    expect(got!.raw).to.equal(body);
    expect(got!.signatureValid).to.equal(true);
  });

  it('reports a 500 as its status, and does not follow a redirect', async () => {
    receiver.script('/fails', [500]);
    expect(await sender.send(request(receiver.url('/fails')))).to.deep.include({ statusCode: 500, error: null }); // the core calls it http_status
    const redirecting = await rawServer((_, res) => {
      res.writeHead(302, { Location: receiver.url('/in') });
      res.end();
    });
    try {
      const before = receiver.received('/in').length;
      expect(await sender.send(request(redirecting.url))).to.deep.include({ statusCode: 302, error: null });
      expect(receiver.received('/in')).to.have.length(before);
    } finally {
      await redirecting.close();
    }
  });

  it('gives up after its timeout when no status comes: error class timeout', async () => {
    const silent = await rawServer(() => undefined);
    try {
      const response = await sender.send(request(silent.url));
      expect(response).to.deep.include({ statusCode: null, error: 'timeout' });
      expect(response.durationMs).to.be.at.least(290);
    } finally {
      await silent.close();
    }
  });

  it('counts a status that arrives in time even when the body never ends', async () => {
    const streaming = await rawServer((_, res) => {
      res.writeHead(202, { 'Content-Type': 'application/json' });
      res.write('{"still":');
    });
    try {
      expect(await sender.send(request(streaming.url))).to.deep.include({ statusCode: 202, error: null });
    } finally {
      await streaming.close();
    }
  });

  it('reports a refused connection as the class connection_refused, never the address', async () => {
    const gone = await rawServer(() => undefined);
    await gone.close();
    const response = await sender.send(request(gone.url));
    expect(response).to.deep.include({ statusCode: null, error: 'connection_refused' });
  });

  it('reports a name that does not resolve as dns_error, a failed TLS handshake as tls_error, a reset as connection_error', async () => {
    expect(await sender.send(request('http://no-such-host.invalid/in'))).to.deep.include({ statusCode: null, error: 'dns_error' });
    // https to a plain-HTTP listener: the handshake fails.
    expect(await sender.send(request(receiver.url('/in').replace('http:', 'https:')))).to.deep.include({ statusCode: null, error: 'tls_error' });
    const rude = await rawServer((req) => req.socket.destroy());
    try {
      expect(await sender.send(request(rude.url))).to.deep.include({ statusCode: null, error: 'connection_error' });
    } finally {
      await rude.close();
    }
  });

  it('classifies transport errors by code, whatever their message says', () => {
    const error = (code: string, extra: Record<string, unknown> = {}) => Object.assign(new Error(`connect ${code} 10.0.0.7:5432`), { code, ...extra });
    expect(errorClassOf(error('ECONNREFUSED'))).to.equal('connection_refused');
    expect(errorClassOf(error('ETIMEDOUT'))).to.equal('timeout');
    expect(errorClassOf(error('ENOTFOUND'))).to.equal('dns_error');
    expect(errorClassOf(error('EAI_AGAIN', { syscall: 'getaddrinfo' }))).to.equal('dns_error');
    expect(errorClassOf(error('CERT_HAS_EXPIRED'))).to.equal('tls_error');
    expect(errorClassOf(error('ERR_TLS_CERT_ALTNAME_INVALID'))).to.equal('tls_error');
    expect(errorClassOf(error('EPROTO'))).to.equal('tls_error');
    expect(errorClassOf(error('ECONNRESET'))).to.equal('connection_error');
    expect(errorClassOf(error('EHOSTUNREACH'))).to.equal('connection_error');
    const aggregate = Object.assign(new AggregateError([error('ECONNREFUSED'), error('ECONNREFUSED')]), { code: undefined });
    expect(errorClassOf(aggregate as never)).to.equal('connection_refused');
  });

  it('without the opt-in refuses to connect to a private address, literal or resolved: blocked_address, nothing sent', async () => {
    const guarded = new HttpWebhookSender({ blockPrivateAddresses: true, timeoutMs: 300 });
    const before = receiver.received().length;
    expect(await guarded.send(request(receiver.url('/in')))).to.deep.include({ statusCode: null, error: 'blocked_address' });
    expect(await guarded.send(request(receiver.url('/in').replace('127.0.0.1', 'localhost')))).to.deep.include({ statusCode: null, error: 'blocked_address' });
    expect(await guarded.send(request(receiver.url('/in').replace('127.0.0.1', '[::ffff:127.0.0.1]')))).to.deep.include({ statusCode: null, error: 'blocked_address' });
    expect(receiver.received()).to.have.length(before);
  });

  it('signs with every secret given, the first first: one v1 each, each verifies', async () => {
    receiver.setSecret('/two', 'whsec_old_one_0123456789abcdefghij');
    const response = await sender.send({ ...request(receiver.url('/two')), secrets: [SECRET, 'whsec_old_one_0123456789abcdefghij'] });
    expect(response.statusCode).to.equal(200);
    const [got] = receiver.received('/two');
    expect(got!.headers['x-signature']).to.match(/^t=\d+,v1=[0-9a-f]{64},v1=[0-9a-f]{64}$/);
    expect(got!.signatureValid, 'the old secret verifies').to.equal(true);
    receiver.setSecret('/two', SECRET);
    await sender.send({ ...request(receiver.url('/two')), secrets: [SECRET, 'whsec_old_one_0123456789abcdefghij'] });
    expect(receiver.received('/two')[1]!.signatureValid, 'the new secret verifies').to.equal(true);
  });
});

describe('webhooks: NetworkUrlPolicy', () => {
  it('with WEBHOOK_ALLOW_PRIVATE_URLS accepts any host', async () => {
    const policy = new NetworkUrlPolicy({ blockPrivateAddresses: false });
    expect(await policy.check('http://127.0.0.1:9/x')).to.equal(null);
  });

  it('otherwise (every environment) refuses hosts that are or resolve to private, loopback, link-local or reserved addresses, and unresolvable hosts', async () => {
    const dns: Record<string, string[]> = {
      'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
      'sneaky.example.com': ['93.184.216.34', '10.1.2.3'],
      'metadata.example.com': ['169.254.169.254'],
    };
    const policy = new NetworkUrlPolicy({ blockPrivateAddresses: true }, async (host) => {
      const found = dns[host];
      if (!found) throw new Error('ENOTFOUND');
      return found;
    });
    expect(await policy.check('https://hooks.example.com/in')).to.equal(null);
    expect(await policy.check('https://93.184.216.34/in')).to.equal(null);
    for (const url of [
      'https://sneaky.example.com/in', 'https://metadata.example.com/', 'https://127.0.0.1/in', 'https://[::1]/in', 'https://[::ffff:127.0.0.1]/in', 'https://192.168.1.10/',
      'http://2130706433/in', 'http://0x7f.1/in', 'https://[::127.0.0.1]/in', 'https://[2002:a9fe:a9fe::1]/', 'https://[64:ff9b::a9fe:a9fe]/', 'https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    ]) {
      expect(await policy.check(url), url).to.equal('must not resolve to a private, loopback or link-local address');
    }
    expect(await policy.check('https://nowhere.example.com/')).to.equal('host could not be resolved');
  });

  it('knows the private ranges, and every IPv6 form that carries an IPv4 address', () => {
    const blocked = [
      '0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.168.0.1', '192.88.99.1', '224.0.0.1', '255.255.255.255',
      '::', '::1', 'fc00::1', 'fd12::1', 'fe80::1', 'fec0::1', 'ff02::1', '2001:db8::1', 'not-an-ip',
      // IPv4-mapped (::ffff:0:0/96), in both spellings, whatever the IPv4 address: public ones too.
      '::ffff:10.0.0.1', '::ffff:7f00:1', '::ffff:8.8.8.8',
      // IPv4-compatible ::a.b.c.d (::/96).
      '::127.0.0.1', '::7f00:1', '::a9fe:a9fe', '::8.8.8.8',
      // 6to4 (2002::/16), Teredo (2001::/32), NAT64 (64:ff9b::/96 and 64:ff9b:1::/48), SIIT.
      '2002:7f00:1::', '2002:a9fe:a9fe::1', '2002:808:808::1', '2001:0:4136:e378:8000:63bf:3fff:fdd2', '2001::1',
      '64:ff9b::7f00:1', '64:ff9b::808:808', '64:ff9b:1::a00:1', '::ffff:0:7f00:1',
    ];
    const open = ['8.8.8.8', '93.184.216.34', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '2001:4860:4860::8888', '2a00:1450:4001::200e', '2003::1'];
    expect(blocked.filter((a) => !isPrivateAddress(a))).to.deep.equal([]);
    expect(open.filter(isPrivateAddress)).to.deep.equal([]);
  });
});
