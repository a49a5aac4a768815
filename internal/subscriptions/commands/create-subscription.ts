import type { IdGenerator } from '../../../ports/id-generator';
import type { SubscriptionView } from '../../../ports/subscription-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import type { PaymentMethod } from '../../debts/debt';
import type { DebtorRef } from '../../debts/debt-draft';
import { resolveDebtor } from '../../debts/resolve-debtor';
import { findOrCreateProductByName } from '../../debts/resolve-product';
import type { Currency } from '../../shared/currency';
import { eventOf } from '../../events/domain-event';
import { ConflictError } from '../../shared/errors';
import type { DispatchOutbox } from '../../shared/jobs/dispatch-outbox';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { cycleCount, dueDateOf, parseSchedule, type ScheduleInput } from '../schedule';
import { generationJob } from '../generation-job';

export interface CreateSubscriptionInput {
  externalSubscriptionId: string;
  debtor: DebtorRef;
  amountCents: number;
  currency?: Currency;
  schedule: ScheduleInput;
  productName: string;
  enforcePaymentOrder?: boolean;
  allowOverduePayment?: boolean;
  allowPartialPayments?: boolean;
  autopay?: boolean;
  paymentMethods?: PaymentMethod[];
  description?: string;
  additionalData?: Record<string, unknown>;
}

export const SUBSCRIPTION_CODE_LENGTH = 20;

/**
 * POST /subscriptions. Everything is validated before anything is written (an invalid schedule
 * creates no subscription, product or contact). The subscription, its inline contact and
 * product, and the job that generates its cycles are written in one transaction (the job
 * through the outbox) and its subscription.created event, so a created subscription can never
 * lose its generation.
 */
export class CreateSubscription {
  /** `dispatchOutbox`: the process's one outbox dispatcher (it marks the jobs handed over after commits together). */
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; ids: IdGenerator; dispatchOutbox: DispatchOutbox }) {
    requireDeps('CreateSubscription', deps);
  }

  async execute(input: CreateSubscriptionInput, scope: TenantScope): Promise<SubscriptionView> {
    const schedule = parseSchedule(input.schedule);
    // A taken externalSubscriptionId is found by the subscription's INSERT (its unique key): the
    // transaction then rolls back whole (inline contact and product included) and the conflict
    // is told apart from a race on the inline contact or product below.
    const taken = () => this.deps.repos.subscriptions.findByExternalSubscriptionId(scope.organizationId, input.externalSubscriptionId);
    const write = () =>
      this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
        const { contact, createdInline } = await resolveDebtor({ ...tx, ids: this.deps.ids }, input.debtor, scope);
        const { product, createdInline: productCreatedInline } = await findOrCreateProductByName(tx, input.productName, scope);
        const now = scope.clock.now();
        const count = cycleCount(schedule);
        const open = schedule.totalCycles === null && schedule.endDate === null;
        const created = await tx.subscriptions.insert({
          organizationId: scope.organizationId,
          companyId: scope.company.id,
          code: this.deps.ids.alphanumeric(SUBSCRIPTION_CODE_LENGTH),
          externalSubscriptionId: input.externalSubscriptionId,
          contactId: contact.id,
          contactCreatedInline: createdInline,
          productId: product.id,
          productCreatedInline,
          status: 'ACTIVE',
          amountCents: input.amountCents,
          currency: input.currency ?? scope.company.defaultCurrency ?? 'MXN',
          schedule,
          // The subscription ends when its endDate passes, or after its last cycle's due date.
          lastDueDate: open ? null : (schedule.endDate ?? dueDateOf(schedule, count - 1)),
          enforcePaymentOrder: input.enforcePaymentOrder ?? false,
          autopay: input.autopay ?? false,
          allowOverduePayment: input.allowOverduePayment ?? true,
          allowPartialPayments: input.allowPartialPayments ?? true,
          paymentMethods: input.paymentMethods ?? null,
          description: input.description ?? null,
          additionalData: input.additionalData ?? null,
          resumeCount: 0,
          createdAt: now,
          updatedAt: now,
        });
        await tx.outbox.add(generationJob(created, 0, null), now);
        // What findById would read back, from the rows just resolved and written.
        const view: SubscriptionView = {
          ...created,
          contact: { code: contact.code, externalClientId: contact.externalClientId },
          product: { id: product.id, name: product.name, active: product.active },
        };
        await tx.events.append([eventOf(scope, 'subscription.created', { kind: 'subscription', subscription: view }, now)]);
        return view;
      });
    let created;
    try {
      created = await write();
    } catch (error) {
      if (!(error instanceof ConflictError)) throw error;
      if (await taken()) throw conflict(input.externalSubscriptionId);
      created = await write(); // a concurrent request created the same inline contact or product
    }
    // Hand the job over now; if the queue is away the outbox dispatcher's periodic run retries it.
    await this.deps.dispatchOutbox.afterCommit(generationJob(created, 0, null)).catch(() => undefined);
    return created;
  }
}

function conflict(key: string): ConflictError {
  return new ConflictError(`A subscription with externalSubscriptionId ${key} already exists`);
}
