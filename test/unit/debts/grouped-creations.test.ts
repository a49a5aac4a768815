import { unitOfWork } from '../../../internal/shared/group-commit';
import { expect } from 'chai';
import { CreateDebt } from '../../../internal/debts/commands/create-debt';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { MAX_GROUP_SIZE } from '../../../internal/debts/grouped-creations';
import { NotFoundError } from '../../../internal/shared/errors';
import type { TenantScope } from '../../../internal/shared/tenant-scope';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { type MemoryWorld, memoryWorld } from '../../support/memory-world';

/**
 * Single debt creations that arrive together are written together (group commit), and each
 * request still gets exactly the answer it would have had alone.
 */

const T0 = new Date('2031-05-10T15:00:00.000Z');

function draft(overrides: Partial<DebtDraft> = {}): DebtDraft {
  return { debtor: { externalClientId: 'ext-ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-20', evaluateAutopay: true, ...overrides };
}

/** A unit of work that counts transactions and the debt inserts made in them, and can fail them. */
function countingUow(inner: UnitOfWork, fail?: (rows: number) => boolean) {
  const counts = { transactions: 0, insertAll: [] as number[] };
  const uow = unitOfWork((work) =>
    inner.run((tx) => {
      counts.transactions += 1;
      const debts = new Proxy(tx.debts, {
        get: (target, property, receiver) =>
          property === 'insertAll'
            ? async (rows: Parameters<Repositories['debts']['insertAll']>[0]) => {
                counts.insertAll.push(rows.length);
                if (fail?.(rows.length)) throw new Error('connection lost');
                return target.insertAll(rows);
              }
            : Reflect.get(target, property, receiver),
      });
      return work({ ...tx, debts });
    }),
  );
  return { uow, counts };
}

describe('GroupedDebtCreations (memory)', () => {
  let w: MemoryWorld;
  let scope: TenantScope;
  const request = (n: number): TenantScope => ({ ...scope, requestId: `req_${n}` });

  beforeEach(async () => {
    w = memoryWorld(T0);
    ({ scope } = await w.newTenant());
    await w.app.commands.createContact.execute({ externalClientId: 'ext-ana', name: 'Ana', email: 'ana@example.com' }, scope);
  });

  it('writes requests that arrive together in one transaction, each answered with its own debt and event', async () => {
    const { uow, counts } = countingUow(w.uow);
    const createDebt = new CreateDebt({ ...w.infra.ports, uow });
    const results = await Promise.all([1, 2, 3, 4, 5].map((n) => createDebt.execute(draft({ amountCents: n * 100 }), `k-${n}`, request(n))));
    expect(counts).to.deep.equal({ transactions: 1, insertAll: [5] });
    expect(results.map((r) => [r.created, r.debt.externalRequestId, r.debt.amountCents, r.debt.batchId])).to.deep.equal(
      [1, 2, 3, 4, 5].map((n) => [true, `k-${n}`, n * 100, null]),
    );
    const events = await w.repos.events.list(scope.company.id, { type: 'debt.created' }, { page: 1, limit: 50 });
    expect(events.items.map((e) => [e.resourceId, e.requestId]).sort()).to.deep.equal([1, 2, 3, 4, 5].map((n) => [`debt_k-${n}`, `req_${n}`]));
  });

  it('writes a lone request on its own, and requests of different companies apart', async () => {
    const other = (await w.newTenant()).scope;
    await w.app.commands.createContact.execute({ externalClientId: 'ext-ana', name: 'Ana', email: 'ana@example.com' }, other);
    const { uow, counts } = countingUow(w.uow);
    const createDebt = new CreateDebt({ ...w.infra.ports, uow });
    await createDebt.execute(draft(), 'alone', scope);
    expect(counts.insertAll).to.deep.equal([1]);
    await Promise.all([createDebt.execute(draft(), 'a', scope), createDebt.execute(draft(), 'b', other), createDebt.execute(draft(), 'c', scope)]);
    expect(counts.insertAll.slice(1).sort()).to.deep.equal([1, 2]);
  });

  it('keeps each request\'s own failure to itself', async () => {
    const results = await Promise.allSettled([
      w.app.commands.createDebt.execute(draft(), 'ok-1', request(1)),
      w.app.commands.createDebt.execute(draft({ product: { productNumber: 999_999 } }), 'bad-product', request(2)),
      w.app.commands.createDebt.execute(draft({ debtor: { externalClientId: 'nobody' } }), 'bad-debtor', request(3)),
      w.app.commands.createDebt.execute(draft(), 'ok-2', request(4)),
    ]);
    expect(results.map((r) => (r.status === 'fulfilled' ? r.value.debt.externalRequestId : (r.reason as { code: string }).code))).to.deep.equal([
      'ok-1',
      'RESOURCE_NOT_FOUND',
      'BUSINESS_RULE_VIOLATION',
      'ok-2',
    ]);
    const stored = await w.repos.debts.findByExternalRequestIds(scope.company.id, ['ok-1', 'bad-product', 'bad-debtor', 'ok-2']);
    expect(stored.map((d) => d.externalRequestId).sort()).to.deep.equal(['ok-1', 'ok-2']);
  });

  it('answers requests repeating a key in one group with the first one\'s debt, as replays', async () => {
    const results = await Promise.all([1, 2, 3].map((n) => w.app.commands.createDebt.execute(draft({ amountCents: n * 100 }), 'same', request(n))));
    expect(results.map((r) => r.created)).to.deep.equal([true, false, false]);
    for (const r of results) expect(r.debt).to.deep.equal(results[0]!.debt);
    expect(results[0]!.debt.amountCents).to.equal(100);
  });

  it('tries a repeated key on its own merits when the first request with it failed', async () => {
    const [first, second] = await Promise.allSettled([
      w.app.commands.createDebt.execute(draft({ product: { productNumber: 999_999 } }), 'retry-me', request(1)),
      w.app.commands.createDebt.execute(draft(), 'retry-me', request(2)),
    ]);
    expect(first.status === 'rejected' && first.reason).to.be.instanceOf(NotFoundError);
    expect(second.status === 'fulfilled' && second.value.created).to.equal(true);
  });

  it('retries each request alone when the group write fails for another reason, so only the bad one fails', async () => {
    // The store fails any insert of more than one row (as a lost connection would fail the group once).
    const { uow, counts } = countingUow(w.uow, (rows) => rows > 1);
    const createDebt = new CreateDebt({ ...w.infra.ports, uow });
    const results = await Promise.all([1, 2, 3].map((n) => createDebt.execute(draft(), `solo-${n}`, request(n))));
    expect(results.map((r) => r.created)).to.deep.equal([true, true, true]);
    expect(counts.insertAll).to.deep.equal([3, 1, 1, 1]);
    const { uow: failing } = countingUow(w.uow, () => true);
    const broken = new CreateDebt({ ...w.infra.ports, uow: failing });
    const outcomes = await Promise.allSettled([1, 2].map((n) => broken.execute(draft(), `doomed-${n}`, request(n))));
    expect(outcomes.map((o) => o.status === 'rejected' && (o.reason as Error).message)).to.deep.equal(['connection lost', 'connection lost']);
  });

  it(`splits more than ${MAX_GROUP_SIZE} waiting requests into groups of at most ${MAX_GROUP_SIZE}`, async () => {
    const { uow, counts } = countingUow(w.uow);
    const createDebt = new CreateDebt({ ...w.infra.ports, uow });
    await Promise.all(Array.from({ length: MAX_GROUP_SIZE + 3 }, (_, n) => createDebt.execute(draft(), `many-${n}`, request(n))));
    expect(counts.insertAll).to.deep.equal([MAX_GROUP_SIZE, 3]);
  });

  it('creates an inline contact once for requests that bring it together: the first creates it, the others update it', async () => {
    const inline = (name: string) => draft({ debtor: { contactData: { externalClientId: 'ext-new', name, email: 'new@example.com' } } });
    const results = await Promise.all(['First', 'Second'].map((name, n) => w.app.commands.createDebt.execute(inline(name), `inline-${n}`, request(n))));
    expect(results.map((r) => r.debt.contactCreatedInline)).to.deep.equal([true, false]);
    const contact = await w.repos.contacts.findByExternalClientId(scope.organizationId, 'ext-new');
    expect(contact!.name).to.equal('Second');
    const events = await w.repos.events.list(scope.company.id, { resourceId: `con_${contact!.code}` }, { page: 1, limit: 50 });
    expect(events.items.map((e) => [e.type, e.requestId]).reverse()).to.deep.equal([
      ['contact.created', 'req_0'],
      ['contact.updated', 'req_1'],
    ]);
  });
});
