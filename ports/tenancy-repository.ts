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

/** What presenting a refresh token found (TenancyRepository.consumeRefreshToken). */
export type RefreshTokenUse =
  /** It was live and is now used: its holder gets the next token of the family. */
  | { outcome: 'consumed'; clientUserId: number; familyId: number }
  /** It had been used already (or a concurrent call used it first): a replay, and `familyId` is compromised. */
  | { outcome: 'replayed'; clientUserId: number; familyId: number | null };

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

  /**
   * A new family of refresh tokens (one login: the token it issues and every token rotated from
   * it); returns its id.
   */
  startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number>;
  insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void>;
  /**
   * Presents a refresh token of a user of that organization. A live token (unused, unexpired, its
   * family not revoked) is marked used, atomically: of two concurrent calls with the same token
   * only one gets `consumed`, the other `replayed`. A token already used answers `replayed` (its
   * family, null for a token issued before families existed), whatever its expiry. Anything else
   * (unknown, another organization's, expired unused, of a revoked family) answers null and
   * leaves the token as it was. A token without a family (issued before families existed) joins
   * a new one as it is consumed.
   */
  consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null>;
  /** No token of the family is accepted any more (reuse of one of them was detected); false when it was revoked already. */
  revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean>;
  /** Every refresh token and family of the user dies (disable-client). */
  revokeRefreshTokens(clientUserId: number, at: Date): Promise<void>;
  /**
   * Deletes refresh tokens expired before `before`, used or not (a used token is kept until its
   * expiry so that its reuse is still recognized), and the families left without tokens; returns
   * how many tokens.
   */
  purgeRefreshTokens(before: Date): Promise<number>;
}
