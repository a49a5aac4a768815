import type { Clock } from '../../../ports/clock';
import type { PaymentInstructionView } from '../../../ports/payment-instruction-repository';
import type { Repositories } from '../../../ports/unit-of-work';
import { debtIdOf } from '../../debts/debt';
import { findPaymentInstruction } from '../../payment-instructions/find-payment-instruction';
import { effectiveInstructionStatus, type InstructionStatus } from '../../payment-instructions/payment-instruction';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { subscriptionIdOf } from '../../subscriptions/subscription';
import type { PortalCompany } from '../portal-page';
import { portalScopeOfCode } from '../portal-scope';
import type { ReceiptOrigin } from './get-portal-receipt';

export interface InstructionPage {
  company: PortalCompany;
  scope: TenantScope;
  instruction: PaymentInstructionView;
  /** The effective status (a PENDING instruction past expiresAt reads EXPIRED). */
  status: InstructionStatus;
  /** The debt's description (a link's: the link's), what the debtor pays for. */
  description: string | null;
  /** The page the instruction was asked from, for the way back. */
  origin: ReceiptOrigin;
}

/**
 * The debtor's page of one payment instruction (the account to transfer to, or the cash voucher,
 * and whether the money arrived), and the public voucher of a CASH one: by a URL the HTTP
 * adapter verified. Anything unknown, or of another company, is 404.
 */
export class GetInstructionPage {
  constructor(private readonly deps: { repos: Repositories; clock: Clock }) {
    requireDeps('GetInstructionPage', deps);
  }

  async execute(target: { companyCode: string; paymentInstructionId: string }, requestId: string | null = null): Promise<InstructionPage> {
    const { repos } = this.deps;
    const scope = await portalScopeOfCode(repos.tenancy, this.deps.clock, target.companyCode, requestId);
    if (!scope) throw new NotFoundError('Page');
    const instruction = await findPaymentInstruction(repos.paymentInstructions, target.paymentInstructionId, scope);
    const debt = await repos.debts.findById(scope.company.id, instruction.debtId);
    if (!debt) throw new NotFoundError('Page');
    const link = debt.paymentLinkId ? await repos.paymentLinks.findById(scope.company.id, debt.paymentLinkId) : null;
    const subscription = debt.subscriptionId ? await repos.subscriptions.findById(debt.subscriptionId) : null;
    const origin: ReceiptOrigin = link
      ? { kind: 'link', shortCode: link.shortCode, identifier: link.urlIdentifier, portalUrl: scope.company.portalUrl }
      : subscription
        ? { kind: 'subscription', subscriptionId: subscriptionIdOf(subscription) }
        : { kind: 'debt', debtId: debtIdOf(debt) };
    return {
      company: { code: scope.company.code, name: scope.company.name },
      scope,
      instruction,
      status: effectiveInstructionStatus(instruction, scope.clock.now()),
      description: link?.description ?? debt.description,
      origin,
    };
  }
}
