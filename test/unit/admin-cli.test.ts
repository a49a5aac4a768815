import { expect } from 'chai';
import { runAdminCommand } from '../../adapters/cli/admin-commands';
import { FixedClock } from '../../adapters/clock/fixed-clock';
import { type Infrastructure, memoryInfrastructure } from '../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../internal/application';
import { companyCodeFromName } from '../../internal/tenancy/company';

interface Created {
  organizationId: number;
  clientUsername: string;
  apiKey: string;
  loginApiKey: string;
  companies: { companyCode: string }[];
}

describe('admin CLI (runAdminCommand over memory infrastructure)', () => {
  let infra: Infrastructure;
  let app: Application;

  beforeEach(() => {
    infra = memoryInfrastructure();
    app = buildApplication(infra.ports);
  });
  afterEach(async () => {
    await infra.close();
  });

  /** Runs with --json and parses stdout, which must be exactly one JSON object. */
  async function run(...argv: string[]): Promise<{ exitCode: number; json: any; stdout: string }> {
    const result = await runAdminCommand(app, [...argv, '--json']);
    const json = JSON.parse(result.stdout);
    expect(json, result.stdout).to.be.an('object').and.not.an('array');
    return { exitCode: result.exitCode, json, stdout: result.stdout };
  }

  async function createClient(...extra: string[]): Promise<Created & { password: string }> {
    const password = 'a-long-password';
    const res = await run('create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', password, ...extra);
    expect(res.exitCode, res.stdout).to.equal(0);
    return { ...res.json, password };
  }

  const company = (code: string) => infra.ports.repos.tenancy.findCompanyByCode(code);
  const liveKey = (key: string, kind: 'facade' | 'login') =>
    infra.ports.repos.credentials.findApiKey(infra.ports.secrets.digest(key), kind, 'development');
  const login = (loginApiKey: string, clientUsername: string, password: string) =>
    app.commands.login.execute({ loginApiKey, clientUsername, password });

  describe('create-client', () => {
    it('prints exactly one JSON object with the credentials', async () => {
      const result = await runAdminCommand(app, [
        'create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', 'a-long-password', '--json',
      ]);
      expect(result.exitCode).to.equal(0);
      expect(result.stdout.trim().split('\n')).to.have.length(1);
      const json = JSON.parse(result.stdout);
      expect(json).to.have.keys('organizationId', 'clientUsername', 'apiKey', 'loginApiKey', 'companies');
      expect(json.organizationId).to.be.a('number');
      expect(json.clientUsername).to.equal('acme');
      expect(json.apiKey).to.match(/^ck_dev_[A-Za-z0-9]{40}$/);
      expect(json.loginApiKey).to.match(/^lk_dev_[A-Za-z0-9]{40}$/);
      expect(json.companies).to.deep.equal([{ companyCode: 'ACME-COBRANZAS' }]);
    });

    it('names the single default company after the organization', async () => {
      const created = await createClient();
      const code = created.companies[0]!.companyCode;
      expect(code).to.equal(companyCodeFromName('Acme Cobranzas'));
      const stored = await company(code);
      expect(stored).to.include({ name: 'Acme Cobranzas', organizationId: created.organizationId });
    });

    it('creates one company per --company flag', async () => {
      const created = await createClient('--company', 'NORTE', '--company', 'SUR');
      expect(created.companies).to.deep.equal([{ companyCode: 'NORTE' }, { companyCode: 'SUR' }]);
      expect(await company('NORTE')).to.include({ organizationId: created.organizationId });
      expect(await company('SUR')).to.include({ organizationId: created.organizationId });
      expect(await company(companyCodeFromName('Acme Cobranzas'))).to.equal(null);
    });

    it('issues keys that log in and that the repository holds only as hashes', async () => {
      const created = await createClient();
      const session = await login(created.loginApiKey, 'acme', created.password);
      expect(session.expiresIn).to.equal(14400);
      const facade = await liveKey(created.apiKey, 'facade');
      expect(facade).to.include({ organizationId: created.organizationId, kind: 'facade', appEnv: 'development' });
      expect(facade!.keyHash).to.not.equal(created.apiKey);
      expect(JSON.stringify(facade)).to.not.include(created.apiKey);
    });

    it('leaves every setting off without flags', async () => {
      const created = await createClient();
      expect(await company(created.companies[0]!.companyCode)).to.include({
        defaultCurrency: null,
        directDebitEnabled: false,
        directDebitModality: false,
        privateLinks: false,
      });
    });

    it('sets every created company from the flags', async () => {
      await createClient(
        '--company', 'NORTE', '--company', 'SUR', '--default-currency', 'COP',
        '--direct-debit', '--direct-debit-modality', '--private-links',
      );
      for (const code of ['NORTE', 'SUR']) {
        expect(await company(code), code).to.include({
          defaultCurrency: 'COP',
          directDebitEnabled: true,
          directDebitModality: true,
          privateLinks: true,
        });
      }
    });

    it('refuses a currency outside the list with INVALID_REQUEST and creates nothing', async () => {
      const res = await run('create-client', '--organization', 'Acme', '--username', 'acme', '--password', 'a-long-password', '--default-currency', 'EUR');
      expect(res.exitCode).to.equal(1);
      expect(res.json.error.code).to.equal('INVALID_REQUEST');
      expect(await infra.ports.repos.credentials.findClientUserByUsername('acme')).to.equal(null);
    });

    it('adds a user to an existing organization by name', async () => {
      const first = await createClient();
      const second = await run('create-client', '--organization', 'Acme Cobranzas', '--username', 'acme2', '--password', 'another-password');
      expect(second.exitCode).to.equal(0);
      expect(second.json.organizationId).to.equal(first.organizationId);
      expect(second.json.companies).to.deep.equal(first.companies);
    });

    it('refuses a taken username with exit 1 and RESOURCE_CONFLICT', async () => {
      await createClient();
      const res = await run('create-client', '--organization', 'Other Org', '--username', 'acme', '--password', 'a-long-password');
      expect(res.exitCode).to.equal(1);
      expect(res.json).to.have.keys('error');
      expect(res.json.error.code).to.equal('RESOURCE_CONFLICT');
      expect(res.json.error.message).to.be.a('string');
    });

    it("refuses a company code of another organization with RESOURCE_CONFLICT", async () => {
      await createClient('--company', 'NORTE');
      const res = await run('create-client', '--organization', 'Other Org', '--username', 'other', '--password', 'a-long-password', '--company', 'NORTE');
      expect(res.exitCode).to.equal(1);
      expect(res.json.error.code).to.equal('RESOURCE_CONFLICT');
      expect(await infra.ports.repos.credentials.findClientUserByUsername('other')).to.equal(null);
    });

    it('refuses a missing --password with exit 2 (usage)', async () => {
      const res = await run('create-client', '--organization', 'Acme', '--username', 'acme');
      expect(res.exitCode).to.equal(2);
      expect(res.json.error.code).to.equal('USAGE');
      expect(res.json.error.message).to.include('--password');
      expect(await infra.ports.repos.credentials.findClientUserByUsername('acme')).to.equal(null);
    });

    it('refuses an unknown flag with exit 2', async () => {
      const res = await run('create-client', '--organization', 'Acme', '--username', 'acme', '--password', 'a-long-password', '--bogus');
      expect(res.exitCode).to.equal(2);
      expect(res.json.error.code).to.equal('USAGE');
    });

    it('refuses a short password and a bad username with INVALID_REQUEST', async () => {
      const short = await run('create-client', '--organization', 'Acme', '--username', 'acme', '--password', 'short');
      expect(short.exitCode).to.equal(1);
      expect(short.json.error.code).to.equal('INVALID_REQUEST');
      const badName = await run('create-client', '--organization', 'Acme', '--username', 'a b', '--password', 'a-long-password');
      expect(badName.exitCode).to.equal(1);
      expect(badName.json.error.code).to.equal('INVALID_REQUEST');
    });

    it('prints usage text without --json', async () => {
      const result = await runAdminCommand(app, ['create-client', '--organization', 'Acme']);
      expect(result.exitCode).to.equal(2);
      expect(result.stdout).to.match(/^error: /).and.include('Usage:');
    });
  });

  describe('update-company', () => {
    it('switches settings on and off and leaves the others', async () => {
      await createClient('--company', 'NORTE', '--private-links');
      const on = await run('update-company', '--company', 'NORTE', '--direct-debit', 'on', '--direct-debit-modality', 'on');
      expect(on.exitCode, on.stdout).to.equal(0);
      expect(on.json).to.include({ companyCode: 'NORTE', directDebitEnabled: true, directDebitModality: true, privateLinks: true });
      expect(await company('NORTE')).to.include({ directDebitEnabled: true, directDebitModality: true, privateLinks: true });

      const off = await run('update-company', '--company', 'NORTE', '--private-links', 'off', '--direct-debit', 'off');
      expect(off.exitCode).to.equal(0);
      expect(await company('NORTE')).to.include({ directDebitEnabled: false, directDebitModality: true, privateLinks: false });
    });

    it('sets the default currency', async () => {
      await createClient('--company', 'NORTE', '--default-currency', 'MXN');
      const res = await run('update-company', '--company', 'NORTE', '--default-currency', 'USD');
      expect(res.exitCode).to.equal(0);
      expect(res.json.defaultCurrency).to.equal('USD');
      expect(await company('NORTE')).to.include({ defaultCurrency: 'USD' });
    });

    it('refuses an invalid currency with INVALID_REQUEST and changes nothing', async () => {
      await createClient('--company', 'NORTE', '--default-currency', 'MXN');
      for (const currency of ['EUR', 'usd', '']) {
        const res = await run('update-company', '--company', 'NORTE', '--default-currency', currency);
        expect(res.exitCode, currency).to.equal(1);
        expect(res.json.error.code, currency).to.equal('INVALID_REQUEST');
      }
      expect(await company('NORTE')).to.include({ defaultCurrency: 'MXN' });
    });

    it('refuses a switch value other than on or off with exit 2', async () => {
      await createClient('--company', 'NORTE');
      const res = await run('update-company', '--company', 'NORTE', '--direct-debit', 'yes');
      expect(res.exitCode).to.equal(2);
      expect(res.json.error.code).to.equal('USAGE');
      expect(await company('NORTE')).to.include({ directDebitEnabled: false });
    });

    it('answers RESOURCE_NOT_FOUND for an unknown company', async () => {
      const res = await run('update-company', '--company', 'NOPE', '--direct-debit', 'on');
      expect(res.exitCode).to.equal(1);
      expect(res.json.error.code).to.equal('RESOURCE_NOT_FOUND');
    });

    it('needs --company', async () => {
      const res = await run('update-company', '--direct-debit', 'on');
      expect(res.exitCode).to.equal(2);
      expect(res.json.error.code).to.equal('USAGE');
    });
  });

  describe('list-clients', () => {
    it('lists clients with their organization, companies and key prefixes, without secrets', async () => {
      const created = await createClient('--company', 'NORTE', '--company', 'SUR');
      const res = await run('list-clients');
      expect(res.exitCode).to.equal(0);
      expect(res.json.clients).to.have.length(1);
      const [client] = res.json.clients;
      expect(client).to.include({ organizationId: created.organizationId, organizationName: 'Acme Cobranzas', clientUsername: 'acme', disabled: false });
      expect(client.companies).to.deep.equal(['NORTE', 'SUR']);
      expect(client.apiKeys.map((k: { kind: string }) => k.kind)).to.have.members(['facade', 'login']);
      for (const key of client.apiKeys) {
        const full = key.kind === 'facade' ? created.apiKey : created.loginApiKey;
        expect(full.startsWith(key.prefix)).to.equal(true);
        expect(key.prefix.length).to.be.below(full.length - 20);
      }
      expect(res.stdout).to.not.include(created.apiKey);
      expect(res.stdout).to.not.include(created.loginApiKey);
      expect(res.stdout).to.not.include(created.password);
      expect(res.stdout).to.not.match(/scrypt\$|keyHash|passwordHash/);
    });

    it('answers an empty list on an empty database', async () => {
      const res = await run('list-clients');
      expect(res.exitCode).to.equal(0);
      expect(res.json).to.deep.equal({ clients: [] });
    });
  });

  describe('rotate-api-key', () => {
    it('issues a new facade key and revokes the old one', async () => {
      const created = await createClient();
      const res = await run('rotate-api-key', '--username', 'acme');
      expect(res.exitCode).to.equal(0);
      expect(res.json).to.include({ clientUsername: 'acme', kind: 'facade' });
      expect(res.json.apiKey).to.match(/^ck_dev_[A-Za-z0-9]{40}$/).and.not.equal(created.apiKey);
      expect(await liveKey(created.apiKey, 'facade')).to.equal(null);
      expect(await liveKey(res.json.apiKey, 'facade')).to.include({ organizationId: created.organizationId });
      expect(await liveKey(created.loginApiKey, 'login'), 'the login key is untouched').to.not.equal(null);
    });

    it('rotates the login key with --kind login', async () => {
      const created = await createClient();
      const res = await run('rotate-api-key', '--username', 'acme', '--kind', 'login');
      expect(res.exitCode).to.equal(0);
      expect(res.json.apiKey).to.match(/^lk_dev_/);
      await login(res.json.apiKey, 'acme', created.password);
      let failure: unknown;
      await login(created.loginApiKey, 'acme', created.password).catch((e: unknown) => (failure = e));
      expect(failure).to.have.property('code', 'AUTHENTICATION_FAILED');
    });

    it('refuses an unknown kind with exit 2 and an unknown user with RESOURCE_NOT_FOUND', async () => {
      await createClient();
      const kind = await run('rotate-api-key', '--username', 'acme', '--kind', 'admin');
      expect(kind.exitCode).to.equal(2);
      expect(kind.json.error.code).to.equal('USAGE');
      const user = await run('rotate-api-key', '--username', 'nobody');
      expect(user.exitCode).to.equal(1);
      expect(user.json.error.code).to.equal('RESOURCE_NOT_FOUND');
    });
  });

  describe('disable-client', () => {
    it('disables the user and revokes its keys', async () => {
      const created = await createClient();
      const res = await run('disable-client', '--username', 'acme');
      expect(res.exitCode).to.equal(0);
      expect(res.json).to.deep.equal({ clientUsername: 'acme', disabled: true, revokedApiKeys: 2 });
      expect(await liveKey(created.apiKey, 'facade')).to.equal(null);
      let failure: unknown;
      await login(created.loginApiKey, 'acme', created.password).catch((e: unknown) => (failure = e));
      expect(failure).to.have.property('code', 'AUTHENTICATION_FAILED');
      const list = await run('list-clients');
      expect(list.json.clients[0]).to.include({ clientUsername: 'acme', disabled: true });
      expect(list.json.clients[0].apiKeys).to.deep.equal([]);
    });

    it('answers RESOURCE_NOT_FOUND for an unknown user', async () => {
      const res = await run('disable-client', '--username', 'nobody');
      expect(res.exitCode).to.equal(1);
      expect(res.json.error.code).to.equal('RESOURCE_NOT_FOUND');
    });
  });

  describe('set-rate-limit', () => {
    it('sets the organization limit by name or id, prints it, and --default clears it', async () => {
      const created = await createClient();
      const byName = await run('set-rate-limit', '--organization', 'Acme Cobranzas', '--capacity', '50', '--refill-per-second', '2.5');
      expect(byName.exitCode, byName.stdout).to.equal(0);
      expect(byName.json).to.deep.equal({ organizationId: created.organizationId, organizationName: 'Acme Cobranzas', rateLimit: { capacity: 50, refillPerSecond: 2.5 } });
      expect((await infra.ports.repos.tenancy.findOrganization(created.organizationId))!.rateLimit).to.deep.equal({ capacity: 50, refillPerSecond: 2.5 });

      const byId = await run('set-rate-limit', '--organization', String(created.organizationId), '--default');
      expect(byId.json).to.deep.equal({ organizationId: created.organizationId, organizationName: 'Acme Cobranzas', rateLimit: null });
      expect((await infra.ports.repos.tenancy.findOrganization(created.organizationId))!.rateLimit).to.equal(null);
    });

    it('refuses a capacity or refill rate the bucket cannot work with, naming the flag, and changes nothing', async () => {
      const created = await createClient();
      for (const [capacity, rate, field] of [['0', '1', 'capacity'], ['2.5', '1', 'capacity'], ['10', '0', 'refill-per-second'], ['10', 'fast', 'refill-per-second'], ['many', '1', 'capacity']]) {
        const res = await run('set-rate-limit', '--organization', 'Acme Cobranzas', '--capacity', capacity!, '--refill-per-second', rate!);
        expect(res.exitCode, res.stdout).to.equal(1);
        expect(res.json.error.code).to.equal('INVALID_REQUEST');
        expect(res.json.error.message).to.include(field);
      }
      expect((await infra.ports.repos.tenancy.findOrganization(created.organizationId))!.rateLimit).to.equal(null);
    });

    it('answers usage errors with exit 2 and an unknown organization with RESOURCE_NOT_FOUND', async () => {
      await createClient();
      for (const args of [['--capacity', '5', '--refill-per-second', '1'], ['--organization', 'Acme Cobranzas', '--capacity', '5'], ['--organization', 'Acme Cobranzas', '--default', '--capacity', '5']]) {
        const res = await run('set-rate-limit', ...args);
        expect(res.exitCode, args.join(' ')).to.equal(2);
        expect(res.json.error.code).to.equal('USAGE');
      }
      const unknown = await run('set-rate-limit', '--organization', 'Nobody', '--default');
      expect(unknown.exitCode).to.equal(1);
      expect(unknown.json.error.code).to.equal('RESOURCE_NOT_FOUND');
    });
  });

  describe('audit-log', () => {
    /** Runs as a named operator, like `ADMIN_OPERATOR=<name> npm run admin -- ...`. */
    async function runAs(operator: string, ...argv: string[]) {
      const result = await runAdminCommand(app, [...argv, '--json'], { operator });
      expect(result.exitCode, result.stdout).to.equal(0);
      return JSON.parse(result.stdout);
    }

    /** A client request's scope, as the HTTP adapter resolves it. */
    async function requestScope(created: Created & { password: string }, requestId: string) {
      const session = await login(created.loginApiKey, created.clientUsername, created.password);
      return app.commands.authenticateRequest.execute({ apiKey: created.apiKey, accessToken: session.accessToken, companyCode: undefined, requestId });
    }

    it('lists operator actions, client changes and the sandbox clock, newest first, each with who and when', async () => {
      const clock = new FixedClock(new Date('2026-05-01T12:00:00.000Z'));
      infra = memoryInfrastructure({ clock });
      app = buildApplication(infra.ports);
      const tick = () => clock.advance(60_000);
      const created = await runAs('alice@ops', 'create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', 'a-long-password');
      const client = { ...created, password: 'a-long-password' };
      tick();
      await runAs('bob@ops', 'update-company', '--company', 'ACME-COBRANZAS', '--private-links', 'on');
      tick();
      const scope = await requestScope(client, 'req_auth');
      const { debt } = await app.commands.createDebt.execute(
        { debtor: { contactData: { externalClientId: 'ext-1', name: 'Ana', email: 'ana@example.com' } }, product: null, amountCents: 10_000, dueDate: '2026-06-01', evaluateAutopay: false },
        'order-1',
        { ...scope, requestId: 'req_debt1' },
      );
      tick();
      await app.commands.setOrganizationClock.execute(new Date('2030-01-01T00:00:00.000Z'), { ...scope, requestId: 'req_clock1' });
      tick();
      const rotated = await runAs('alice@ops', 'rotate-api-key', '--username', 'acme');
      tick();
      await runAs('alice@ops', 'set-rate-limit', '--organization', 'Acme Cobranzas', '--capacity', '10', '--refill-per-second', '1');
      tick();
      await runAs('carol@ops', 'disable-client', '--username', 'acme');

      const log = await runAs('dave@ops', 'audit-log', '--organization', 'Acme Cobranzas');
      expect(log).to.include({ organizationId: created.organizationId, organizationName: 'Acme Cobranzas' });
      const lines = log.records.map((r: any) => [r.at, r.source, r.action, r.resourceType, r.resourceId, r.actor.type === 'client' ? `${r.actor.clientUsername} ${r.actor.apiKeyPrefix}` : r.actor.name, r.requestId]);
      const prefix = created.apiKey.slice(0, 12);
      const contactId = log.records.find((r: any) => r.action === 'contact.created')?.resourceId;
      expect(contactId).to.match(/^con_[A-Za-z0-9]+$/);
      expect(lines).to.deep.equal([
        ['2026-05-01T12:06:00.000Z', 'audit', 'client.disabled', 'client', 'acme', 'carol@ops', null],
        ['2026-05-01T12:05:00.000Z', 'audit', 'rate_limit.set', 'organization', String(created.organizationId), 'alice@ops', null],
        ['2026-05-01T12:04:00.000Z', 'audit', 'api_key.rotated', 'api_key', 'acme', 'alice@ops', null],
        ['2026-05-01T12:03:00.000Z', 'audit', 'sandbox_clock.frozen', 'organization', String(created.organizationId), `acme ${prefix}`, 'req_clock1'],
        ['2026-05-01T12:02:00.000Z', 'event', 'debt.created', 'debt', `debt_${debt.externalRequestId}`, `acme ${prefix}`, 'req_debt1'],
        // The debt's inline contact, created in the same request just before it.
        ['2026-05-01T12:02:00.000Z', 'event', 'contact.created', 'contact', contactId, `acme ${prefix}`, 'req_debt1'],
        ['2026-05-01T12:01:00.000Z', 'audit', 'company.updated', 'company', 'ACME-COBRANZAS', 'bob@ops', null],
        ['2026-05-01T12:00:00.000Z', 'audit', 'client.created', 'client', 'acme', 'alice@ops', null],
      ]);
      const byAction = (action: string) => log.records.find((r: any) => r.action === action);
      expect(byAction('client.created').details).to.deep.include({ organizationName: 'Acme Cobranzas', organizationCreated: true, companies: ['ACME-COBRANZAS'], apiKeyPrefix: prefix });
      expect(byAction('company.updated').details).to.deep.equal({ before: { privateLinks: false }, after: { privateLinks: true } });
      expect(byAction('api_key.rotated').details).to.deep.equal({ kind: 'facade', appEnv: 'development', revokedKeys: 1, newKeyPrefix: rotated.apiKey.slice(0, 12) });
      expect(byAction('rate_limit.set').details).to.deep.equal({ before: null, after: { capacity: 10, refillPerSecond: 1 } });
      expect(byAction('sandbox_clock.frozen').details).to.deep.equal({ frozenNow: '2030-01-01T00:00:00.000Z' });
      expect(byAction('client.disabled').details).to.deep.equal({ revokedApiKeys: 2, wasDisabled: false });
      expect(byAction('debt.created')).to.deep.include({ companyCode: 'ACME-COBRANZAS', details: null });
      expect(byAction('debt.created').eventId).to.match(/^evt_/);
      // No secret in any record: keys appear by prefix only.
      expect(JSON.stringify(log)).to.not.include(created.apiKey).and.not.include(created.loginApiKey).and.not.include(rotated.apiKey);
    });

    it('filters with --since (inclusive) and --resource, cuts with --limit, and reads the organization by id', async () => {
      const clock = new FixedClock(new Date('2026-05-01T12:00:00.000Z'));
      infra = memoryInfrastructure({ clock });
      app = buildApplication(infra.ports);
      const created = await runAs('alice@ops', 'create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', 'a-long-password', '--company', 'NORTE', '--company', 'SUR');
      clock.advance(1000);
      await runAs('alice@ops', 'update-company', '--company', 'NORTE', '--private-links', 'on');
      clock.advance(1000);
      await runAs('alice@ops', 'update-company', '--company', 'SUR', '--private-links', 'on');
      const actions = (log: any) => log.records.map((r: any) => `${r.action} ${r.resourceId}`);
      const org = String(created.organizationId);
      expect(actions(await runAs('x', 'audit-log', '--organization', org, '--since', '2026-05-01T12:00:01Z'))).to.deep.equal(['company.updated SUR', 'company.updated NORTE']);
      expect(actions(await runAs('x', 'audit-log', '--organization', org, '--since', '2026-05-01T09:00:01.5-03:00'))).to.deep.equal(['company.updated SUR']);
      expect(actions(await runAs('x', 'audit-log', '--organization', org, '--resource', 'NORTE'))).to.deep.equal(['company.updated NORTE']);
      expect(actions(await runAs('x', 'audit-log', '--organization', org, '--limit', '1'))).to.deep.equal(['company.updated SUR']);
      expect(actions(await runAs('x', 'audit-log', '--organization', org, '--resource', 'nothing'))).to.deep.equal([]);
    });

    it('refuses a bad --since or --limit with INVALID_REQUEST, a missing --organization with exit 2, an unknown one with RESOURCE_NOT_FOUND', async () => {
      await createClient();
      for (const [flag, value] of [['--since', '2026-05-01'], ['--since', 'yesterday'], ['--since', '2026-13-45T00:00:00Z'], ['--limit', '0'], ['--limit', '1001'], ['--limit', 'ten']]) {
        const res = await run('audit-log', '--organization', 'Acme Cobranzas', flag!, value!);
        expect(res.exitCode, `${flag} ${value}`).to.equal(1);
        expect(res.json.error.code).to.equal('INVALID_REQUEST');
        expect(res.json.error.message).to.include(flag!.slice(2));
      }
      expect((await run('audit-log')).exitCode).to.equal(2);
      const unknown = await run('audit-log', '--organization', '424242');
      expect(unknown.exitCode).to.equal(1);
      expect(unknown.json.error.code).to.equal('RESOURCE_NOT_FOUND');
    });

    it('prints one line per record without --json: when, who, what, which resource', async () => {
      await runAdminCommand(app, ['create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', 'a-long-password'], { operator: 'alice@ops' });
      const result = await runAdminCommand(app, ['audit-log', '--organization', 'Acme Cobranzas'], { operator: 'alice@ops' });
      expect(result.exitCode).to.equal(0);
      const lines = result.stdout.trim().split('\n');
      expect(lines[0]).to.match(/^audit log of organization \d+ \(Acme Cobranzas\), newest first: 1 record\(s\)$/);
      expect(lines[1]).to.match(/^\d{4}-\d{2}-\d{2}T\S+Z {2}operator alice@ops {2}client\.created {2}client acme {2}- {2}\{.*"organizationCreated":true.*\}$/);
    });

    it('records the operator the CLI was given for every change it makes', async () => {
      await runAdminCommand(app, ['create-client', '--organization', 'Acme Cobranzas', '--username', 'acme', '--password', 'a-long-password'], { operator: 'root@bastion' });
      const log = await runAs('someone', 'audit-log', '--organization', 'Acme Cobranzas');
      expect(log.records[0].actor).to.deep.equal({ type: 'operator', name: 'root@bastion' });
    });
  });

  it('answers an unknown command with exit 2', async () => {
    const res = await run('drop-database');
    expect(res.exitCode).to.equal(2);
    expect(res.json.error.code).to.equal('USAGE');
  });
});
