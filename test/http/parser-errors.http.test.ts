/**
 * Requests Node's HTTP parser rejects before Koa sees them still answer in the error envelope
 * with a requestId (adapters/http/parser-errors.ts): Node's default is a bare status line.
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { expect } from 'chai';
import { type ApiHarness, describeEachDatabase } from '../support/harness';
import { REQUEST_ID } from '../support/http-expect';

/** Writes `raw` on a fresh connection and resolves with the whole answer as text. */
function rawRequest(api: ApiHarness, raw: string): Promise<string> {
  const { port } = api.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(raw));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer));
    socket.on('error', reject);
  });
}

function envelopeOf(answer: string): { status: number; body: any; requestIdHeader: string | undefined } {
  const [head, body] = answer.split('\r\n\r\n') as [string, string];
  const status = Number(head.split(' ')[1]);
  const requestIdHeader = /x-request-id: (\S+)/i.exec(head)?.[1];
  return { status, body: JSON.parse(body), requestIdHeader };
}

describeEachDatabase('HTTP parser errors in the envelope', ({ api }) => {
  it('answers a request line over 16 KiB with 431 HEADERS_TOO_LARGE in the envelope', async () => {
    const res = await api().http.get(`/contacts?name=${'x'.repeat(20_000)}`);
    expect(res.status).to.equal(431);
    expect(res.body.error.code).to.equal('HEADERS_TOO_LARGE');
    expect(res.body.error.message).to.be.a('string').and.not.empty;
    expect(res.body.requestId).to.match(REQUEST_ID);
    expect(res.headers['x-request-id']).to.equal(res.body.requestId);
  });

  it('answers a malformed request line with 400 INVALID_REQUEST in the envelope', async () => {
    const { status, body, requestIdHeader } = envelopeOf(await rawRequest(api(), 'NOT A REQUEST\r\n\r\n'));
    expect(status).to.equal(400);
    expect(body.error).to.deep.equal({ code: 'INVALID_REQUEST', message: 'Malformed HTTP request' });
    expect(body.requestId).to.match(REQUEST_ID);
    expect(requestIdHeader).to.equal(body.requestId);
  });

  it('still serves requests on other connections afterwards', async () => {
    expect((await api().http.get('/health/live')).status).to.equal(200);
  });
});
