import crypto from 'node:crypto';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import type { Context } from 'koa';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);

type Encoding = 'br' | 'gzip' | 'identity';

/**
 * A script served from this process's memory: read once, named by its content hash (the page
 * asks for `?v=<hash>`, so a year of caching is safe: a new bundle is a new URL), answered with
 * a strong ETag and 304 on a matching If-None-Match, compressed once on first demand (brotli or
 * gzip, whichever the browser accepts; a 4 MB bundle travels as about 1 MB).
 */
export class StaticScript {
  /** The first 16 hex digits of the SHA-256 of the content: the `v` of its URL and its ETag. */
  readonly version: string;
  private readonly compressed = new Map<Exclude<Encoding, 'identity'>, Promise<Buffer>>();

  constructor(private readonly content: Buffer) {
    this.version = crypto.createHash('sha256').update(content).digest('hex').slice(0, 16);
  }

  /** The URL a page names it by: the path plus its version. */
  url(path: string): string {
    return `${path}?v=${this.version}`;
  }

  async serve(ctx: Context): Promise<void> {
    const encoding = (ctx.acceptsEncodings('br', 'gzip', 'identity') || 'identity') as Encoding;
    ctx.status = 200;
    ctx.type = 'text/javascript; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=31536000, immutable');
    ctx.set('Vary', 'Accept-Encoding');
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cross-Origin-Resource-Policy', 'same-origin');
    ctx.set('ETag', `"${this.version}${encoding === 'identity' ? '' : `-${encoding}`}"`);
    if (ctx.fresh) {
      ctx.status = 304;
      return;
    }
    if (encoding !== 'identity') ctx.set('Content-Encoding', encoding);
    ctx.body = encoding === 'identity' ? this.content : await this.encoded(encoding);
  }

  private encoded(encoding: Exclude<Encoding, 'identity'>): Promise<Buffer> {
    let done = this.compressed.get(encoding);
    if (!done) {
      done =
        encoding === 'br'
          ? brotli(this.content, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 5, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: this.content.length } })
          : gzip(this.content);
      // A failed compression is tried again by the next request rather than remembered.
      done.catch(() => this.compressed.delete(encoding));
      this.compressed.set(encoding, done);
    }
    return done;
  }
}
