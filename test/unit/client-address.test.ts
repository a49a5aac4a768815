/** TRUST_PROXY_HOPS: which address a request's buckets key on (adapters/http/server.ts clientAddressOptions). */
import http from 'node:http';
import { expect } from 'chai';
import Koa from 'koa';
import supertest from 'supertest';
import { clientAddressOptions } from '../../adapters/http/server';

async function addressSeen(hops: number, headers: Record<string, string>): Promise<{ ip: string; protocol: string }> {
  const koa = new Koa(clientAddressOptions(hops));
  koa.use((ctx) => {
    ctx.body = { ip: ctx.ip, protocol: ctx.protocol };
  });
  const server = http.createServer(koa.callback());
  try {
    return (await supertest(server).get('/').set(headers)).body;
  } finally {
    server.close();
  }
}

describe('client address (TRUST_PROXY_HOPS)', () => {
  const socket = /^(::ffff:)?127\.0\.0\.1$|^::1$/;

  it('0 hops: the socket address; X-Forwarded-For and X-Forwarded-Proto are ignored', async () => {
    const seen = await addressSeen(0, { 'X-Forwarded-For': '203.0.113.9', 'X-Forwarded-Proto': 'https' });
    expect(seen.ip).to.match(socket);
    expect(seen.protocol).to.equal('http');
  });

  it('1 hop: the last entry, whatever the client wrote before it', async () => {
    expect((await addressSeen(1, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9' })).ip).to.equal('203.0.113.9');
    expect((await addressSeen(1, { 'X-Forwarded-For': '203.0.113.9' })).ip).to.equal('203.0.113.9');
    expect((await addressSeen(1, {})).ip).to.match(socket);
  });

  it('2 hops: the second entry from the right; with fewer entries the leftmost', async () => {
    expect((await addressSeen(2, { 'X-Forwarded-For': '10.9.9.9, 198.51.100.1, 203.0.113.9' })).ip).to.equal('198.51.100.1');
    expect((await addressSeen(2, { 'X-Forwarded-For': '203.0.113.9' })).ip).to.equal('203.0.113.9');
    expect((await addressSeen(2, { 'X-Forwarded-For': '198.51.100.1, 203.0.113.9', 'X-Forwarded-Proto': 'https' })).protocol).to.equal('https');
  });

  it('refuses a negative or fractional count', () => {
    expect(() => clientAddressOptions(-1)).to.throw();
    expect(() => clientAddressOptions(1.5)).to.throw();
  });
});
