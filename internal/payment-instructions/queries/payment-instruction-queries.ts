import type { PaymentInstructionView } from '../../../ports/payment-instruction-repository';
import type { OpenUnappliedTotals, UnappliedPaymentView } from '../../../ports/unapplied-payment-repository';
import type { Repositories } from '../../../ports/unit-of-work';
import { findDebt } from '../../debts/find-debt';
import type { Page, PageRequest } from '../../shared/page';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { findPaymentInstruction } from '../find-payment-instruction';
import { findUnappliedPayment } from '../find-unapplied-payment';
import type { UnappliedStatus } from '../unapplied-payment';

/** GET /payment-instructions/{id}. */
export class GetPaymentInstruction {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('GetPaymentInstruction', deps);
  }

  execute(id: string, scope: TenantScope): Promise<PaymentInstructionView> {
    return findPaymentInstruction(this.deps.repos.paymentInstructions, id, scope);
  }
}

/** GET /debts/{id}/payment-instructions: every instruction of the debt, newest first. */
export class ListDebtPaymentInstructions {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('ListDebtPaymentInstructions', deps);
  }

  async execute(debtId: string, scope: TenantScope): Promise<PaymentInstructionView[]> {
    const debt = await findDebt(this.deps.repos.debts, debtId, scope);
    return this.deps.repos.paymentInstructions.listOfDebt(scope.company.id, debt.id);
  }
}

/** GET /unapplied-payments/{id}. */
export class GetUnappliedPayment {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('GetUnappliedPayment', deps);
  }

  execute(id: string, scope: TenantScope): Promise<UnappliedPaymentView> {
    return findUnappliedPayment(this.deps.repos.unappliedPayments, id, scope);
  }
}

/** GET /unapplied-payments: the company's, newest first, by status. */
export class ListUnappliedPayments {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('ListUnappliedPayments', deps);
  }

  execute(filter: { status?: UnappliedStatus }, page: PageRequest, scope: TenantScope): Promise<Page<UnappliedPaymentView>> {
    return this.deps.repos.unappliedPayments.list(scope.company.id, filter, page);
  }
}

/** What is still OPEN, by currency, over every tenant: the metrics read it at scrape time. */
export class UnappliedPaymentTotals {
  constructor(private readonly deps: { repos: Repositories }) {
    requireDeps('UnappliedPaymentTotals', deps);
  }

  execute(): Promise<OpenUnappliedTotals[]> {
    return this.deps.repos.unappliedPayments.openTotals();
  }
}
