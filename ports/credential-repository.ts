import type { Company } from '../internal/tenancy/company';
import type { ApiKeyKind, ApiKeyRecord, AppEnv, ClientUser } from '../internal/tenancy/credentials';
import type { Organization } from '../internal/tenancy/organization';

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

/** Client users and their API keys: who may call, and with which key. */
export interface CredentialRepository {
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
}
