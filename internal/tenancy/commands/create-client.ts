import type { IdGenerator } from '../../../ports/id-generator';
import type { PasswordHasher, SecretHasher } from '../../../ports/secret-hasher';
import type { Clock } from '../../../ports/clock';
import type { UnitOfWork } from '../../../ports/unit-of-work';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { type AuditActor, SYSTEM_ACTOR } from '../../audit/audit-entry';
import { ConflictError, InvalidRequestError } from '../../shared/errors';
import { requireDeps } from '../../shared/use-case-deps';
import { type Company, companyCodeFromName, type CompanySettings, isCompanyCode } from '../company';
import { type AppEnv } from '../credentials';
import { issueApiKey, keyPrefixOf } from './issue-api-key';

export interface CreateClientInput {
  organization: string;
  username: string;
  password: string;
  /** Company codes; none means one company named after the organization. */
  companies: string[];
  settings: Partial<CompanySettings>;
}

export interface CreatedClient {
  organizationId: number;
  clientUsername: string;
  apiKey: string;
  loginApiKey: string;
  companies: { companyCode: string }[];
}

export interface CreateClientDeps {
  uow: UnitOfWork;
  clock: Clock;
  ids: IdGenerator;
  secrets: SecretHasher;
  passwords: PasswordHasher;
  appEnv: AppEnv;
}

/**
 * Operator command `create-client`: the organization (when the name is new), its companies, a
 * client user and the facade and login keys of this environment, all in one transaction.
 */
export class CreateClient {
  constructor(private readonly deps: CreateClientDeps) {
    requireDeps('CreateClient', deps);
  }

  async execute(input: CreateClientInput, actor: AuditActor = SYSTEM_ACTOR): Promise<CreatedClient> {
    const organizationName = input.organization.trim();
    if (!organizationName) throw InvalidRequestError.field('organization', 'must not be empty');
    if (!/^[A-Za-z0-9._@-]{3,64}$/.test(input.username)) {
      throw InvalidRequestError.field('username', 'must be 3 to 64 letters, digits or . _ @ -');
    }
    if (input.password.length < 8) throw InvalidRequestError.field('password', 'must have at least 8 characters');
    for (const code of input.companies) {
      if (!isCompanyCode(code)) throw InvalidRequestError.field('company', `invalid company code ${code}`);
    }
    const passwordHash = await this.deps.passwords.hash(input.password);
    const now = this.deps.clock.now();

    return this.deps.uow.run(async ({ tenancy, credentials, audit }) => {
      const existing = await tenancy.findOrganizationByName(organizationName);
      const organization = existing ?? (await tenancy.insertOrganization(organizationName, now));
      const companies: Company[] = [];
      for (const code of new Set(input.companies)) {
        companies.push(await this.companyFor(tenancy, organization.id, code, code, input.settings));
      }
      if (companies.length === 0) {
        companies.push(await this.defaultCompany(tenancy, organization.id, organizationName, input.settings));
      }
      if (await credentials.findClientUserByUsername(input.username)) {
        throw new ConflictError(`The username ${input.username} is taken`);
      }
      const user = await credentials.insertClientUser(
        { organizationId: organization.id, username: input.username, passwordHash, disabled: false, createdAt: now },
        companies.map((c) => c.id),
      );
      const keyDeps = { ...this.deps, credentials, now };
      const apiKey = await issueApiKey(keyDeps, user, 'facade');
      const loginApiKey = await issueApiKey(keyDeps, user, 'login');
      await audit.record({
        organizationId: organization.id,
        action: 'client.created',
        resourceType: 'client',
        resourceId: user.username,
        actor,
        details: {
          organizationName,
          organizationCreated: existing === null,
          companies: companies.map((c) => c.code),
          settings: input.settings,
          apiKeyPrefix: keyPrefixOf(apiKey),
          loginApiKeyPrefix: keyPrefixOf(loginApiKey),
        },
        at: now,
      });
      return {
        organizationId: organization.id,
        clientUsername: user.username,
        apiKey,
        loginApiKey,
        companies: companies.map((c) => ({ companyCode: c.code })),
      };
    });
  }

  private async companyFor(
    tenancy: TenancyRepository,
    organizationId: number,
    code: string,
    name: string,
    settings: Partial<CompanySettings>,
  ): Promise<Company> {
    const existing = await tenancy.findCompanyByCode(code);
    if (existing && existing.organizationId !== organizationId) {
      throw new ConflictError(`The company code ${code} belongs to another organization`);
    }
    return existing ?? tenancy.insertCompany({ organizationId, code, name, ...withDefaults(settings) });
  }

  private async defaultCompany(
    tenancy: TenancyRepository,
    organizationId: number,
    organizationName: string,
    settings: Partial<CompanySettings>,
  ): Promise<Company> {
    const base = companyCodeFromName(organizationName);
    const taken = await tenancy.findCompanyByCode(base);
    const code = taken && taken.organizationId !== organizationId ? `${base}-${this.deps.ids.alphanumeric(6).toUpperCase()}` : base;
    return this.companyFor(tenancy, organizationId, code, organizationName, settings);
  }
}

function withDefaults(settings: Partial<CompanySettings>): CompanySettings {
  return {
    defaultCurrency: settings.defaultCurrency ?? null,
    directDebitEnabled: settings.directDebitEnabled ?? false,
    directDebitModality: settings.directDebitModality ?? false,
    privateLinks: settings.privateLinks ?? false,
    portalUrl: settings.portalUrl ?? null,
  };
}
