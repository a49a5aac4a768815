import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { JobPace } from '../../ports/job-pace';
import type { PaymentInstructionProvider } from '../../ports/payment-instruction-provider';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';
import { ApplyUnappliedPayment } from './commands/apply-unapplied-payment';
import { CreatePaymentInstruction } from './commands/create-payment-instruction';
import { PrepareSandboxNotification } from './commands/prepare-sandbox-notification';
import { ReceiveProviderNotification } from './commands/receive-provider-notification';
import { RefundUnappliedPayment } from './commands/refund-unapplied-payment';
import { ExpirePaymentInstructions } from './jobs/expire-payment-instructions';
import {
  GetPaymentInstruction, GetUnappliedPayment, ListDebtPaymentInstructions, ListUnappliedPayments, UnappliedPaymentTotals,
} from './queries/payment-instruction-queries';

/**
 * The use cases of cash and transfer payments (docs/cash-and-transfer.md), wired once and merged
 * into the application's commands, queries and jobs (internal/application.ts).
 */
export function paymentInstructionUseCases(base: {
  uow: UnitOfWork;
  repos: Repositories;
  clock: Clock;
  jobPace: JobPace;
  ids: IdGenerator;
  paymentInstructionProvider: PaymentInstructionProvider;
}) {
  return {
    commands: {
      createPaymentInstruction: new CreatePaymentInstruction(base),
      receiveProviderNotification: new ReceiveProviderNotification(base),
      applyUnappliedPayment: new ApplyUnappliedPayment(base),
      refundUnappliedPayment: new RefundUnappliedPayment(base),
      prepareSandboxNotification: new PrepareSandboxNotification(base),
    },
    queries: {
      getPaymentInstruction: new GetPaymentInstruction(base),
      listDebtPaymentInstructions: new ListDebtPaymentInstructions(base),
      getUnappliedPayment: new GetUnappliedPayment(base),
      listUnappliedPayments: new ListUnappliedPayments(base),
      unappliedPaymentTotals: new UnappliedPaymentTotals(base),
    },
    jobs: {
      expirePaymentInstructions: new ExpirePaymentInstructions({ ...base, tenancy: base.repos.tenancy }),
    },
  };
}
