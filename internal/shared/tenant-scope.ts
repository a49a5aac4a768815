import type { Clock } from '../../ports/clock';
import type { Company } from '../tenancy/company';
import type { RateLimitPolicy } from '../tenancy/rate-limit';

/**
 * Who is calling and on behalf of which company, resolved from the credentials and
 * `companyCode`. Every use case that touches tenant data receives one; every query is scoped by it.
 */
export interface TenantScope {
  organizationId: number;
  organizationName: string;
  clientUserId: number;
  company: Company;
  /** The organization's clock: real time, or the instant frozen by the sandbox helper. */
  clock: Clock;
  requestId: string | null;
  /** Prefix of the facade API key the request came with (`ck_dev_…`); absent for workers and operators. */
  apiKeyPrefix?: string | null;
  /** The organization's own rate limit (read with the credentials); null or absent: the defaults. */
  rateLimit?: RateLimitPolicy | null;
}
