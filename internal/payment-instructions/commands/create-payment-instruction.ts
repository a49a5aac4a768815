import type { Clock } from '../../../ports/clock';
import type { DebtView } from '../../../ports/debt-repository';
import type { IdGenerator } from '../../../ports/id-generator';
import type { IssuedInstruction, PaymentInstructionProvider } from '../../../ports/payment-instruction-provider';
import type { PaymentInstructionView } from '../../../ports/payment-instruction-repository';
import type { PaymentLinkView } from '../../../ports/payment-link-repository';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { allowsPartialPayment, effectiveStatus, remainingCents } from '../../debts/debt';
import { findDebt } from '../../debts/find-debt';
import { eventOf } from '../../events/domain-event';
import { effectiveLinkStatus } from '../../payment-links/payment-link';
import { utcDateOf } from '../../shared/calendar-date';
import type { Currency } from '../../shared/currency';
import { BusinessRuleViolationError, ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import {
  effectiveInstructionStatus, INSTRUCTION_CODE_LENGTH, type InstructionMethod, instructionExpiry, instructionMethodsOf,
} from '../payment-instruction';

export interface CreateInstructionInput {
  /** The debtId (`debt_…`) or its externalRequestId. */
  debtId: string;
  method: InstructionMethod;
  /** Undefined: the remaining amount (a reusable link's debt: the link amount). */
  amountCents?: number;
}

/** Times a freshly issued account may collide with an existing one before giving up. */
const ISSUE_ATTEMPTS = 3;

type Plan = { existing: PaymentInstructionView } | { amountCents: number; currency: Currency; expiresAt: Date };

/**
 * POST /debts/{id}/payment-instructions (and the hosted page's "Transferencia" / "Efectivo"): an
 * account or a cash voucher for the debt, issued by the provider. Asking again for a method that
 * has a PENDING instruction answers that one (created false). The amount defaults to what the
 * debt owes; a part of it only where the debt allows partial payments. A debt that takes no
 * payment now (paid, cancelled, overdue without overdue payments, its link not ACTIVE) or does
 * not take the method is 422. The provider is called outside any transaction; the debt is then
 * locked and checked again, so two requests racing get one instruction.
 */
export class CreatePaymentInstruction {
  constructor(private readonly deps: { uow: UnitOfWork; repos: Repositories; ids: IdGenerator; clock: Clock; paymentInstructionProvider: PaymentInstructionProvider }) {
    requireDeps('CreatePaymentInstruction', deps);
  }

  async execute(input: CreateInstructionInput, scope: TenantScope): Promise<{ instruction: PaymentInstructionView; created: boolean }> {
    for (let attempt = 1; ; attempt++) {
      const plan = await this.plan(this.deps.repos, input, scope);
      if ('existing' in plan) return { instruction: plan.existing, created: false };
      const issued = await this.deps.paymentInstructionProvider.issue({
        method: input.method, amountCents: plan.amountCents, currency: plan.currency, beneficiary: scope.company.name, expiresAt: plan.expiresAt,
      });
      try {
        return await this.deps.uow.run((tx) => this.record(tx, input, issued, scope));
      } catch (error) {
        // A reference the provider issued twice (its ranges are large and random): issue another.
        if (!(error instanceof ConflictError) || attempt >= ISSUE_ATTEMPTS) throw error;
      }
    }
  }

  /** The rules, read (again under lock in `record`): the PENDING instruction to answer, or what to issue. */
  private async plan(repos: Repositories, input: CreateInstructionInput, scope: TenantScope): Promise<Plan> {
    const debt = await findDebt(repos.debts, input.debtId, scope);
    const link = debt.paymentLinkId ? await repos.paymentLinks.findById(scope.company.id, debt.paymentLinkId) : null;
    const now = scope.clock.now();
    assertTakesInstruction(debt, link, input.method, now);
    const pending = (await repos.paymentInstructions.listOfDebt(scope.company.id, debt.id)).find(
      (i) => i.method === input.method && effectiveInstructionStatus(i, now) === 'PENDING',
    );
    if (pending) return { existing: pending };
    const amountCents = amountOf(debt, link, input.amountCents, utcDateOf(now));
    const expiresAt = instructionExpiry(input.method, now, debt, link?.expiresAt ?? null);
    if (expiresAt.getTime() <= now.getTime()) throw new BusinessRuleViolationError('The debt takes no payment any more');
    return { amountCents, currency: debt.currency, expiresAt };
  }

  private async record(tx: Repositories, input: CreateInstructionInput, issued: IssuedInstruction, scope: TenantScope) {
    const unlocked = await findDebt(tx.debts, input.debtId, scope);
    // Locks in the order every payment takes them: the link, then the debt.
    if (unlocked.paymentLinkId) await tx.paymentLinks.lockById(scope.company.id, unlocked.paymentLinkId);
    const debt = await findDebt(tx.debts, input.debtId, scope, { lock: true });
    const now = scope.clock.now();
    // A PENDING instruction past its expiresAt is expired now, so a new one can take its place.
    for (const stale of await tx.paymentInstructions.listOfDebt(scope.company.id, debt.id)) {
      if (stale.method !== input.method || stale.status !== 'PENDING' || effectiveInstructionStatus(stale, now) !== 'EXPIRED') continue;
      const expired = await tx.paymentInstructions.update(stale.id, { status: 'EXPIRED', updatedAt: now });
      await tx.events.append([eventOf(scope, 'payment_instruction.expired', { kind: 'payment_instruction', instruction: expired }, now)]);
    }
    const plan = await this.plan(tx, input, scope);
    if ('existing' in plan) return { instruction: plan.existing, created: false };
    const instruction = await tx.paymentInstructions.insert({
      organizationId: scope.organizationId,
      companyId: scope.company.id,
      debtId: debt.id,
      code: this.deps.ids.alphanumeric(INSTRUCTION_CODE_LENGTH),
      method: input.method,
      status: 'PENDING',
      amountCents: plan.amountCents,
      amountReceivedCents: 0,
      amountAppliedCents: 0,
      currency: debt.currency,
      reference: issued.reference,
      provider: this.deps.paymentInstructionProvider.name,
      providerReference: issued.providerReference,
      transfer: issued.method === 'TRANSFER' ? issued.transfer : null,
      cash: issued.method === 'CASH' ? issued.cash : null,
      expiresAt: plan.expiresAt,
      createdAt: now,
      paidAt: null,
      updatedAt: now,
    });
    await tx.events.append([eventOf(scope, 'payment_instruction.created', { kind: 'payment_instruction', instruction }, now)]);
    return { instruction, created: true };
  }
}

/** The debt takes a payment now, and takes it by this method. */
function assertTakesInstruction(debt: DebtView, link: PaymentLinkView | null, method: InstructionMethod, now: Date): void {
  const status = effectiveStatus(debt, utcDateOf(now));
  if (status === 'PAID' || status === 'CANCELLED') throw new BusinessRuleViolationError(`A ${status} debt takes no payment`);
  if (debt.dueDate < utcDateOf(now) && !debt.allowOverduePayment) {
    throw new BusinessRuleViolationError('The debt is past its due date and does not allow overdue payment');
  }
  if (link) {
    const linkStatus = effectiveLinkStatus(link, now);
    if (linkStatus !== 'ACTIVE') throw new BusinessRuleViolationError(`A ${linkStatus} payment link accepts no payment`);
  }
  if (!instructionMethodsOf(debt.paymentMethods).includes(method)) {
    throw new BusinessRuleViolationError(`The debt's payment methods do not include ${method === 'TRANSFER' ? 'TRANSFER or BANK_TRANSFER' : 'CASH'}`);
  }
}

/** What the instruction asks for: the remaining amount, or a part of it where allowed; a reusable link's amount, whole. */
function amountOf(debt: DebtView, link: PaymentLinkView | null, requested: number | undefined, today: string): number {
  if (link && !link.singleUse) {
    if (requested !== undefined && requested !== link.amountCents) throw new BusinessRuleViolationError('A reusable link is paid its amount, whole');
    return link.amountCents;
  }
  const remaining = remainingCents(debt);
  if (requested === undefined) return remaining;
  if (requested > remaining) throw new BusinessRuleViolationError('The amount exceeds the remaining amount');
  if (requested < remaining && !allowsPartialPayment(debt, today)) {
    throw new BusinessRuleViolationError(debt.allowPartialPayments ? 'An OVERDUE debt can only be paid in full (its remaining amount)' : 'The debt does not allow partial payments');
  }
  return requested;
}
