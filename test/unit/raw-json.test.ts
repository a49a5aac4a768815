import { expect } from 'chai';
import fc from 'fast-check';
import { holdsRawJson, pageJson, RawJson } from '../../adapters/http/raw-json';

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
});
