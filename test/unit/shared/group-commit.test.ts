import { expect } from 'chai';
import type { DomainEvent } from '../../../internal/events/domain-event';
import { GroupCommit, TransactionGroups } from '../../../internal/shared/group-commit';
import type { Repositories } from '../../../ports/unit-of-work';

/** A stand-in transaction runner: counts transactions, keeps what a committed one appended. */
function fakeTransactions() {
  const state = { transactions: 0, rolledBack: 0, appends: [] as string[][], committed: [] as string[] };
  const run = async <T>(work: (repos: Repositories) => Promise<T>): Promise<T> => {
    state.transactions += 1;
    const appended: string[][] = [];
    const events = { append: async (list: DomainEvent[]) => void appended.push(list.map((e) => e.type)) } as unknown as Repositories['events'];
    try {
      const result = await work({ events } as Repositories);
      state.appends.push(...appended);
      state.committed.push(...appended.flat());
      return result;
    } catch (error) {
      state.rolledBack += 1;
      throw error;
    }
  };
  return { state, run };
}

const event = (type: string) => ({ type }) as unknown as DomainEvent;

describe('GroupCommit', () => {
  it('writes what arrives in one turn as one group per key, each caller answered with its own outcome', async () => {
    const writes: number[][] = [];
    const groups = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        return items.map((n) => (n < 0 ? { ok: false, error: new Error(`negative ${n}`) } : { ok: true, value: n * 10 }));
      },
      { maxGroupSize: 3 },
    );
    const results = await Promise.allSettled([groups.submit('a', 1), groups.submit('a', 2), groups.submit('b', 3), groups.submit('a', -4), groups.submit('a', 5)]);
    expect(writes).to.deep.equal([[1, 2, -4], [5], [3]]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).to.deep.equal([10, 20, 30, 'negative -4', 50]);
  });

  it('writes each item alone when the group write throws, so one bad item fails only itself', async () => {
    const writes: number[][] = [];
    const groups = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        if (items.includes(2)) throw new Error('boom');
        return items.map((n) => ({ ok: true, value: n }));
      },
      { maxGroupSize: 10 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => groups.submit(1, n)));
    expect(writes).to.deep.equal([[1, 2, 3], [1], [2], [3]]);
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
  });
});

describe('GroupCommit with maxInFlight', () => {
  /** A write that holds each group until released, recording the groups it was given. */
  function heldWrites() {
    const writes: number[][] = [];
    const releases: (() => void)[] = [];
    const write = async (items: number[]) => {
      writes.push(items);
      await new Promise<void>((resolve) => releases.push(resolve));
      return items.map((n) => ({ ok: true as const, value: n * 10 }));
    };
    return { writes, releases, write };
  }
  const turn = () => new Promise((resolve) => setImmediate(resolve));

  it('holds what arrives while a key\'s group is written, over several turns, and writes it as the next group', async () => {
    const { writes, releases, write } = heldWrites();
    const groups = new GroupCommit<number, number>(write, { maxGroupSize: 10, maxInFlight: 1 });
    const first = groups.submit('a', 1);
    await turn();
    const later = [groups.submit('a', 2)];
    await turn();
    later.push(groups.submit('a', 3), groups.submit('b', 4));
    await turn();
    expect(writes).to.deep.equal([[1], [4]]); // b does not wait for a
    releases.shift()!();
    expect(await first).to.equal(10);
    await turn();
    expect(writes).to.deep.equal([[1], [4], [2, 3]]);
    releases.forEach((release) => release());
    expect(await Promise.all(later)).to.deep.equal([20, 30, 40]);
  });

  it('writes up to maxInFlight groups of a key at once', async () => {
    const { writes, releases, write } = heldWrites();
    const groups = new GroupCommit<number, number>(write, { maxGroupSize: 2, maxInFlight: 2 });
    const all = [1, 2, 3, 4, 5, 6].map((n) => groups.submit('a', n));
    await turn();
    expect(writes).to.deep.equal([[1, 2], [3, 4]]);
    releases.shift()!();
    await all[0];
    await turn();
    expect(writes).to.deep.equal([[1, 2], [3, 4], [5, 6]]);
    releases.forEach((release) => release());
    await turn();
    releases.forEach((release) => release());
    expect(await Promise.all(all)).to.deep.equal([10, 20, 30, 40, 50, 60]);
  });

  it('puts a request the write answers `again` at the head of the key\'s next group', async () => {
    const writes: number[][] = [];
    const groups = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        return items.map((n) => (n === 2 && writes.length === 1 ? { again: true as const } : { ok: true as const, value: n }));
      },
      { maxGroupSize: 10, maxInFlight: 1 },
    );
    expect(await Promise.all([1, 2, 3].map((n) => groups.submit('a', n)))).to.deep.equal([1, 2, 3]);
    expect(writes).to.deep.equal([[1, 2, 3], [2]]);
  });

  it('keeps one bad item to itself when the group write throws, then goes on with the next group', async () => {
    const writes: number[][] = [];
    const groups = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        if (items.includes(2)) throw new Error('boom');
        return items.map((n) => ({ ok: true as const, value: n }));
      },
      { maxGroupSize: 3, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3, 4].map((n) => groups.submit('a', n)));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
    expect(writes).to.deep.equal([[1, 2, 3], [1], [2], [3], [4]]);
  });
  it('gives a key its slot back when a write answers too few outcomes: the request left out fails, the next group goes on', async () => {
    const writes: number[][] = [];
    const groups = new GroupCommit<number, number>(
      async (items) => {
        writes.push(items);
        return items.slice(0, 1).map((n) => ({ ok: true as const, value: n }));
      },
      { maxGroupSize: 2, maxInFlight: 1 },
    );
    const results = await Promise.allSettled([1, 2, 3].map((n) => groups.submit('a', n)));
    expect(results.map((r) => r.status)).to.deep.equal(['fulfilled', 'rejected', 'fulfilled']);
    expect(writes).to.deep.equal([[1, 2], [3]]);
  });
});

describe('TransactionGroups (UnitOfWork.runGrouped)', () => {
  it('runs the works of one key and moment in one transaction and appends their events in one call, in order', async () => {
    const { state, run } = fakeTransactions();
    const groups = new TransactionGroups(run, { maxGroupSize: 32 });
    const work = (name: string) => async (repos: Repositories) => {
      await repos.events.append([event(`${name}.created`)]);
      return name;
    };
    expect(await Promise.all(['a', 'b', 'c'].map((name) => groups.run(7, work(name))))).to.deep.equal(['a', 'b', 'c']);
    expect(state.transactions).to.equal(1);
    expect(state.appends).to.deep.equal([['a.created', 'b.created', 'c.created']]);
  });

  it('rolls the group back when one work throws and runs each alone: the others commit once, the failing one gets its own error', async () => {
    const { state, run } = fakeTransactions();
    const groups = new TransactionGroups(run, { maxGroupSize: 32 });
    const work = (name: string) => async (repos: Repositories) => {
      await repos.events.append([event(`${name}.created`)]);
      if (name === 'bad') throw new Error('taken');
      return name;
    };
    const results = await Promise.allSettled(['a', 'bad', 'c'].map((name) => groups.run(7, work(name))));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).to.deep.equal(['a', 'taken', 'c']);
    expect(state).to.include({ transactions: 4, rolledBack: 2 });
    expect(state.committed).to.deep.equal(['a.created', 'c.created']);
  });

  it('with concurrent works, starts every work of the group at once and tells the transaction how many share it', async () => {
    const { state, run } = fakeTransactions();
    const shares: number[] = [];
    const groups = new TransactionGroups((work, sharedBy) => (shares.push(sharedBy), run(work)), { maxGroupSize: 32, concurrent: true });
    const started: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const work = (name: string) => async (repos: Repositories) => {
      started.push(name);
      if (started.length === 3) release();
      await gate; // each waits for all three to have started: run one after the other, this never ends
      await repos.events.append([event(`${name}.created`)]);
      return name;
    };
    expect(await Promise.all(['a', 'b', 'c'].map((name) => groups.run(7, work(name))))).to.deep.equal(['a', 'b', 'c']);
    expect(shares).to.deep.equal([3]);
    expect(state.transactions).to.equal(1);
    expect(state.appends).to.deep.equal([['a.created', 'b.created', 'c.created']]);
  });

  it('with concurrent works, ends the transaction only after every work settled, then runs each alone', async () => {
    const { state, run } = fakeTransactions();
    const shares: number[] = [];
    const groups = new TransactionGroups((work, sharedBy) => (shares.push(sharedBy), run(work)), { maxGroupSize: 32, concurrent: true });
    let slowFinished = 0;
    let endedBeforeSlow = false;
    const work = (name: string) => async (repos: Repositories) => {
      if (name === 'bad') throw new Error('taken');
      await new Promise((resolve) => setTimeout(resolve, 20));
      if (state.rolledBack > 0 && slowFinished === 0) endedBeforeSlow = true;
      slowFinished++;
      await repos.events.append([event(`${name}.created`)]);
      return name;
    };
    const results = await Promise.allSettled(['bad', 'slow'].map((name) => groups.run(7, work(name))));
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value : (r.reason as Error).message))).to.deep.equal(['taken', 'slow']);
    expect(endedBeforeSlow, 'the group rolled back while a work still ran').to.equal(false);
    expect(shares).to.deep.equal([2, 1, 1]);
    expect(state.committed).to.deep.equal(['slow.created']);
  });

  it('flushes the held events before any other call on the event log, so the group reads what it appended', async () => {
    const calls: string[] = [];
    const events = {
      append: async (list: DomainEvent[]) => void calls.push(`append ${list.length}`),
      lastId: async () => (calls.push('lastId'), 42),
    } as unknown as Repositories['events'];
    const groups = new TransactionGroups(async (work) => work({ events } as Repositories), { maxGroupSize: 32 });
    const last = await groups.run(1, async (repos) => {
      await repos.events.append([event('x'), event('y')]);
      return repos.events.lastId();
    });
    expect(last).to.equal(42);
    expect(calls).to.deep.equal(['append 2', 'lastId']);
  });
});
