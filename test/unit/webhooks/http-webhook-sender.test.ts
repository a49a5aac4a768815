import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { HttpWebhookSender, USER_AGENT } from '../../../adapters/webhooks/http-webhook-sender';
import { NetworkUrlPolicy } from '../../../adapters/webhooks/network-url-policy';
import { isPrivateAddress } from '../../../adapters/webhooks/private-address';
import { startWebhookReceiver, type WebhookReceiver } from '../../support/webhook-receiver';

/** The real HTTP adapter against real sockets on this machine (no waiting beyond short timeouts). */

const SECRET = 'whsec_sender_test_0123456789abcdef';
const request = (url: string, body = '{"eventId":"evt_abc","type":"debt.paid"}') => ({
  url,
  body,
  secret: SECRET,
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
    expect(await sender.send(request(receiver.url('/fails')))).to.deep.include({ statusCode: 500, error: null });
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

  it('gives up after its timeout when no status comes, with the error', async () => {
    const silent = await rawServer(() => undefined);
    try {
      const response = await sender.send(request(silent.url));
      expect(response).to.deep.include({ statusCode: null, error: 'timed out after 300 ms' });
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

  it('reports a refused connection as an error without a status', async () => {
    const gone = await rawServer(() => undefined);
    await gone.close();
    const response = await sender.send(request(gone.url));
    expect(response.statusCode).to.equal(null);
    expect(response.error).to.match(/ECONNREFUSED/);
  });

  it('in production refuses to connect to a private address, literal or resolved', async () => {
    const production = new HttpWebhookSender({ blockPrivateAddresses: true, timeoutMs: 300 });
    const before = receiver.received().length;
    expect(await production.send(request(receiver.url('/in')))).to.deep.include({ statusCode: null, error: 'refused: private address' });
    const byName = await production.send(request(receiver.url('/in').replace('127.0.0.1', 'localhost')));
    expect(byName.statusCode).to.equal(null);
    expect(byName.error).to.match(/private address/);
    expect(receiver.received()).to.have.length(before);
  });
});

describe('webhooks: NetworkUrlPolicy', () => {
  it('outside production accepts any host', async () => {
    const policy = new NetworkUrlPolicy({ blockPrivateAddresses: false });
    expect(await policy.check('http://127.0.0.1:9/x')).to.equal(null);
  });

  it('in production refuses hosts that are or resolve to private, loopback, link-local or reserved addresses, and unresolvable hosts', async () => {
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
    for (const url of ['https://sneaky.example.com/in', 'https://metadata.example.com/', 'https://127.0.0.1/in', 'https://[::1]/in', 'https://[::ffff:127.0.0.1]/in', 'https://192.168.1.10/']) {
      expect(await policy.check(url), url).to.equal('must not resolve to a private, loopback or link-local address');
    }
    expect(await policy.check('https://nowhere.example.com/')).to.equal('host could not be resolved');
  });

  it('knows the private ranges', () => {
    const blocked = ['0.0.0.0', '10.0.0.1', '100.64.0.1', '127.0.0.1', '169.254.169.254', '172.16.0.1', '172.31.255.255', '192.168.0.1', '224.0.0.1', '255.255.255.255', '::', '::1', 'fc00::1', 'fd12::1', 'fe80::1', '::ffff:10.0.0.1', 'not-an-ip'];
    const open = ['8.8.8.8', '93.184.216.34', '172.32.0.1', '192.169.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'];
    expect(blocked.filter((a) => !isPrivateAddress(a))).to.deep.equal([]);
    expect(open.filter(isPrivateAddress)).to.deep.equal([]);
  });
});
