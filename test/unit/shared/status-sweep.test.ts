import { expect } from 'chai';
import { DutyCyclePace } from '../../../adapters/clock/duty-cycle-pace';
import type { DebtDraft } from '../../../internal/debts/debt-draft';
import { buildApplication } from '../../../internal/application';
import { SWEEP_CHUNK } from '../../../internal/shared/jobs/status-sweep';
import type { JobPace } from '../../../ports/job-pace';
import { memoryWorld } from '../../support/memory-world';

const T0 = new Date('2031-05-10T15:00:00.000Z');
const DAY_MS = 86_400_000;

/** A pace whose clock moves `chunkMs` during each chunk and whose pauses are recorded, not waited. */
function fakePace(dutyCycle: number, chunkMs = 10) {
  let now = 0;
  const pauses: number[] = [];
  const pace = new DutyCyclePace(dutyCycle, {
    elapsedMs: () => now,
    sleep: async (ms) => void pauses.push(ms),
  });
  const chunk = (answer: number) => async () => {
    now += chunkMs;
    return answer;
  };
  return { pace, pauses, chunk };
}

describe('status sweeps: paced chunks (BACKGROUND_JOB_DUTY_CYCLE)', () => {
  describe('DutyCyclePace', () => {
    it('runs a run\'s first chunk at once, then waits before each next one the time the one before took × (1 − duty) / duty', async () => {
      const half = fakePace(0.5, 10);
      const paced = half.pace.pacer();
      expect(await paced(half.chunk(1))).to.equal(1);
      expect(half.pauses).to.deep.equal([]);
      await paced(half.chunk(2));
      await paced(half.chunk(3));
      expect(half.pauses).to.deep.equal([10, 10]);

      const quarter = fakePace(0.25, 8);
      const pacedQuarter = quarter.pace.pacer();
      await pacedQuarter(quarter.chunk(1));
      await pacedQuarter(quarter.chunk(2));
      expect(quarter.pauses).to.deep.equal([24]);
    });

    it('starts every run afresh, counts a failed chunk\'s time, and never waits at a duty cycle of 1', async () => {
      const half = fakePace(0.5, 10);
      await half.pace.pacer()(half.chunk(1));
      const second = half.pace.pacer();
      await second(half.chunk(1));
      expect(half.pauses, 'a new run begins without a pause').to.deep.equal([]);
      await second(async () => Promise.reject(new Error('deadlock'))).catch(() => undefined);
      await second(half.chunk(1));
      expect(half.pauses).to.deep.equal([10, 0]);

      const full = fakePace(1, 10);
      const flat = full.pace.pacer();
      for (let i = 0; i < 3; i++) await flat(full.chunk(i));
      expect(full.pauses).to.deep.equal([]);
    });

    it('once stopped, ends a pause at once and runs no further chunk (null: the next run takes the rest)', async () => {
      const pace = new DutyCyclePace(0.5, { elapsedMs: (() => { let now = 0; return () => (now += 60_000); })() });
      const paced = pace.pacer();
      let ran = 0;
      const chunk = async () => ++ran;
      expect(await paced(chunk)).to.equal(1);
      // The next chunk waits a minute (the one before "took" one); stop() cuts that pause short.
      const waiting = paced(chunk);
      setTimeout(() => pace.stop(), 5);
      const started = Date.now();
      expect(await waiting).to.equal(null);
      expect(Date.now() - started).to.be.below(5_000);
      expect(await pace.pacer()(chunk), 'a run started after stop() runs nothing').to.equal(null);
      expect(ran).to.equal(1);
    });

    it('keeps nothing of a pause once it is over: a worker that paces for weeks holds no timer or waker of past pauses', async () => {
      let now = 0;
      const pace = new DutyCyclePace(0.5, { elapsedMs: () => (now += 1) });
      const pending = () => (pace as unknown as { pauses: Set<unknown> }).pauses.size;
      const paced = pace.pacer();
      for (let i = 0; i < 50; i++) await paced(async () => i);
      expect(pending()).to.equal(0);
      const waiting = paced(async () => 'next');
      expect(pending(), 'a pause under way is kept, so that stop() can end it').to.equal(1);
      await waiting;
      expect(pending()).to.equal(0);
    });

    it('refuses a duty cycle outside (0, 1]', () => {
      for (const duty of [0, -0.5, 1.5, Number.NaN]) expect(() => new DutyCyclePace(duty), String(duty)).to.throw(/duty cycle must be above 0 and at most 1/);
    });
  });

  describe('runStatusSweep (MarkOverdueDebts over memory adapters)', () => {
    it('marks a backlog in chunks of 500 per organization, one event per row, pausing between chunks and never after the last', async () => {
      const chunks: number[] = [];
      let pauses = 0;
      const jobPace: JobPace = {
        stop: () => undefined,
        pacer: () => {
          let first = true;
          return async (chunk) => {
            if (!first) pauses++;
            first = false;
            const result = await chunk();
            chunks.push(result as number);
            return result;
          };
        },
      };
      const w = memoryWorld(T0, { ports: { jobPace } });
      const big = await w.newTenant();
      const small = await w.newTenant();
      for (const { scope } of [big, small]) {
        await w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, scope);
      }
      const draft: DebtDraft = { debtor: { externalClientId: 'ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-11', evaluateAutopay: false };
      const backlog = 2 * SWEEP_CHUNK + 1;
      for (let from = 0; from < backlog; from += 50) {
        const items = Array.from({ length: Math.min(50, backlog - from) }, (_, i) => ({ externalRequestId: `big-${from + i}`, draft }));
        await w.app.commands.createDebtBatch.execute(items, big.scope);
      }
      await w.app.commands.createDebtBatch.execute([0, 1].map((i) => ({ externalRequestId: `small-${i}`, draft })), small.scope);
      w.clock.advance(2 * DAY_MS);

      expect(await w.app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: backlog + 2 });
      // The demo-less memory world holds the two organizations: 500, 500, 1, then 2; a pause before each chunk but the first.
      expect(chunks).to.deep.equal([SWEEP_CHUNK, SWEEP_CHUNK, 1, 2]);
      expect(pauses).to.equal(3);
      const overdueEvents = async (companyId: number) =>
        (await w.repos.events.list(companyId, { type: 'debt.overdue' }, { page: 1, limit: 1 })).total;
      expect(await overdueEvents(big.scope.company.id)).to.equal(backlog);
      expect(await overdueEvents(small.scope.company.id)).to.equal(2);

      chunks.length = 0;
      expect(await w.app.jobs.markOverdueDebts.execute(), 'a second run marks nothing again').to.deep.equal({ marked: 0 });
      expect(chunks).to.deep.equal([0, 0]);
    });

    it('a process stopping mid-backlog ends the run after its chunk in flight; the next run marks the rest, each debt once', async () => {
      const pace = new DutyCyclePace(1);
      let chunksRun = 0;
      const stopAfterFirst: JobPace = {
        stop: () => pace.stop(),
        pacer: () => {
          const paced = pace.pacer();
          return async (chunk) => {
            const result = await paced(chunk);
            if (++chunksRun === 1) pace.stop();
            return result;
          };
        },
      };
      const w = memoryWorld(T0, { ports: { jobPace: stopAfterFirst } });
      const { scope } = await w.newTenant();
      await w.app.commands.createContact.execute({ externalClientId: 'ana', name: 'Ana', email: 'ana@example.com' }, scope);
      const draft: DebtDraft = { debtor: { externalClientId: 'ana' }, product: null, amountCents: 10_000, dueDate: '2031-05-11', evaluateAutopay: false };
      const backlog = SWEEP_CHUNK + 20;
      for (let from = 0; from < backlog; from += 50) {
        await w.app.commands.createDebtBatch.execute(Array.from({ length: Math.min(50, backlog - from) }, (_, i) => ({ externalRequestId: `d-${from + i}`, draft })), scope);
      }
      w.clock.advance(2 * DAY_MS);
      expect(await w.app.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: SWEEP_CHUNK });
      const next = buildApplication({ ...w.infra.ports, jobPace: new DutyCyclePace(1) });
      expect(await next.jobs.markOverdueDebts.execute()).to.deep.equal({ marked: 20 });
      expect((await w.repos.events.list(scope.company.id, { type: 'debt.overdue' }, { page: 1, limit: 1 })).total).to.equal(backlog);
    });
  });
});
