import { expect } from 'chai';
import fc from 'fast-check';
import type { Context } from 'koa';
import { answerJson, BUFFERED_ANSWER_CHARS, holdsRawJson, pageJson, RawJson } from '../../adapters/http/raw-json';

describe('RawJson pages (adapters/http/raw-json.ts)', () => {
  it('writes the same text JSON.stringify writes for the envelope, stored items as they are', () => {
    fc.assert(
      fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.array(fc.boolean(), { maxLength: 8 }), fc.dictionary(fc.string(), fc.jsonValue()), fc.string(), (items, raw, meta, requestId) => {
        const data = items.map((item, i) => (raw[i] ? new RawJson(JSON.stringify(item)) : item));
        const text = pageJson(data, meta, requestId);
        expect(text).to.equal(JSON.stringify({ data: items, meta, requestId }));
        expect(JSON.parse(text)).to.deep.equal(JSON.parse(JSON.stringify({ data: items, meta, requestId })));
      }),
      { numRuns: 500 },
    );
  });

  it('is used only for a page holding stored items', () => {
    expect(holdsRawJson([new RawJson('{}'), { a: 1 }])).to.equal(true);
    expect(holdsRawJson([{ a: 1 }])).to.equal(false);
    expect(holdsRawJson({ a: new RawJson('{}') })).to.equal(false);
    expect(holdsRawJson([])).to.equal(false);
  });

  it('answers a long text as exactly the UTF-8 bytes Buffer.from gives, a short one as the string', () => {
    const answer = (json: string) => {
      const ctx = {} as { type?: string; body?: unknown };
      answerJson(ctx as unknown as Context, json);
      expect(ctx.type).to.equal('json');
      return ctx.body;
    };
    // Any UTF-16 text: multibyte characters, surrogate pairs and lone surrogates (written as U+FFFD).
    const text = fc.string({ unit: fc.oneof(fc.constantFrom('a', '"', 'é', '東', '💳', '\ud800', '\udfff'), fc.string({ unit: 'binary', minLength: 1, maxLength: 1 })), minLength: 1, maxLength: 3000 });
    fc.assert(
      fc.property(text, fc.integer({ min: 1, max: 3 }), (piece, times) => {
        const json = JSON.stringify({ data: piece.repeat(times * Math.ceil(BUFFERED_ANSWER_CHARS / piece.length)) });
        const body = answer(json);
        expect(Buffer.isBuffer(body)).to.equal(true);
        expect((body as Buffer).equals(Buffer.from(json))).to.equal(true);
      }),
      { numRuns: 300 },
    );
    expect(answer('{"data":"é"}')).to.equal('{"data":"é"}');
  });
});
