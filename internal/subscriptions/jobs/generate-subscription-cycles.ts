import type { Clock } from '../../../ports/clock';
import type { JobQueue } from '../../../ports/job-queue';
import { emitCycleAutopay, prepareCycleAutopay } from '../../direct-debit/cycle-autopay';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import type { DebtView, NewDebt } from '../../../ports/debt-repository';
import type { Debt } from '../../debts/debt';
import { newDebt, viewOf } from '../../debts/new-debt';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { workerScope } from '../../tenancy/worker-scope';
import { dueDates } from '../schedule';
import { cycleRequestId, type Subscription } from '../subscription';

/** Cycles written per transaction: the longest subscription (MAX_CYCLES, 520) in two. */
export const CYCLES_PER_TRANSACTION = 260;

/**
 * Worker job: writes one debt per cycle, named `<externalSubscriptionId>-cycle-<n>` (or
 * `-resume-<r>-cycle-<m>` after a resume). Idempotent and crash-safe: each chunk is a
 * transaction, under the subscription's row lock, that inserts only the externalRequestIds not
 * yet there with a debt.created event each, so a job killed half-way (or run twice at once) and
 * run again writes each cycle, and its event, exactly once. The chunk that writes the last cycle
 * also writes subscription.cycles_generated.
 */
export class GenerateSubscriptionCycles {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; queue: JobQueue }) {
    requireDeps('GenerateSubscriptionCycles', deps);
  }

  async execute(data: { subscriptionId: number; resume?: number; fromDate?: string | null }): Promise<{ generated: number }> {
    const { repos } = this.deps;
    const subscription = await repos.subscriptions.findById(Number(data.subscriptionId));
    if (!subscription || subscription.status === 'CANCELLED') return { generated: 0 };
    const [company, organization, contact, product] = await Promise.all([
      repos.tenancy.findCompany(subscription.companyId),
      repos.tenancy.findOrganization(subscription.organizationId),
      repos.contacts.findByCode(subscription.organizationId, subscription.contact.code),
      repos.products.findById(subscription.companyId, subscription.productId),
    ]);
    if (!company || !organization || !contact || !product) throw new Error(`subscription ${subscription.id} lost its company, contact or product`);
    const scope = workerScope(organization, company, this.deps.clock);
    const resume = Number(data.resume ?? 0);
    // After a resume, a cycle that still has a live debt (paid ahead, partially paid) is not
    // charged again.
    const taken = resume > 0 ? new Set(await repos.debts.liveDueDatesOfSubscription(subscription.id)) : new Set<string>();
    const dates = dueDates(subscription.schedule).filter(
      (date) => (!data.fromDate || date >= data.fromDate) && !taken.has(date),
    );
    const autopay = await prepareCycleAutopay(repos, subscription, resume, scope, contact, product);
    const rows: NewDebt[] = dates.map((dueDate, cycle) => ({
      ...newDebt(
        {
          amountCents: subscription.amountCents,
          dueDate,
          currency: subscription.currency,
          description: subscription.description ?? undefined,
          allowPartialPayments: subscription.allowPartialPayments,
          allowOverduePayment: subscription.allowOverduePayment,
          additionalData: subscription.additionalData ?? undefined,
          paymentMethods: subscription.paymentMethods ?? undefined,
          evaluateAutopay: subscription.autopay,
        },
        {
          externalRequestId: cycleRequestId(subscription.externalSubscriptionId, cycle, resume),
          batchId: null,
          contact,
          createdInline: subscription.contactCreatedInline,
          product,
          autopay: autopay.verdict,
        },
        scope,
      ),
      subscriptionId: subscription.id,
    }));
    const instrument = autopay.verdict && 'eligible' in autopay.verdict ? autopay.verdict.eligible : null;
    const view = (debt: Debt) => viewOf(debt, contact, product, instrument);
    for (let i = 0; i < rows.length; i += CYCLES_PER_TRANSACTION) {
      await this.writeChunk(subscription, rows.slice(i, i + CYCLES_PER_TRANSACTION), i + CYCLES_PER_TRANSACTION >= rows.length, scope, view);
    }
    await emitCycleAutopay(this.deps, autopay, product, rows.map((r) => r.externalRequestId), scope);
    return { generated: rows.length };
  }

  /**
   * The chunk's missing debts and their events; the last chunk also reports the generation. The
   * events show the debts as written (`view`), not read back: under the subscription's lock no
   * other generation writes these keys, so when every missing row went in, only their ids are
   * read. A key another writer took in between (a debt created by hand with a cycle's name) sends
   * the chunk the long way: the debts read back, this subscription's only.
   */
  private writeChunk(subscription: Subscription, rows: NewDebt[], last: boolean, scope: TenantScope, view: (debt: Debt) => DebtView): Promise<void> {
    return this.deps.uow.run(async (tx) => {
      const locked = await tx.subscriptions.lockByCode(subscription.companyId, subscription.code);
      if (!locked) throw new Error(`subscription ${subscription.id} vanished`);
      const existing = await tx.debts.idsByExternalRequestId(subscription.companyId, rows.map((r) => r.externalRequestId));
      const missing = rows.filter((r) => !existing.has(r.externalRequestId));
      if (missing.length === 0) return;
      const keys = missing.map((r) => r.externalRequestId);
      const inserted = await tx.debts.insertMissing(missing);
      let written: DebtView[];
      if (inserted === missing.length) {
        const ids = await tx.debts.idsByExternalRequestId(subscription.companyId, keys);
        written = missing.map((row) => view({ ...row, id: ids.get(row.externalRequestId)! }));
      } else {
        const order = new Map(keys.map((key, index) => [key, index]));
        written = (await tx.debts.findByExternalRequestIds(subscription.companyId, keys))
          .filter((debt) => debt.subscriptionId === subscription.id)
          .sort((a, b) => order.get(a.externalRequestId)! - order.get(b.externalRequestId)!);
      }
      const now = scope.clock.now();
      const events = written.map((debt) => eventOf(scope, 'debt.created', { kind: 'debt', debt }, debt.createdAt));
      if (last) events.push(eventOf(scope, 'subscription.cycles_generated', { kind: 'subscription', subscription: locked }, now));
      await tx.events.append(events);
    });
  }
}

