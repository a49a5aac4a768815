import type { PaymentMethodRepository } from '../../../ports/payment-method-repository';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { PaymentMethodReference } from '../payment-method';

/**
 * GET /payment-methods: a user's references, oldest first; none (or an unknown user) is `[]`.
 * The user is the value given at enrollment, surrounding blanks ignored as registration does.
 */
export class ListPaymentMethods {
  constructor(private readonly deps: { paymentMethods: PaymentMethodRepository }) {
    requireDeps('ListPaymentMethods', deps);
  }

  execute(externalClientId: string, scope: TenantScope): Promise<PaymentMethodReference[]> {
    return this.deps.paymentMethods.listOfClient(scope.company.id, externalClientId.trim());
  }
}
