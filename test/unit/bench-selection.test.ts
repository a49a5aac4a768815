import { expect } from 'chai';
import { isNamed, selectScenarios } from '../../bench/lib/selection';
import { SCENARIOS } from '../../bench/scenarios';

/** bench/lib/selection.ts: which scenarios `npm run bench -- --only …` runs, and in what order. */
describe('bench scenario selection (--only)', () => {
  const ids = (only: string[] | null, quick = false) => selectScenarios(SCENARIOS, only, quick).map((s) => s.id);

  it('runs the create a named read needs before it, and nothing else of its kind', () => {
    const selected = ids(['links.list.active', 'subscriptions.get']);
    expect(selected).to.include.members(['links.create', 'links.list.active', 'subscriptions.create', 'subscriptions.get']);
    expect(selected.indexOf('links.create')).to.be.lessThan(selected.indexOf('links.list.active'));
    expect(selected.indexOf('subscriptions.create')).to.be.lessThan(selected.indexOf('subscriptions.get'));
    expect(selected).to.not.include.members(['links.list', 'links.get', 'subscriptions.list', 'debts.create']);
    // Each runs with the baselines it is held to: the links' floor with the create, the list's own floor.
    expect(selected).to.include.members(['baseline.koa-links', 'baseline.koa-page/links.list.active']);
    expect(selected).to.not.include('baseline.koa-page/links.list');
  });

  it('names, in every scenario that reads back what a create left, a create that runs before it', () => {
    const order = SCENARIOS.map((s) => s.id);
    const readers = SCENARIOS.filter((s) => s.needs !== undefined);
    expect(readers.map((s) => s.id)).to.include.members(['debts.get', 'products.get', 'contacts.get', 'contacts.list', 'links.get', 'links.list', 'subscriptions.get', 'subscriptions.list']);
    for (const reader of readers) {
      for (const need of reader.needs!) {
        const create = SCENARIOS.find((s) => s.id === need);
        expect(create?.kind, `${reader.id} needs ${need}`).to.equal('api');
        expect(order.indexOf(need), `${need} before ${reader.id}`).to.be.lessThan(order.indexOf(reader.id));
      }
    }
  });

  it('runs everything without --only, the quick run without its variants', () => {
    expect(ids(null)).to.deep.equal(SCENARIOS.map((s) => s.id));
    expect(ids(null, true)).to.deep.equal(SCENARIOS.filter((s) => !s.skipInQuick).map((s) => s.id));
    expect([isNamed(null, 'generation'), isNamed(['gen'], 'generation'), isNamed(['debts.list'], 'generation')]).to.deep.equal([true, true, false]);
  });
});
