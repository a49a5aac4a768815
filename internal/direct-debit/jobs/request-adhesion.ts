import type { Clock } from '../../../ports/clock';
import type { DirectDebitGateway } from '../../../ports/direct-debit-gateway';
import type { Repositories } from '../../../ports/unit-of-work';
import { productIdOf } from '../../products/product';
import { requireDeps } from '../../shared/use-case-deps';
import { loadWorkerScope } from '../../tenancy/worker-scope';
import { adhesionIdOf } from '../adhesion';
import type { AdhesionRequest } from '../adhesion-requests';
import type { EnrollAdhesion } from '../commands/enroll-adhesion';
import { paymentMethodIdOf } from '../payment-method';
import type { DebitRun, ExecuteDueDebits } from './execute-due-debits';

/**
 * Worker job: processes the adhesion request a new autopay debt emitted (none when the company,
 * the payment method or the product is gone). The user is enrolled in the product (the adhesion
 * is created, or made ACTIVE again), the direct-debit platform is told
 * (a transient failure there fails the job, which the queue retries; enrolling twice changes
 * nothing), and the user's debts of that product that are already due are collected at once;
 * later ones are collected on their due date by the scheduled `direct-debit.execute-due`.
 */
export class RequestAdhesion {
  constructor(
    private readonly deps: {
      repos: Repositories;
      clock: Clock;
      directDebit: DirectDebitGateway;
      enrollAdhesion: EnrollAdhesion;
      executeDueDebits: ExecuteDueDebits;
    },
  ) {
    requireDeps('RequestAdhesion', deps);
  }

  async execute(request: AdhesionRequest): Promise<{ enrolled: boolean } & DebitRun> {
    const { repos } = this.deps;
    const scope = await loadWorkerScope(repos.tenancy, this.deps.clock, request.companyId);
    const method = scope && (await repos.paymentMethods.findById(request.companyId, request.paymentMethodId));
    const product = method && (await repos.products.findById(request.companyId, request.productId));
    if (!scope || !method || !product) return { enrolled: false, attempted: 0, succeeded: 0, failed: 0 };
    const { adhesion } = await this.deps.enrollAdhesion.enrollProduct(request.externalClientId, product, scope);
    await this.deps.directDebit.requestAdhesion({
      idempotencyKey: `${adhesionIdOf(adhesion)}-${paymentMethodIdOf(method)}`,
      companyCode: scope.company.code,
      externalClientId: request.externalClientId,
      productId: productIdOf({ id: request.productId }),
      paymentMethodId: paymentMethodIdOf(method),
    });
    const run = await this.deps.executeDueDebits.execute({
      companyId: request.companyId,
      externalClientId: request.externalClientId,
      productId: request.productId,
    });
    return { enrolled: true, ...run };
  }
}
