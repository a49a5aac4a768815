import type { PaymentProcessor } from '../../../ports/payment-processor';
import type { Repositories } from '../../../ports/unit-of-work';
import { type CardInput, parseCard } from '../../portal/card';
import { PaymentDeclinedError } from '../../portal/payment-declined';
import { SUBMISSION_KEY } from '../../portal/portal-payment';
import { utcDateOf } from '../../shared/calendar-date';
import { ConflictError, InvalidRequestError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import { maskedBankAccount } from '../bank-account';
import { EnrollmentExpiredError, type EnrollmentGrant } from '../enrollment-grant';
import type { PaymentMethodReference } from '../payment-method';
import type { GetEnrollmentPage } from '../queries/get-enrollment-page';
import type { RegisterPaymentMethod } from './register-payment-method';

export interface PageEnrollmentInput {
  grant: EnrollmentGrant;
  type: string;
  /** BANK_ACCOUNT: the CLABE, CBU, CCI or account number (validated, then only masked). */
  accountNumber?: string;
  /** CARD_TOKENIZED: tokenized by the payment processor, then only masked. */
  card?: CardInput;
  makeDefault: boolean;
  submissionKey: string;
}

/**
 * The enrollment page's form: validates the bank account (or has the processor tokenize the
 * card), keeps only a masked reference, and registers it through RegisterPaymentMethod, whose
 * transaction also records the form key: a form sent twice registers once.
 */
export class EnrollThroughPage {
  constructor(
    private readonly deps: { repos: Repositories; paymentProcessor: PaymentProcessor; getEnrollmentPage: GetEnrollmentPage; registerPaymentMethod: RegisterPaymentMethod },
  ) {
    requireDeps('EnrollThroughPage', deps);
  }

  async execute(input: PageEnrollmentInput, requestId: string | null = null): Promise<{ method: PaymentMethodReference; replayed: boolean }> {
    if (!SUBMISSION_KEY.test(input.submissionKey)) throw InvalidRequestError.field('submission', 'is not a form key');
    const page = await this.deps.getEnrollmentPage.execute(input.grant, requestId);
    const { scope } = page;
    const earlier = await this.replayOf(scope.company.id, input.grant.externalClientId, input.submissionKey);
    if (earlier) return { method: earlier, replayed: true };
    if (page.status === 'EXPIRED') throw new EnrollmentExpiredError();

    let maskedReference: string;
    if (input.type === 'BANK_ACCOUNT') {
      maskedReference = maskedBankAccount(input.accountNumber ?? '', input.grant.currency);
    } else if (input.type === 'CARD_TOKENIZED') {
      const card = parseCard(input.card ?? {}, utcDateOf(scope.clock.now()), { requireCvc: false });
      const token = await this.deps.paymentProcessor.tokenizeCard(card);
      if (token.status === 'DECLINED') throw new PaymentDeclinedError(token.reason);
      maskedReference = `${token.brand} \u2022\u2022\u2022\u2022 ${token.last4}`;
    } else {
      throw InvalidRequestError.field('type', 'must be BANK_ACCOUNT or CARD_TOKENIZED');
    }

    const registration = { externalClientId: input.grant.externalClientId, type: input.type, isDefault: input.makeDefault, maskedReference } as const;
    try {
      const method = await this.deps.registerPaymentMethod.execute(registration, scope, async (tx: Repositories, registered) => {
        await tx.portal.insertEnrollment({
          organizationId: scope.organizationId,
          companyId: scope.company.id,
          submissionKey: input.submissionKey,
          externalClientId: input.grant.externalClientId,
          paymentMethodId: registered.id,
          createdAt: registered.createdAt,
        });
      });
      return { method, replayed: false };
    } catch (error) {
      const winner = error instanceof ConflictError ? await this.replayOf(scope.company.id, input.grant.externalClientId, input.submissionKey) : null;
      if (winner) return { method: winner, replayed: true };
      throw error;
    }
  }

  private async replayOf(companyId: number, externalClientId: string, submissionKey: string): Promise<PaymentMethodReference | null> {
    const enrollment = await this.deps.repos.portal.findEnrollmentBySubmission(companyId, submissionKey);
    if (!enrollment || enrollment.externalClientId !== externalClientId) return null;
    return this.deps.repos.paymentMethods.findById(companyId, enrollment.paymentMethodId);
  }
}
