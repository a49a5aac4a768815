import type { Clock } from '../../../ports/clock';
import type { SecretHasher } from '../../../ports/secret-hasher';
import type { CredentialRepository } from '../../../ports/credential-repository';
import type { TokenService } from '../../../ports/token-service';
import { AuthenticationFailedError, InvalidRequestError } from '../../shared/errors';
import type { TenantScope } from '../../shared/tenant-scope';
import { requireDeps } from '../../shared/use-case-deps';
import type { AppEnv } from '../credentials';
import { organizationClock } from '../organization-clock';

export interface RequestCredentials {
  apiKey: string | undefined;
  accessToken: string | undefined;
  /** From the body (POST/PATCH) or the query (GET); context only. */
  companyCode: unknown;
  requestId: string | null;
}

/**
 * Every resource route: the facade API key and the access token must both be valid and of the
 * same organization (else 401); `companyCode` picks one of the client's companies (required when
 * it has several). The result is the scope every query is confined to.
 */
export class AuthenticateRequest {
  constructor(
    private readonly deps: {
      credentials: CredentialRepository;
      tokens: TokenService;
      secrets: SecretHasher;
      clock: Clock;
      appEnv: AppEnv;
    },
  ) {
    requireDeps('AuthenticateRequest', deps);
  }

  async execute(input: RequestCredentials): Promise<TenantScope> {
    const { tokens, secrets, appEnv } = this.deps;
    const claims = input.apiKey && input.accessToken ? tokens.verify(input.accessToken) : null;
    const credentials = claims
      ? await this.deps.credentials.findFacadeCredentials(secrets.digest(input.apiKey!), appEnv, claims.clientUserId)
      : null;
    if (!claims || !credentials || credentials.organization.id !== claims.organizationId) {
      throw new AuthenticationFailedError();
    }
    const { organization, clientUser, companies, apiKeyPrefix } = credentials;
    return {
      organizationId: organization.id,
      organizationName: organization.name,
      clientUserId: clientUser.id,
      company: pickCompany(companies, input.companyCode),
      clock: organizationClock(this.deps.clock, organization),
      requestId: input.requestId,
      apiKeyPrefix,
      rateLimit: organization.rateLimit,
    };
  }
}

function pickCompany<C extends { code: string }>(companies: C[], companyCode: unknown): C {
  if (companyCode === undefined) {
    if (companies.length === 1) return companies[0]!;
    throw InvalidRequestError.field('companyCode', 'is required for clients with several companies');
  }
  if (typeof companyCode !== 'string') throw InvalidRequestError.field('companyCode', 'must be a string');
  const company = companies.find((c) => c.code === companyCode);
  if (!company) throw InvalidRequestError.field('companyCode', 'does not belong to the client');
  return company;
}
