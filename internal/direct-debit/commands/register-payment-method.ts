import type { IdGenerator } from '../../../ports/id-generator';
import type { Repositories, UnitOfWork } from '../../../ports/unit-of-work';
import { eventOf } from '../../events/domain-event';
import { ConflictError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { PAYMENT_METHOD_CODE_LENGTH, type PaymentMethodReference, type PaymentMethodType } from '../payment-method';

export interface RegisterPaymentMethodInput {
  externalClientId: string;
  type: PaymentMethodType;
  /** Ask for this method to become the default; the user's first method is the default anyway. */
  isDefault?: boolean;
  /** What the user recognises it by (`CLABE •••• 1234`); never the full number. */
  maskedReference?: string | null;
}

type Alongside = (tx: Repositories, method: PaymentMethodReference) => Promise<void>;

/**
 * Registers a payment method reference for a user of the company: the hosted enrollment page
 * and the sandbox helper both come here. The first method of a user becomes the default; a later
 * one displaces it only when registration asks for it. One default per user is a unique key, so
 * two racing first registrations still leave exactly one default.
 */
export class RegisterPaymentMethod {
  constructor(private readonly deps: { uow: UnitOfWork; ids: IdGenerator }) {
    requireDeps('RegisterPaymentMethod', deps);
  }

  /**
   * `alongside` runs in the registration's transaction with the new method (the enrollment page
   * records its form key there, so a form sent twice registers once).
   */
  async execute(input: RegisterPaymentMethodInput, scope: TenantScope, alongside?: Alongside): Promise<PaymentMethodReference> {
    try {
      return await this.register(input, scope, alongside);
    } catch (error) {
      // A concurrent registration became the default first: this one now sees it.
      if (!(error instanceof ConflictError)) throw error;
      return this.register(input, scope, alongside);
    }
  }

  private register(input: RegisterPaymentMethodInput, scope: TenantScope, alongside?: Alongside): Promise<PaymentMethodReference> {
    // The user is a contact's externalClientId, which contacts store trimmed.
    const externalClientId = input.externalClientId.trim();
    return this.deps.uow.runGrouped(scope.organizationId, async (tx) => {
      const { paymentMethods, events } = tx;
      const companyId = scope.company.id;
      const method = (isDefault: boolean) =>
        paymentMethods.insert({
          organizationId: scope.organizationId,
          companyId,
          code: this.deps.ids.alphanumeric(PAYMENT_METHOD_CODE_LENGTH),
          externalClientId,
          type: input.type,
          isDefault,
          status: 'ACTIVE',
          maskedReference: input.maskedReference ?? null,
          createdAt: scope.clock.now(),
        });
      let registered: PaymentMethodReference;
      if (input.isDefault === true) {
        await paymentMethods.clearDefault(companyId, externalClientId);
        registered = await method(true);
      } else {
        // The default unless the user has one: the one-default-per-user key answers, so the
        // user's first method costs one INSERT and no read.
        registered = await method(true).catch((error: unknown) => {
          if (error instanceof ConflictError) return method(false);
          throw error;
        });
      }
      await events.append([eventOf(scope, 'payment_method.registered', { kind: 'payment_method', paymentMethod: registered })]);
      await alongside?.(tx, registered);
      return registered;
    });
  }
}
