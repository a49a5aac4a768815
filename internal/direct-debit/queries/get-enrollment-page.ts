import type { Clock } from '../../../ports/clock';
import type { Repositories } from '../../../ports/unit-of-work';
import { portalScopeOfCode } from '../../portal/portal-scope';
import { NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { BANK_ACCOUNT_KIND_BY_CURRENCY, type BankAccountKind } from '../bank-account';
import type { EnrollmentGrant } from '../enrollment-grant';
import type { PaymentMethodReference } from '../payment-method';

export type EnrollmentPage =
  | { status: 'EXPIRED'; companyName: string; scope: TenantScope }
  | {
      status: 'OPEN';
      companyName: string;
      scope: TenantScope;
      grant: EnrollmentGrant;
      accountKind: BankAccountKind;
      /** What the user registered before (masked references only). */
      methods: PaymentMethodReference[];
    };

/** The enrollment page a verified grant opens: expired, or the form with the user's methods. */
export class GetEnrollmentPage {
  constructor(private readonly deps: { repos: Repositories; clock: Clock }) {
    requireDeps('GetEnrollmentPage', deps);
  }

  async execute(grant: EnrollmentGrant, requestId: string | null = null): Promise<EnrollmentPage> {
    const scope = await portalScopeOfCode(this.deps.repos.tenancy, this.deps.clock, grant.companyCode, requestId);
    if (!scope) throw new NotFoundError('Page');
    const companyName = scope.company.name;
    if (scope.clock.now().getTime() >= grant.expiresAt.getTime()) return { status: 'EXPIRED', companyName, scope };
    const methods = await this.deps.repos.paymentMethods.listOfClient(scope.company.id, grant.externalClientId);
    return { status: 'OPEN', companyName, scope, grant, accountKind: BANK_ACCOUNT_KIND_BY_CURRENCY[grant.currency], methods };
  }
}
