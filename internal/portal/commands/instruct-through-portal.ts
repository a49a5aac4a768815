import type { PaymentMethod } from '../../debts/debt';
import type { CreatePaymentInstruction } from '../../payment-instructions/commands/create-payment-instruction';
import { type InstructionMethod, paymentInstructionIdOf } from '../../payment-instructions/payment-instruction';
import { InvalidRequestError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import { NotPayableError } from '../payment-declined';
import { PROCESSOR_METHODS } from '../portal-charge';
import type { PortalTarget } from '../portal-target';
import type { GetPortalPage } from '../queries/get-portal-page';
import { amountToPay, chargeToPay } from './pay-through-portal';

export interface PortalInstructionInput {
  target: PortalTarget;
  /** On a subscription page: the cycle to pay (`debt_…`). */
  cycleDebtId?: string;
  /** Undefined: the whole remaining amount. */
  amountCents?: number;
  method: string;
}

/**
 * "Transferencia" or "Efectivo" on a hosted page: the charge is checked as the page showed it
 * (the same checks as a card payment), then the debt gets its payment instruction through the
 * same use case as POST /debts/{id}/payment-instructions. A form sent twice finds the PENDING
 * instruction the first created. The page then shows the instruction and waits for the money.
 */
export class InstructThroughPortal {
  constructor(private readonly deps: { getPortalPage: GetPortalPage; createPaymentInstruction: CreatePaymentInstruction }) {
    requireDeps('InstructThroughPortal', deps);
  }

  async execute(input: PortalInstructionInput, requestId: string | null = null): Promise<{ companyCode: string; paymentInstructionId: string }> {
    const page = await this.deps.getPortalPage.execute(input.target, requestId);
    const charge = chargeToPay(page, input.cycleDebtId);
    if (!charge.payability.payable) throw new NotPayableError(charge.payability.reason);
    const method = input.method as PaymentMethod;
    if (!charge.payability.methods.includes(method) || PROCESSOR_METHODS.includes(method)) {
      throw InvalidRequestError.field('method', 'is not a method this charge can be paid with');
    }
    const amountCents = amountToPay(charge.remainingCents, charge.payability.partial, input.amountCents);
    const { instruction } = await this.deps.createPaymentInstruction.execute(
      { debtId: charge.debtId, method: method as InstructionMethod, amountCents: input.amountCents === undefined ? undefined : amountCents },
      page.scope,
    );
    return { companyCode: page.scope.company.code, paymentInstructionId: paymentInstructionIdOf(instruction) };
  }
}
