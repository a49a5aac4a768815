import type { Clock } from '../../../ports/clock';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { portalScopeOfCode } from '../../portal/portal-scope';
import type { Currency } from '../../shared/currency';
import { BusinessRuleViolationError, InvalidRequestError, NotFoundError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import { assertEnrollmentClient, ENROLLMENT_LINK_SECONDS, type EnrollmentGrant } from '../enrollment-grant';

export interface IssueEnrollmentLinkInput {
  externalClientId: string;
  /** Which bank account the page asks for; default: the company's currency, else MXN. */
  currency?: Currency;
  /** Default 7 days; 300 s to 30 days. */
  expiresInSeconds?: number;
}

/**
 * POST /enrollment-links and `admin enrollment-link`: the grant a signed enrollment URL carries
 * (the HTTP and CLI adapters sign it into a URL with the payment portal). Needs the company's
 * default-payment-method (direct debit) feature.
 */
export class IssueEnrollmentLink {
  constructor(private readonly deps: { tenancy: TenancyRepository; clock: Clock }) {
    requireDeps('IssueEnrollmentLink', deps);
  }

  /** The operator's door: the company by its code, on its organization's clock. */
  async forCompany(companyCode: string, input: IssueEnrollmentLinkInput): Promise<EnrollmentGrant> {
    const scope = await portalScopeOfCode(this.deps.tenancy, this.deps.clock, companyCode, null);
    if (!scope) throw new NotFoundError('Company');
    return this.execute(input, scope);
  }

  execute(input: IssueEnrollmentLinkInput, scope: TenantScope): EnrollmentGrant {
    assertEnrollmentClient(input.externalClientId);
    const seconds = input.expiresInSeconds ?? ENROLLMENT_LINK_SECONDS.default;
    if (!Number.isInteger(seconds) || seconds < ENROLLMENT_LINK_SECONDS.min || seconds > ENROLLMENT_LINK_SECONDS.max) {
      throw InvalidRequestError.field('expiresInSeconds', `must be an integer from ${ENROLLMENT_LINK_SECONDS.min} to ${ENROLLMENT_LINK_SECONDS.max}`);
    }
    if (!scope.company.directDebitEnabled) {
      throw new BusinessRuleViolationError('Direct debit (default payment methods) is not enabled for the company');
    }
    return {
      companyCode: scope.company.code,
      externalClientId: input.externalClientId,
      currency: input.currency ?? scope.company.defaultCurrency ?? 'MXN',
      // Whole seconds: the URL carries its expiry in Unix seconds.
      expiresAt: new Date(Math.floor(scope.clock.now().getTime() / 1000) * 1000 + seconds * 1000),
    };
  }
}
