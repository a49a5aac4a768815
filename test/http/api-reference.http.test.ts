import { expect } from 'chai';
import zlib from 'node:zlib';
import type supertest from 'supertest';
import { type ApiHarness, startApi } from '../support/harness';

/**
 * GET /docs (the interactive reference) and its scripts over HTTP: the page's strict policy, the
 * scripts it names, and how they are cached. It reads no database: one SQLite API is enough.
 */
describe('API reference: GET /docs and its scripts', function () {
  this.timeout(30_000);
  let api: ApiHarness;
  before(async function () {
    this.timeout(60_000);
    api = await startApi('sqlite');
  });
  after(async () => {
    await api?.close();
  });

  const scriptsOf = (html: string) => [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)].map((m) => ({ attributes: m[1]!, text: m[2]! }));
  const directives = (res: supertest.Response) =>
    new Map(
      String(res.headers['content-security-policy'])
        .split(';')
        .map((d) => d.trim().split(/\s+/))
        .map(([name, ...values]) => [name!, values.join(' ')]),
    );
  /** A binary body as a Buffer (supertest only buffers text types by default). */
  const raw = (req: supertest.Test) =>
    req.buffer(true).parse((res, done) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => done(null, Buffer.concat(chunks)));
    });

  it('answers an HTML page under a strict Content-Security-Policy', async () => {
    const res = await api.http.get('/docs');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/html/);
    expect(res.text).to.match(/^<!doctype html>/);
    expect(Object.fromEntries(directives(res))).to.deep.equal({
      'default-src': "'none'",
      'script-src': "'self'",
      'style-src': "'self' 'unsafe-inline'",
      'img-src': "'self' data:",
      'font-src': "'self' data:",
      'connect-src': "'self'",
      'base-uri': "'none'",
      'form-action': "'none'",
      'frame-ancestors': "'none'",
    });
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers['referrer-policy']).to.equal('no-referrer');
    expect(res.headers['x-frame-options']).to.equal('DENY');
    expect(res.headers['cache-control']).to.equal('no-cache');
  });

  it('names only same-origin scripts, with no inline script, and points to /openapi.json without JavaScript', async () => {
    const { text } = await api.http.get('/docs');
    const scripts = scriptsOf(text);
    const sources = scripts.map((s) => /src="([^"]+)"/.exec(s.attributes)?.[1]);
    // The start script first (it configures Zod before the bundle runs), both deferred.
    expect(sources).to.have.length(2);
    expect(sources[0]).to.match(/^\/docs\/reference\.js\?v=[0-9a-f]{16}$/);
    expect(sources[1]).to.match(/^\/docs\/scalar\.js\?v=[0-9a-f]{16}$/);
    for (const s of scripts) expect(s.attributes).to.match(/\bdefer\b/);
    for (const s of scripts) expect(s.text, 'no inline script').to.equal('');
    expect(text).to.not.match(/https?:\/\//);
    expect(text).to.match(/<noscript>[\s\S]*<a href="\/openapi\.json">\/openapi\.json<\/a>[\s\S]*<\/noscript>/);
  });

  it('carries the Scalar configuration in a data attribute: no outside service, the document at /openapi.json', async () => {
    const { text } = await api.http.get('/docs');
    const attribute = /data-configuration="([^"]*)"/.exec(text)?.[1];
    const configuration = JSON.parse(attribute!.replace(/&#(\d+);/g, (_, code: string) => String.fromCharCode(Number(code))));
    expect(configuration).to.deep.include({
      url: '/openapi.json',
      withDefaultFonts: false,
      telemetry: false,
      showDeveloperTools: 'never',
      agent: { disabled: true },
      mcp: { disabled: true },
    });
    expect(configuration).to.not.have.any.keys('proxyUrl', 'proxy', 'pluginUrls');
  });

  it('serves Scalar\'s bundle as JavaScript for a year, with an ETag, and 304 on If-None-Match', async () => {
    const page = await api.http.get('/docs');
    const url = /src="(\/docs\/scalar\.js\?v=[0-9a-f]{16})"/.exec(page.text)![1]!;
    const res = await raw(api.http.get(url).set('Accept-Encoding', 'identity'));
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/javascript/);
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(res.headers['x-content-type-options']).to.equal('nosniff');
    expect(res.headers.etag).to.match(/^"[0-9a-f]{16}"$/);
    expect(res.headers.vary).to.match(/Accept-Encoding/i);
    const body = res.body as Buffer;
    expect(body.length).to.be.greaterThan(1_000_000);
    expect(body.toString('utf8')).to.include('createApiReference').and.not.include('sourceMappingURL=');

    const again = await api.http.get(url).set('Accept-Encoding', 'identity').set('If-None-Match', res.headers.etag!);
    expect(again.status).to.equal(304);
    expect(again.headers.etag).to.equal(res.headers.etag);
    expect(again.text ?? '').to.equal('');
  });

  it('sends the bundle compressed to a browser that accepts it, under its own ETag', async () => {
    const url = /src="(\/docs\/scalar\.js\?v=[0-9a-f]{16})"/.exec((await api.http.get('/docs')).text)![1]!;
    const plain = (await raw(api.http.get(url).set('Accept-Encoding', 'identity'))).body as Buffer;
    for (const [encoding, decode] of [['gzip', zlib.gunzipSync], ['br', zlib.brotliDecompressSync]] as const) {
      const res = await raw(api.http.get(url).set('Accept-Encoding', encoding));
      expect(res.status).to.equal(200);
      expect(res.headers['content-encoding']).to.equal(encoding);
      expect(res.headers.etag).to.match(new RegExp(`^"[0-9a-f]{16}-${encoding}"$`));
      expect(Number(res.headers['content-length']), 'compressed size').to.be.below(plain.length / 2);
      // superagent may already have decoded it.
      const body = res.body as Buffer;
      expect((body.equals(plain) ? body : decode(body)).equals(plain), `${encoding} decodes to the bundle`).to.equal(true);
      const again = await api.http.get(url).set('Accept-Encoding', encoding).set('If-None-Match', res.headers.etag!);
      expect(again.status).to.equal(304);
    }
  });

  it('serves the start script the same way: it mounts Scalar from the data attribute, on this origin', async () => {
    const url = /src="(\/docs\/reference\.js\?v=[0-9a-f]{16})"/.exec((await api.http.get('/docs')).text)![1]!;
    const res = await api.http.get(url).set('Accept-Encoding', 'identity');
    expect(res.status).to.equal(200);
    expect(res.headers['content-type']).to.match(/^text\/javascript/);
    expect(res.headers['cache-control']).to.equal('public, max-age=31536000, immutable');
    expect(res.text).to.include('data-configuration').and.include('window.location.origin').and.include('createApiReference');
    expect((await api.http.get(url).set('Accept-Encoding', 'identity').set('If-None-Match', res.headers.etag!)).status).to.equal(304);
  });
});
