import { ConflictError } from '../../../internal/shared/errors';
import type { Company, CompanySettings } from '../../../internal/tenancy/company';
import { type ApiKeyKind, type ApiKeyRecord, type AppEnv, type ClientUser, REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS } from '../../../internal/tenancy/credentials';
import type { Organization } from '../../../internal/tenancy/organization';
import type { RateLimitPolicy } from '../../../internal/tenancy/rate-limit';
import type { ClientSummary, FacadeCredentials, RefreshTokenUse, TenancyRepository } from '../../../ports/tenancy-repository';
import { copy, type MemoryStore } from './memory-store';

export class MemoryTenancyRepository implements TenancyRepository {
  constructor(private readonly store: MemoryStore) {}

  private get t() {
    return this.store.tables;
  }

  async countOrganizations(): Promise<number> {
    return this.t.organizations.length;
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    return copy(this.t.organizations.find((o) => o.name === name) ?? null);
  }

  async findOrganization(id: number): Promise<Organization | null> {
    return copy(this.t.organizations.find((o) => o.id === id) ?? null);
  }

  async insertOrganization(name: string, createdAt: Date): Promise<Organization> {
    if (this.t.organizations.some((o) => o.name === name)) throw new ConflictError('Organization already exists');
    const organization: Organization = { id: this.store.nextId(), name, frozenNow: null, rateLimit: null, createdAt };
    this.t.organizations.push(organization);
    return copy(organization);
  }

  async setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void> {
    const organization = this.t.organizations.find((o) => o.id === organizationId);
    if (organization) organization.frozenNow = frozenNow;
  }

  async setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void> {
    const organization = this.t.organizations.find((o) => o.id === organizationId);
    if (organization) organization.rateLimit = policy ? { ...policy } : null;
  }

  async listOrganizations(): Promise<Organization[]> {
    return copy(this.t.organizations);
  }

  async findCompany(id: number): Promise<Company | null> {
    return copy(this.t.companies.find((c) => c.id === id) ?? null);
  }

  async findCompanyByCode(code: string): Promise<Company | null> {
    return copy(this.t.companies.find((c) => c.code === code) ?? null);
  }

  async insertCompany(company: Omit<Company, 'id'>): Promise<Company> {
    if (this.t.companies.some((c) => c.code === company.code)) throw new ConflictError('Company already exists');
    const stored = { ...copy(company), id: this.store.nextId() };
    this.t.companies.push(stored);
    return copy(stored);
  }

  async updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company> {
    const company = this.t.companies.find((c) => c.id === companyId)!;
    for (const [key, value] of Object.entries(settings)) {
      if (value !== undefined) Object.assign(company, { [key]: value });
    }
    return copy(company);
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

  async startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number> {
    const id = ++this.t.sequence;
    this.t.refreshTokenFamilies.push({ id, clientUserId, createdAt: at, revokedAt: null });
    return id;
  }

  async insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void> {
    this.t.refreshTokens.push({ clientUserId, tokenHash, expiresAt, usedAt: null, familyId });
  }

  async consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null> {
    const token = this.t.refreshTokens.find((r) => r.tokenHash === tokenHash);
    const owner = token && this.t.clientUsers.find((u) => u.id === token.clientUserId);
    if (!token || owner?.organizationId !== organizationId) return null;
    if (token.usedAt) return { outcome: 'replayed', clientUserId: token.clientUserId, familyId: token.familyId };
    const family = this.t.refreshTokenFamilies.find((f) => f.id === token.familyId);
    if (family?.revokedAt || token.expiresAt.getTime() <= now.getTime()) return null;
    token.familyId ??= await this.startRefreshTokenFamily(token.clientUserId, now);
    token.usedAt = now;
    return { outcome: 'consumed', clientUserId: token.clientUserId, familyId: token.familyId };
  }

  async revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean> {
    const family = this.t.refreshTokenFamilies.find((f) => f.id === familyId && !f.revokedAt);
    if (family) family.revokedAt = at;
    return !!family;
  }

  async revokeRefreshTokens(clientUserId: number, at: Date): Promise<void> {
    for (const family of this.t.refreshTokenFamilies) if (family.clientUserId === clientUserId) family.revokedAt ??= at;
    for (const token of this.t.refreshTokens) if (token.clientUserId === clientUserId && !token.usedAt) token.usedAt = at;
  }

  async purgeRefreshTokens(before: Date): Promise<number> {
    const keep = this.t.refreshTokens.filter((r) => r.expiresAt.getTime() >= before.getTime());
    const purged = this.t.refreshTokens.length - keep.length;
    this.t.refreshTokens = keep;
    const live = new Set(keep.map((r) => r.familyId));
    this.t.refreshTokenFamilies = this.t.refreshTokenFamilies.filter(
      (f) => live.has(f.id) || f.createdAt.getTime() >= before.getTime() - REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS,
    );
    return purged;
  }

  private companiesOf(clientUserId: number): Company[] {
    const ids = new Set(this.t.clientUserCompanies.filter((x) => x.clientUserId === clientUserId).map((x) => x.companyId));
    return this.t.companies.filter((c) => ids.has(c.id)).sort((a, b) => a.id - b.id);
  }
}
