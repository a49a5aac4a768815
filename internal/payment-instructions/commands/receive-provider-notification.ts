import type { Clock } from '../../../ports/clock';
import type { IdGenerator } from '../../../ports/id-generator';
import type { PaymentInstructionProvider, ReceivedMoney } from '../../../ports/payment-instruction-provider';
import type { PaymentInstructionView } from '../../../ports/payment-instruction-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { applyDebtPayment, assertPaymentOrder } from '../../debts/apply-debt-payment';
import { debtIdOf, remainingCents } from '../../debts/debt';
import { eventOf } from '../../events/domain-event';
import { applyLinkPayment } from '../../payment-links/commands/pay-payment-link';
import { effectiveLinkStatus, paymentLinkIdOf } from '../../payment-links/payment-link';
import { utcDateOf } from '../../shared/calendar-date';
import { ConflictError, DomainError, NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { loadWorkerScope } from '../../tenancy/worker-scope';
import { allocate, type Allocation } from '../allocation';
import { effectiveInstructionStatus, type InstructionMethod, paymentInstructionIdOf, paymentSourceOf } from '../payment-instruction';
import { outcomeOf, type ProviderNotification } from '../provider-notification';
import { UNAPPLIED_CODE_LENGTH } from '../unapplied-payment';

export interface NotificationInput {
  /** The `{provider}` of the path. */
  provider: string;
  headers: Record<string, string | undefined>;
  /** The exact body, as received: the signature is over these bytes. */
  body: string;
  requestId: string | null;
}

export interface NotificationReceipt {
  notification: ProviderNotification;
  /** The same transaction was recorded before: nothing was recorded now. */
  replayed: boolean;
  /** The instruction's method (null when no instruction of ours is named). */
  method: InstructionMethod | null;
}

/**
 * POST /provider-notifications/{provider}: the only way money comes in. The provider's
 * signature and replay window are checked, then, in one transaction: the notification is kept
 * once per provider transaction (a replay or a second delivery records nothing and answers the
 * first outcome), and its money is applied to the instruction's debt through the same payment
 * use case as every other payment (applyDebtPayment, or applyLinkPayment for a reusable link),
 * or kept as an unapplied payment, or both (allocation.ts), with every event and an audit entry.
 * Locks are taken in the order of every payment (link, debt, then the instruction).
 */
export class ReceiveProviderNotification {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; clock: Clock; ids: IdGenerator; paymentInstructionProvider: PaymentInstructionProvider }) {
    requireDeps('ReceiveProviderNotification', deps);
  }

  async execute(input: NotificationInput): Promise<NotificationReceipt> {
    const provider = this.deps.paymentInstructionProvider;
    if (input.provider !== provider.name) throw new NotFoundError('Provider');
    const money = provider.verifyNotification({ headers: input.headers, body: input.body }, this.deps.clock.now());
    const earlier = await this.replayOf(money);
    if (earlier) return earlier;
    try {
      return await this.deps.uow.run((tx) => this.record(tx, money, input.requestId));
    } catch (error) {
      // The same transaction delivered twice at once: the other delivery recorded it.
      const winner = error instanceof ConflictError ? await this.replayOf(money) : null;
      if (winner) return winner;
      throw error;
    }
  }

  private async replayOf(money: ReceivedMoney): Promise<NotificationReceipt | null> {
    const provider = this.deps.paymentInstructionProvider.name;
    const notification = await this.deps.repos.providerNotifications.find(provider, money.transactionId);
    if (!notification) return null;
    if (notification.amountCents !== money.amountCents || notification.currency !== money.currency || notification.providerReference !== money.providerReference) {
      throw new ConflictError(`Transaction ${money.transactionId} was notified before with other values`);
    }
    const instruction = notification.paymentInstructionId === null
      ? null
      : await this.deps.repos.paymentInstructions.findByProviderReference(provider, notification.providerReference);
    return { notification, replayed: true, method: instruction?.method ?? null };
  }

  private async record(tx: Repositories, money: ReceivedMoney, requestId: string | null): Promise<NotificationReceipt> {
    const provider = this.deps.paymentInstructionProvider.name;
    const recordedAt = this.deps.clock.now();
    const notification = await tx.providerNotifications.insert({
      provider, transactionId: money.transactionId, providerReference: money.providerReference, amountCents: money.amountCents,
      currency: money.currency, receivedAt: money.receivedAt, recordedAt, organizationId: null, companyId: null,
      paymentInstructionId: null, outcome: 'UNMATCHED', appliedCents: 0, unappliedCents: 0,
    });
    const found = await tx.paymentInstructions.findByProviderReference(provider, money.providerReference);
    const worker = found && (await loadWorkerScope(tx.tenancy, this.deps.clock, found.companyId));
    // Money no instruction of ours names: kept (UNMATCHED) for the operators, never applied.
    if (!found || !worker) return { notification, replayed: false, method: null };
    const scope: TenantScope = { ...worker, requestId };
    const allocation = await this.apply(tx, found, money, scope, notification.id);
    const recorded = await tx.providerNotifications.recordOutcome(notification.id, {
      organizationId: found.organizationId, companyId: found.companyId, paymentInstructionId: found.id,
      outcome: outcomeOf(allocation.appliedCents, allocation.unapplied?.cents ?? 0),
      appliedCents: allocation.appliedCents, unappliedCents: allocation.unapplied?.cents ?? 0,
    });
    await tx.audit.record({
      organizationId: found.organizationId,
      action: 'provider_notification.received',
      resourceType: 'payment_instruction',
      resourceId: paymentInstructionIdOf(found),
      actor: { type: 'system', name: `provider:${provider}` },
      details: {
        transactionId: money.transactionId, amountCents: money.amountCents, currency: money.currency, outcome: recorded.outcome,
        appliedCents: recorded.appliedCents, unappliedCents: recorded.unappliedCents, requestId,
      },
      at: recordedAt,
    });
    return { notification: recorded, replayed: false, method: found.method };
  }

  /** Splits the money (allocation.ts) under the locks of a payment, then records each part. */
  private async apply(tx: Repositories, found: PaymentInstructionView, money: ReceivedMoney, scope: TenantScope, notificationId: number): Promise<Allocation> {
    const now = scope.clock.now();
    const unlocked = await tx.debts.findById(scope.company.id, found.debtId);
    if (!unlocked) throw new Error(`payment instruction ${found.code} has no debt`);
    const link = unlocked.paymentLinkId ? await tx.paymentLinks.lockById(scope.company.id, unlocked.paymentLinkId) : null;
    const debt = (await tx.debts.lockByExternalRequestId(scope.company.id, unlocked.externalRequestId))!;
    let instruction = (await tx.paymentInstructions.lockById(found.id))!;
    const status = effectiveInstructionStatus(instruction, now);
    if (instruction.status === 'PENDING' && status === 'EXPIRED') {
      instruction = await tx.paymentInstructions.update(instruction.id, { status: 'EXPIRED', updatedAt: now });
      await tx.events.append([eventOf(scope, 'payment_instruction.expired', { kind: 'payment_instruction', instruction }, now)]);
    }
    const reusable = link !== null && !link.singleUse;
    const sameCurrency = money.currency === instruction.currency;
    const allocation = allocate(money.amountCents, {
      instructionPending: status === 'PENDING',
      sameCurrency,
      blocked: link && effectiveLinkStatus(link, now) !== 'ACTIVE' ? 'LINK_NOT_ACTIVE' : await this.orderBlock(tx, debt),
      debt,
      capacity: reusable ? { cents: link.amountCents, wholeOnly: true } : null,
      today: utcDateOf(now),
    });
    const applied = allocation.appliedCents;
    // Paid: its amount is in, or it completed the debt (a reusable link's stays PENDING, like the link).
    const completes = !reusable && applied > 0 && (instruction.amountAppliedCents + applied >= instruction.amountCents || applied === remainingCents(debt));
    instruction = await tx.paymentInstructions.update(instruction.id, {
      // Money in another currency is not the instruction's: it goes to the unapplied payment alone.
      amountReceivedCents: instruction.amountReceivedCents + (sameCurrency ? money.amountCents : 0),
      amountAppliedCents: instruction.amountAppliedCents + applied,
      ...(completes ? { status: 'PAID' as const, paidAt: now } : {}),
      updatedAt: now,
    });
    if (completes) await tx.events.append([eventOf(scope, 'payment_instruction.paid', { kind: 'payment_instruction', instruction }, now)]);
    if (applied > 0) {
      const source = paymentSourceOf(instruction.method);
      if (reusable) await applyLinkPayment(tx, paymentLinkIdOf(link), applied, source, scope);
      else await applyDebtPayment(tx, debtIdOf(debt), applied, source, scope);
    }
    if (allocation.unapplied) {
      const unapplied = await tx.unappliedPayments.insert({
        organizationId: scope.organizationId,
        companyId: scope.company.id,
        code: this.deps.ids.alphanumeric(UNAPPLIED_CODE_LENGTH),
        amountCents: allocation.unapplied.cents,
        currency: money.currency,
        paymentInstructionId: instruction.id,
        debtId: debt.id,
        reason: allocation.unapplied.reason,
        status: 'OPEN',
        receivedAt: money.receivedAt,
        resolvedAt: null,
        resolution: null,
        notificationId,
        refundRequestedAt: null,
      });
      await tx.events.append([eventOf(scope, 'unapplied_payment.created', { kind: 'unapplied_payment', payment: unapplied }, now)]);
    }
    return allocation;
  }

  /** enforcePaymentOrder: money for a later cycle that arrives before an earlier one is paid is not applied. */
  private async orderBlock(tx: Repositories, debt: Parameters<typeof assertPaymentOrder>[2]): Promise<string | null> {
    if (!debt.subscriptionId) return null;
    try {
      await assertPaymentOrder(tx.subscriptions, tx.debts, debt);
      return null;
    } catch (error) {
      if (error instanceof DomainError) return 'EARLIER_CYCLE_UNPAID';
      throw error;
    }
  }
}
