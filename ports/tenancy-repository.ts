import type { Company, CompanySettings } from '../internal/tenancy/company';
import type { ApiKeyKind, ApiKeyRecord, AppEnv, ClientUser } from '../internal/tenancy/credentials';
import type { Organization } from '../internal/tenancy/organization';
import type { RateLimitPolicy } from '../internal/tenancy/rate-limit';

/** What one facade request resolves from its API key and token, read in one query. */
export interface FacadeCredentials {
  organization: Organization;
  clientUser: ClientUser;
  /** The companies the client user may act for. */
  companies: Company[];
  /** Prefix of the facade key presented (never the key): who acted, in events and logs. */
  apiKeyPrefix: string;
}

export interface ClientSummary {
  organizationId: number;
  organizationName: string;
  clientUsername: string;
  disabled: boolean;
  companies: string[];
  apiKeys: { kind: ApiKeyKind; appEnv: AppEnv; prefix: string; createdAt: Date }[];
}

export interface TenancyRepository {
  countOrganizations(): Promise<number>;
  findOrganizationByName(name: string): Promise<Organization | null>;
  findOrganization(id: number): Promise<Organization | null>;
  insertOrganization(name: string, createdAt: Date): Promise<Organization>;
  setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void>;
  /** The organization's own rate limit, or null for the server's defaults. */
  setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void>;
  /** Every organization with its sandbox clock, for jobs that apply time rules to all of them. */
  listOrganizations(): Promise<Organization[]>;

  findCompanyByCode(code: string): Promise<Company | null>;
  findCompany(id: number): Promise<Company | null>;
  /** @throws ConflictError when the code is taken. */
  insertCompany(company: Omit<Company, 'id'>): Promise<Company>;
  updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company>;

  findClientUserByUsername(username: string): Promise<ClientUser | null>;
  /** @throws ConflictError when the username is taken. */
  insertClientUser(user: Omit<ClientUser, 'id'>, companyIds: number[]): Promise<ClientUser>;
  setClientUserDisabled(clientUserId: number, disabled: boolean): Promise<void>;
  listClients(): Promise<ClientSummary[]>;

  insertApiKey(key: ApiKeyRecord): Promise<void>;
  /** Revokes the user's live keys of that kind and environment; returns how many. */
  revokeApiKeys(clientUserId: number, kind: ApiKeyKind | null, appEnv: AppEnv | null, at: Date): Promise<number>;
  /** The live, non-revoked key with that hash, or null. */
  findApiKey(keyHash: string, kind: ApiKeyKind, appEnv: AppEnv): Promise<ApiKeyRecord | null>;
  /**
   * Resolves a facade request: the organization of a live facade key, and the token's user with
   * its companies, provided the user belongs to that organization and is enabled; else null.
   */
  findFacadeCredentials(keyHash: string, appEnv: AppEnv, clientUserId: number): Promise<FacadeCredentials | null>;
  findClientUser(id: number): Promise<ClientUser | null>;

  insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date): Promise<void>;
  /**
   * Marks an unused, unexpired refresh token of a user of that organization used, atomically:
   * of two concurrent calls with the same token only one gets the user id back. Returns null
   * otherwise, and then leaves the token as it was.
   */
  consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<number | null>;
  revokeRefreshTokens(clientUserId: number, at: Date): Promise<void>;
  /** Deletes refresh tokens expired or used before `before`; returns how many. */
  purgeRefreshTokens(before: Date): Promise<number>;
}
