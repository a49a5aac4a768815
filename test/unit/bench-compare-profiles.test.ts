import { expect } from 'chai';

/** bench/lib/compare-profiles.cjs: two whole-life CPU profiles side by side, per source, in units of a shared one. */
interface Row {
  source: string;
  a: number;
  b: number;
  diff: number;
}
const { compareProfiles } = require('../../bench/lib/compare-profiles.cjs') as {
  compareProfiles(a: unknown, b: unknown, unit?: string, root?: string, skipSeconds?: number): { entries: string[]; unitMs: number[]; rows: Row[] };
};

const ROOT = '/srv/app';

/** A .cpuprofile whose samples are `frames` (one 100 µs sample each), every frame a child of the root. */
function profile(frames: { functionName: string; url?: string }[], unsampled: { functionName: string; url: string }[] = []) {
  const all = [...new Map([...frames, ...unsampled].map((f) => [`${f.functionName} ${f.url ?? ''}`, f])).values()];
  const nodes = [
    { id: 1, callFrame: { functionName: '(root)', url: '', scriptId: '0', lineNumber: -1, columnNumber: -1 }, children: all.map((_, i) => i + 2) },
    ...all.map((f, i) => ({ id: i + 2, callFrame: { functionName: f.functionName, url: f.url ?? '', scriptId: String(i + 1), lineNumber: 0, columnNumber: 0 }, children: [] })),
  ];
  const idOf = (f: { functionName: string; url?: string }) => 2 + all.findIndex((g) => g.functionName === f.functionName && (g.url ?? '') === (f.url ?? ''));
  return { nodes, startTime: 0, endTime: frames.length * 100, samples: frames.map(idOf), timeDeltas: frames.map(() => 100) };
}

const mysql2 = { functionName: 'row', url: 'file:///srv/app/node_modules/mysql2/lib/commands/query.js' };
const gc = { functionName: '(garbage collector)' };
const idle = { functionName: '(idle)' };
const presenter = { functionName: 'present', url: `file://${ROOT}/adapters/http/presenters/debt.presenter.ts` };
const router = { functionName: 'dispatch', url: 'file:///srv/app/node_modules/@koa/router/dist/index.js' };

describe('bench: compare-profiles', () => {
  const api = profile([mysql2, mysql2, gc, gc, gc, presenter, idle, idle, idle], [{ functionName: 'main', url: `file://${ROOT}/cmd/api/main.ts` }]);
  const floor = profile([mysql2, mysql2, mysql2, mysql2, gc, gc, router], [{ functionName: 'serve', url: `file://${ROOT}/bench/baselines/koa-page.ts` }]);

  it('puts each source in units of the shared one, largest difference first, idle left out', () => {
    const { entries, unitMs, rows } = compareProfiles(api, floor, 'nm:mysql2', ROOT);
    expect(entries).to.deep.equal(['cmd/api/main.ts', 'bench/baselines/koa-page.ts']);
    expect(unitMs).to.deep.equal([0.2, 0.4]);
    expect(rows).to.deep.equal([
      { source: '(garbage collector)', a: 1.5, b: 0.5, diff: 1 },
      { source: 'adapters/http/presenters/debt.presenter.ts', a: 0.5, b: 0, diff: 0.5 },
      { source: 'nm:mysql2', a: 1, b: 1, diff: 0 },
      { source: 'nm:@koa/router', a: 0, b: 0.25, diff: -0.25 },
    ]);
  });

  it('leaves out the first seconds of each profile (startup) when asked', () => {
    const started = profile([gc, gc, mysql2, presenter], [{ functionName: 'main', url: `file://${ROOT}/cmd/api/main.ts` }]);
    // Both profiles lose their first two samples: the API its collections, the floor two of its four mysql2 samples.
    const { rows } = compareProfiles(started, floor, 'nm:mysql2', ROOT, 0.00025);
    expect(rows.find((row) => row.source === '(garbage collector)')).to.deep.equal({ source: '(garbage collector)', a: 0, b: 1, diff: -1 });
    expect(rows.find((row) => row.source === 'adapters/http/presenters/debt.presenter.ts')).to.deep.equal({ source: 'adapters/http/presenters/debt.presenter.ts', a: 1, b: 0, diff: 1 });
    expect(compareProfiles(started, floor, 'nm:mysql2', ROOT).rows[0]).to.deep.equal({ source: '(garbage collector)', a: 2, b: 0.5, diff: 1.5 });
  });

  it('refuses a unit one of the profiles spent nothing in', () => {
    expect(() => compareProfiles(api, floor, 'nm:@koa/router', ROOT)).to.throw('a has no busy samples in nm:@koa/router');
  });
});
