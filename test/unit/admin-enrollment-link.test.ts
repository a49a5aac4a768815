import { expect } from 'chai';
import { runAdminCommand } from '../../adapters/cli/admin-commands';
import { type Infrastructure, memoryInfrastructure } from '../../cmd/shared/infrastructure';
import { type Application, buildApplication } from '../../internal/application';

describe('admin CLI: enrollment-link (over memory infrastructure)', () => {
  let infra: Infrastructure;
  let app: Application;

  beforeEach(() => {
    infra = memoryInfrastructure();
    app = buildApplication(infra.ports);
  });
  afterEach(() => infra.close());

  const run = async (...argv: string[]) => {
    const result = await runAdminCommand(app, [...argv, '--json'], { operator: 'test-operator', portal: infra.paymentPortal });
    return { exitCode: result.exitCode, json: JSON.parse(result.stdout) };
  };

  it('prints a signed enrollment URL of the company\'s user that opens to the same grant', async () => {
    const created = await run('create-client', '--organization', 'Gym SA', '--username', 'gym', '--password', 'a-long-password', '--company', 'GYM-AR', '--direct-debit', '--default-currency', 'ARS');
    expect(created.exitCode).to.equal(0);
    const res = await run('enrollment-link', '--company', 'GYM-AR', '--external-client-id', 'socio-9', '--expires-in-hours', '48');
    expect(res.exitCode, JSON.stringify(res.json)).to.equal(0);
    expect(Object.keys(res.json).sort()).to.deep.equal(['companyCode', 'currency', 'expiresAt', 'externalClientId', 'url']);
    expect(res.json).to.deep.include({ companyCode: 'GYM-AR', externalClientId: 'socio-9', currency: 'ARS' });
    const token = String(res.json.url).replace(/^http:\/\/localhost:3000\/enroll\//, '');
    const grant = infra.paymentPortal.openEnrollment(token);
    expect(grant).to.deep.include({ companyCode: 'GYM-AR', externalClientId: 'socio-9', currency: 'ARS' });
    expect(grant!.expiresAt.toISOString()).to.equal(res.json.expiresAt);
    expect(grant!.expiresAt.getTime() - Date.now()).to.be.within(47.9 * 3600_000, 48 * 3600_000);
  });

  it('refuses a company without direct debit, an unknown company, and bad options', async () => {
    await run('create-client', '--organization', 'Plain', '--username', 'plain', '--password', 'a-long-password', '--company', 'PLAIN');
    expect((await run('enrollment-link', '--company', 'PLAIN', '--external-client-id', 'x')).json.error.code).to.equal('BUSINESS_RULE_VIOLATION');
    expect((await run('enrollment-link', '--company', 'NOPE', '--external-client-id', 'x')).json.error.code).to.equal('RESOURCE_NOT_FOUND');
    const usage = await run('enrollment-link', '--company', 'PLAIN');
    expect([usage.exitCode, usage.json.error.code]).to.deep.equal([2, 'USAGE']);
    expect((await run('enrollment-link', '--company', 'PLAIN', '--external-client-id', 'x', '--expires-in-hours', '-1')).json.error.code).to.equal('USAGE');
    expect((await run('enrollment-link', '--company', 'PLAIN', '--external-client-id', 'x', '--currency', 'EUR')).json.error.code).to.equal('INVALID_REQUEST');
  });
});
