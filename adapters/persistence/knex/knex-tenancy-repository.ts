import type { Knex } from 'knex';
import type { Company, CompanySettings } from '../../../internal/tenancy/company';
import { type ApiKeyKind, type ApiKeyRecord, type AppEnv, type ClientUser, REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS } from '../../../internal/tenancy/credentials';
import type { Organization } from '../../../internal/tenancy/organization';
import type { RateLimitPolicy } from '../../../internal/tenancy/rate-limit';
import type { Currency } from '../../../internal/shared/currency';
import type { ClientSummary, FacadeCredentials, RefreshTokenUse, TenancyRepository } from '../../../ports/tenancy-repository';
import { CredentialCache } from '../credential-cache';
import { translatingDuplicates } from './driver-errors';
import { bool, fromMillis, fromMillisOrNull, toMillis, toMillisOrNull } from './rows/columns';

type Row = Record<string, unknown>;

export class KnexTenancyRepository implements TenancyRepository {
  constructor(
    private readonly db: Knex | Knex.Transaction,
    private readonly cache: CredentialCache = new CredentialCache(0),
  ) {}

  async countOrganizations(): Promise<number> {
    const [row] = await this.db('organizations').count<{ n: number }[]>({ n: '*' });
    return Number(row?.n ?? 0);
  }

  async findOrganizationByName(name: string): Promise<Organization | null> {
    const row = await this.db('organizations').where({ name }).first();
    return row ? toOrganization(row) : null;
  }

  async findOrganization(id: number): Promise<Organization | null> {
    const row = await this.db('organizations').where({ id }).first();
    return row ? toOrganization(row) : null;
  }

  async insertOrganization(name: string, createdAt: Date): Promise<Organization> {
    const row = { name, frozen_now: null, rate_limit_capacity: null, rate_limit_refill_per_second: null, created_at: toMillis(createdAt) };
    const [id] = await translatingDuplicates('Organization', () => this.db('organizations').insert(row));
    return toOrganization({ ...row, id });
  }

  async setFrozenNow(organizationId: number, frozenNow: Date | null): Promise<void> {
    this.cache.clear();
    await this.db('organizations').where({ id: organizationId }).update({ frozen_now: toMillisOrNull(frozenNow) });
  }

  async setRateLimit(organizationId: number, policy: RateLimitPolicy | null): Promise<void> {
    this.cache.clear();
    await this.db('organizations')
      .where({ id: organizationId })
      .update({ rate_limit_capacity: policy?.capacity ?? null, rate_limit_refill_per_second: policy?.refillPerSecond ?? null });
  }

  async listOrganizations(): Promise<Organization[]> {
    return (await this.db('organizations').select('*').orderBy('id')).map(toOrganization);
  }

  async findCompany(id: number): Promise<Company | null> {
    const row = await this.db('companies').where({ id }).first();
    return row ? toCompany(row) : null;
  }

  async findCompanyByCode(code: string): Promise<Company | null> {
    const row = await this.db('companies').where({ code }).first();
    return row ? toCompany(row) : null;
  }

  async insertCompany(company: Omit<Company, 'id'>): Promise<Company> {
    this.cache.clear();
    const row = {
      organization_id: company.organizationId,
      code: company.code,
      name: company.name,
      ...settingsRow(company),
    };
    const [id] = await translatingDuplicates('Company', () => this.db('companies').insert(row));
    return { ...company, id: id! };
  }

  async updateCompanySettings(companyId: number, settings: Partial<CompanySettings>): Promise<Company> {
    this.cache.clear();
    const patch = settingsRow(settings);
    if (Object.keys(patch).length > 0) await this.db('companies').where({ id: companyId }).update(patch);
    return toCompany(await this.db('companies').where({ id: companyId }).first());
  }

  async findClientUserByUsername(username: string): Promise<ClientUser | null> {
    const row = await this.db('client_users').where({ username }).first();
    return row ? toClientUser(row) : null;
  }

  async findClientUser(id: number): Promise<ClientUser | null> {
    const row = await this.db('client_users').where({ id }).first();
    return row ? toClientUser(row) : null;
  }

  async insertClientUser(user: Omit<ClientUser, 'id'>, companyIds: number[]): Promise<ClientUser> {
    this.cache.clear();
    const [id] = await translatingDuplicates('Client user', () =>
      this.db('client_users').insert({
        organization_id: user.organizationId,
        username: user.username,
        password_hash: user.passwordHash,
        disabled: user.disabled,
        created_at: toMillis(user.createdAt),
      }),
    );
    await this.db('client_user_companies').insert(companyIds.map((company_id) => ({ client_user_id: id, company_id })));
    return { ...user, id: id! };
  }

  async setClientUserDisabled(clientUserId: number, disabled: boolean): Promise<void> {
    this.cache.clear();
    await this.db('client_users').where({ id: clientUserId }).update({ disabled });
  }

  async listClients(): Promise<ClientSummary[]> {
    const [users, companies, keys] = await Promise.all([
      this.db('client_users as u')
        .join('organizations as o', 'o.id', 'u.organization_id')
        .select('u.id', 'u.username', 'u.disabled', 'o.id as organization_id', 'o.name as organization_name')
        .orderBy('u.id'),
      this.db('client_user_companies as cu').join('companies as c', 'c.id', 'cu.company_id').select('cu.client_user_id', 'c.code').orderBy('c.code'),
      this.db('api_keys').whereNull('revoked_at').select('client_user_id', 'kind', 'app_env', 'prefix', 'created_at').orderBy('id'),
    ]);
    return users.map((u: Row) => ({
      organizationId: Number(u.organization_id),
      organizationName: String(u.organization_name),
      clientUsername: String(u.username),
      disabled: bool(u.disabled),
      companies: companies.filter((c: Row) => c.client_user_id === u.id).map((c: Row) => String(c.code)),
      apiKeys: keys
        .filter((k: Row) => k.client_user_id === u.id)
        .map((k: Row) => ({
          kind: k.kind as ApiKeyKind,
          appEnv: k.app_env as AppEnv,
          prefix: String(k.prefix),
          createdAt: fromMillis(k.created_at as number),
        })),
    }));
  }

  async insertApiKey(key: ApiKeyRecord): Promise<void> {
    await this.db('api_keys').insert({
      organization_id: key.organizationId,
      client_user_id: key.clientUserId,
      kind: key.kind,
      app_env: key.appEnv,
      key_hash: key.keyHash,
      prefix: key.prefix,
      created_at: toMillis(key.createdAt),
      revoked_at: null,
    });
  }

  async revokeApiKeys(clientUserId: number, kind: ApiKeyKind | null, appEnv: AppEnv | null, at: Date): Promise<number> {
    this.cache.clear();
    const query = this.db('api_keys').where({ client_user_id: clientUserId }).whereNull('revoked_at');
    if (kind) query.where({ kind });
    if (appEnv) query.where({ app_env: appEnv });
    return query.update({ revoked_at: toMillis(at) });
  }

  async findApiKey(keyHash: string, kind: ApiKeyKind, appEnv: AppEnv): Promise<ApiKeyRecord | null> {
    const row = await this.db('api_keys').where({ key_hash: keyHash, kind, app_env: appEnv }).whereNull('revoked_at').first();
    return row ? toApiKey(row) : null;
  }

  findFacadeCredentials(keyHash: string, appEnv: AppEnv, clientUserId: number): Promise<FacadeCredentials | null> {
    return this.cache.get(`${appEnv}:${clientUserId}:${keyHash}`, () => this.loadFacadeCredentials(keyHash, appEnv, clientUserId));
  }

  private async loadFacadeCredentials(keyHash: string, appEnv: AppEnv, clientUserId: number): Promise<FacadeCredentials | null> {
    // One round trip per request: the key's organization, the token's user (same organization,
    // enabled) and each company the user may act for, one row per company.
    const rows: Row[] = await this.db('api_keys as k')
      .join('organizations as o', 'o.id', 'k.organization_id')
      .join('client_users as u', (on) => on.on('u.organization_id', '=', 'o.id').andOnVal('u.id', '=', clientUserId))
      .join('client_user_companies as cu', 'cu.client_user_id', 'u.id')
      .join('companies as c', 'c.id', 'cu.company_id')
      .where({ 'k.key_hash': keyHash, 'k.kind': 'facade', 'k.app_env': appEnv, 'u.disabled': false })
      .whereNull('k.revoked_at')
      .select(
        'o.id as o_id', 'o.name as o_name', 'o.frozen_now as o_frozen_now', 'o.created_at as o_created_at',
        'o.rate_limit_capacity as o_rate_limit_capacity', 'o.rate_limit_refill_per_second as o_rate_limit_refill_per_second',
        'u.id as u_id', 'u.username as u_username', 'u.created_at as u_created_at', 'k.prefix as k_prefix',
        'c.*',
      )
      .orderBy('c.id');
    const first = rows[0];
    if (!first) return null;
    return {
      organization: toOrganization({
        id: first.o_id,
        name: first.o_name,
        frozen_now: first.o_frozen_now,
        created_at: first.o_created_at,
        rate_limit_capacity: first.o_rate_limit_capacity,
        rate_limit_refill_per_second: first.o_rate_limit_refill_per_second,
      }),
      clientUser: {
        id: Number(first.u_id),
        organizationId: Number(first.o_id),
        username: String(first.u_username),
        passwordHash: '',
        disabled: false,
        createdAt: fromMillis(first.u_created_at as number),
      },
      companies: rows.map(toCompany),
      apiKeyPrefix: String(first.k_prefix),
    };
  }

  async startRefreshTokenFamily(clientUserId: number, at: Date): Promise<number> {
    const [id] = await this.db('refresh_token_families').insert({ client_user_id: clientUserId, created_at: toMillis(at), revoked_at: null });
    return Number(id);
  }

  async insertRefreshToken(clientUserId: number, tokenHash: string, expiresAt: Date, familyId: number): Promise<void> {
    await this.db('refresh_tokens').insert({
      client_user_id: clientUserId,
      token_hash: tokenHash,
      expires_at: toMillis(expiresAt),
      used_at: null,
      family_id: familyId,
    });
  }

  async consumeRefreshToken(tokenHash: string, organizationId: number, now: Date): Promise<RefreshTokenUse | null> {
    const row = await this.db('refresh_tokens as r')
      .join('client_users as u', 'u.id', 'r.client_user_id')
      .leftJoin('refresh_token_families as f', 'f.id', 'r.family_id')
      .where({ 'r.token_hash': tokenHash, 'u.organization_id': organizationId })
      .select('r.id', 'r.client_user_id', 'r.used_at', 'r.expires_at', 'r.family_id', 'f.revoked_at as family_revoked_at')
      .first();
    if (!row) return null;
    const clientUserId = Number(row.client_user_id);
    const familyOf = (value: unknown) => (value === null || value === undefined ? null : Number(value));
    if (row.used_at !== null) return { outcome: 'replayed', clientUserId, familyId: familyOf(row.family_id) };
    if (row.family_revoked_at !== null || Number(row.expires_at) <= now.getTime()) return null;
    const familyId = familyOf(row.family_id) ?? (await this.startRefreshTokenFamily(clientUserId, now));
    // The conditional update is the arbiter: of two concurrent refreshes only one changes the row.
    const changed = await this.db('refresh_tokens')
      .where({ id: row.id })
      .whereNull('used_at')
      .update({ used_at: toMillis(now), family_id: familyId });
    if (changed === 1) return { outcome: 'consumed', clientUserId, familyId };
    const winner = await this.db('refresh_tokens').where({ id: row.id }).first('family_id');
    return { outcome: 'replayed', clientUserId, familyId: familyOf(winner?.family_id) };
  }

  async revokeRefreshTokenFamily(familyId: number, at: Date): Promise<boolean> {
    return (await this.db('refresh_token_families').where({ id: familyId }).whereNull('revoked_at').update({ revoked_at: toMillis(at) })) === 1;
  }

  async revokeRefreshTokens(clientUserId: number, at: Date): Promise<void> {
    await this.db('refresh_token_families').where({ client_user_id: clientUserId }).whereNull('revoked_at').update({ revoked_at: toMillis(at) });
    await this.db('refresh_tokens').where({ client_user_id: clientUserId }).whereNull('used_at').update({ used_at: toMillis(at) });
  }

  async purgeRefreshTokens(before: Date): Promise<number> {
    const purged = await this.db('refresh_tokens').where('expires_at', '<', toMillis(before)).delete();
    // Families whose every token is gone (a family lives as long as its newest token); not one
    // just started, whose first token is being inserted.
    await this.db('refresh_token_families')
      .whereNotIn('id', (q) => q.select('family_id').from('refresh_tokens').whereNotNull('family_id'))
      .where('created_at', '<', toMillis(before) - REFRESH_TOKEN_FAMILY_PURGE_GRACE_MS)
      .delete();
    return purged;
  }
}

function settingsRow(settings: Partial<CompanySettings>): Row {
  const row: Row = {};
  if (settings.defaultCurrency !== undefined) row.default_currency = settings.defaultCurrency;
  if (settings.directDebitEnabled !== undefined) row.direct_debit_enabled = settings.directDebitEnabled;
  if (settings.directDebitModality !== undefined) row.direct_debit_modality = settings.directDebitModality;
  if (settings.privateLinks !== undefined) row.private_links = settings.privateLinks;
  if (settings.portalUrl !== undefined) row.portal_url = settings.portalUrl;
  return row;
}

function toOrganization(row: Row): Organization {
  return {
    id: Number(row.id),
    name: String(row.name),
    frozenNow: fromMillisOrNull(row.frozen_now as number | null),
    rateLimit:
      row.rate_limit_capacity === null || row.rate_limit_capacity === undefined
        ? null
        : { capacity: Number(row.rate_limit_capacity), refillPerSecond: Number(row.rate_limit_refill_per_second) },
    createdAt: fromMillis(row.created_at as number),
  };
}

function toCompany(row: Row): Company {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    code: String(row.code),
    name: String(row.name),
    defaultCurrency: (row.default_currency as Currency | null) ?? null,
    directDebitEnabled: bool(row.direct_debit_enabled),
    directDebitModality: bool(row.direct_debit_modality),
    privateLinks: bool(row.private_links),
    portalUrl: (row.portal_url as string | null) ?? null,
  };
}

function toClientUser(row: Row): ClientUser {
  return {
    id: Number(row.id),
    organizationId: Number(row.organization_id),
    username: String(row.username),
    passwordHash: String(row.password_hash),
    disabled: bool(row.disabled),
    createdAt: fromMillis(row.created_at as number),
  };
}

function toApiKey(row: Row): ApiKeyRecord {
  return {
    organizationId: Number(row.organization_id),
    clientUserId: Number(row.client_user_id),
    kind: row.kind as ApiKeyKind,
    appEnv: row.app_env as AppEnv,
    keyHash: String(row.key_hash),
    prefix: String(row.prefix),
    createdAt: fromMillis(row.created_at as number),
  };
}
