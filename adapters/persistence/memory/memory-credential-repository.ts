import { ConflictError } from '../../../internal/shared/errors';
import type { Company } from '../../../internal/tenancy/company';
import type { ApiKeyKind, ApiKeyRecord, AppEnv, ClientUser } from '../../../internal/tenancy/credentials';
import type { ClientSummary, CredentialRepository, FacadeCredentials } from '../../../ports/credential-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryCredentialRepository implements CredentialRepository {
  constructor(private readonly store: MemoryStore) {}

  private get t() {
    return this.store.tables;
  }

  async findClientUserByUsername(username: string): Promise<ClientUser | null> {
    return copy(this.t.clientUsers.find((u) => u.username === username) ?? null);
  }

  async findClientUser(id: number): Promise<ClientUser | null> {
    return copy(this.t.clientUsers.find((u) => u.id === id) ?? null);
  }

  async insertClientUser(user: Omit<ClientUser, 'id'>, companyIds: number[]): Promise<ClientUser> {
    if (this.t.clientUsers.some((u) => u.username === user.username)) throw new ConflictError('Client user already exists');
    const stored = { ...copy(user), id: this.store.nextId() };
    this.t.clientUsers.push(stored);
    for (const companyId of companyIds) this.t.clientUserCompanies.push({ clientUserId: stored.id, companyId });
    return copy(stored);
  }

  async setClientUserDisabled(clientUserId: number, disabled: boolean): Promise<void> {
    const user = this.t.clientUsers.find((u) => u.id === clientUserId);
    if (user) user.disabled = disabled;
  }

  async listClients(): Promise<ClientSummary[]> {
    return this.t.clientUsers.map((u) => ({
      organizationId: u.organizationId,
      organizationName: this.t.organizations.find((o) => o.id === u.organizationId)!.name,
      clientUsername: u.username,
      disabled: u.disabled,
      companies: this.companiesOf(u.id).map((c) => c.code).sort(),
      apiKeys: this.t.apiKeys
        .filter((k) => k.clientUserId === u.id && !k.revokedAt)
        .map((k) => ({ kind: k.kind, appEnv: k.appEnv, prefix: k.prefix, createdAt: k.createdAt })),
    }));
  }

  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    this.t.apiKeys.push({ ...copy(key), revokedAt: null });
  }

  async revokeApiKeys(clientUserId: number, kind: ApiKeyKind | null, appEnv: AppEnv | null, at: Date): Promise<number> {
    const live = this.t.apiKeys.filter(
      (k) => k.clientUserId === clientUserId && !k.revokedAt && (!kind || k.kind === kind) && (!appEnv || k.appEnv === appEnv),
    );
    for (const key of live) key.revokedAt = at;
    return live.length;
  }

  async findApiKey(keyHash: string, kind: ApiKeyKind, appEnv: AppEnv): Promise<ApiKeyRecord | null> {
    const key = this.t.apiKeys.find((k) => k.keyHash === keyHash && k.kind === kind && k.appEnv === appEnv && !k.revokedAt);
    if (!key) return null;
    const { revokedAt: _revokedAt, ...record } = key;
    return copy(record);
  }

  async findFacadeCredentials(keyHash: string, appEnv: AppEnv, clientUserId: number): Promise<FacadeCredentials | null> {
    const key = await this.findApiKey(keyHash, 'facade', appEnv);
    const user = this.t.clientUsers.find((u) => u.id === clientUserId);
    const organization = key && this.t.organizations.find((o) => o.id === key.organizationId);
    if (!key || !user || !organization || user.disabled || user.organizationId !== organization.id) return null;
    const companies = this.companiesOf(user.id);
    return companies.length ? copy({ organization, clientUser: user, companies, apiKeyPrefix: key.prefix }) : null;
  }

  private companiesOf(clientUserId: number): Company[] {
    const ids = new Set(this.t.clientUserCompanies.filter((x) => x.clientUserId === clientUserId).map((x) => x.companyId));
    return this.t.companies.filter((c) => ids.has(c.id)).sort((a, b) => a.id - b.id);
  }
}
