import type { Knex } from 'knex';
import type { ApiKeyKind, ApiKeyRecord, AppEnv, ClientUser } from '../../../internal/tenancy/credentials';
import type { ClientSummary, CredentialRepository, FacadeCredentials } from '../../../ports/credential-repository';
import { CredentialCache } from '../credential-cache';
import { insertedIdOrConflict } from './shared-transaction';
import { toCompany, toOrganization } from './knex-tenancy-repository';
import { bool, fromMillis, toMillis } from './rows/columns';

type Row = Record<string, unknown>;

/** Client users and API keys; the facade credentials of a request come through the credential cache. */
export class KnexCredentialRepository implements CredentialRepository {
  constructor(
    private readonly db: Knex | Knex.Transaction,
    private readonly cache: CredentialCache = new CredentialCache(0),
  ) {}

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
    const id = await insertedIdOrConflict(this.db, 'Client user', 'client_users', {
      organization_id: user.organizationId,
      username: user.username,
      password_hash: user.passwordHash,
      disabled: user.disabled,
      created_at: toMillis(user.createdAt),
    });
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
