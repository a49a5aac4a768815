import { expect } from 'chai';
import type { Knex } from 'knex';
import { readTogether } from '../../adapters/persistence/knex/read-batches';

/** A stand-in for a Knex: the batches only use it as the key of where their statements go. */
const database = (): Knex => (() => undefined) as unknown as Knex;

/** A readAll over `rows` (key → row) that records the keys of each call and fails on `refused`. */
function reader(rows: Record<string, string>, refused?: string) {
  const calls: string[][] = [];
  const readAll = async (keys: string[]) => {
    calls.push([...keys]);
    if (refused !== undefined && keys.includes(refused)) throw new Error(`refused ${refused}`);
    return new Map(keys.filter((k) => k in rows).map((k) => [k, rows[k]!]));
  };
  return { calls, readAll };
}

const outcome = (p: Promise<unknown>) => p.then((value) => ({ value }), (error: Error) => ({ error: error.message }));

describe('read batches (reads by key outside a transaction)', () => {
  it('sends the reads of one kind made in one turn as one read of their distinct keys; each caller gets its own row or null', async () => {
    const db = database();
    const { calls, readAll } = reader({ a: 'row a', b: 'row b' });
    const found = await Promise.all(['a', 'b', 'nobody', 'a'].map((key) => readTogether(db, 'things', key, readAll)));
    expect(found).to.deep.equal(['row a', 'row b', null, 'row a']);
    expect(calls).to.deep.equal([['a', 'b', 'nobody']]);
  });

  it('keeps apart the reads of different kinds, of different databases and of different turns', async () => {
    const [one, other] = [database(), database()];
    const things = reader({ a: 'thing a' });
    const others = reader({ a: 'other a' });
    const found = await Promise.all([
      readTogether(one, 'things', 'a', things.readAll),
      readTogether(one, 'others', 'a', others.readAll),
      readTogether(other, 'things', 'a', things.readAll),
    ]);
    expect(found).to.deep.equal(['thing a', 'other a', 'thing a']);
    expect(things.calls).to.deep.equal([['a'], ['a']]);
    expect(others.calls).to.deep.equal([['a']]);
    await readTogether(one, 'things', 'a', things.readAll);
    expect(things.calls).to.have.length(3);
  });

  it('reads each key again alone when the shared read fails, so only the callers of the refused key fail', async () => {
    const db = database();
    const { calls, readAll } = reader({ a: 'row a', b: 'row b' }, 'bad');
    const found = await Promise.all(['a', 'bad', 'b', 'bad'].map((key) => outcome(readTogether(db, 'things', key, readAll))));
    expect(found).to.deep.equal([{ value: 'row a' }, { error: 'refused bad' }, { value: 'row b' }, { error: 'refused bad' }]);
    expect(calls).to.deep.equal([['a', 'bad', 'b'], ['a'], ['bad'], ['b']]);
  });

  it('sends at most 500 keys in one read', async () => {
    const db = database();
    const { calls, readAll } = reader({ k0: 'first', k1199: 'last' });
    const keys = Array.from({ length: 1200 }, (_, i) => `k${i}`);
    const found = await Promise.all(keys.map((key) => readTogether(db, 'things', key, readAll)));
    expect(found[0]).to.equal('first');
    expect(found[1199]).to.equal('last');
    expect(found.filter((row) => row === null)).to.have.length(1198);
    expect(calls.map((keysOfCall) => keysOfCall.length)).to.deep.equal([500, 500, 200]);
  });
});
