/**
 * The audit log through the real API: what requests changed (from the event log) and the
 * sandbox clock (an audit entry) carry the request's id, client user and key prefix; operator
 * actions carry the operator. Read as an operator reads it, with the admin CLI.
 */
import { expect } from 'chai';
import { runAdminCommand } from '../../adapters/cli/admin-commands';
import { describeEachDatabase } from '../support/harness';
import { expectOk } from '../support/http-expect';

describeEachDatabase('audit log', ({ api }) => {
  async function auditLog(organizationId: number, ...flags: string[]) {
    const result = await runAdminCommand(api().app, ['audit-log', '--organization', String(organizationId), ...flags, '--json'], { operator: 'auditor@ops' });
    expect(result.exitCode, result.stdout).to.equal(0);
    return JSON.parse(result.stdout).records as Record<string, any>[];
  }

  it('names the request, client user and API key behind each change, and the operator behind each operator action', async () => {
    const tenant = await api().newTenant();
    const prefix = tenant.apiKey.slice(0, 12);
    const created = await api().http.post('/v2/debts').set(tenant.headers).set('Idempotency-Key', 'audit-1').send({
      contactData: { externalClientId: 'audited', name: 'Audited Debtor', email: 'audited@example.com' },
      amount: 10,
      dueDate: '2030-01-01',
    });
    const debt = expectOk(created, 201);
    const frozen = await api().http.put('/test-helpers/clock').set(tenant.headers).send({ now: '2030-06-01T00:00:00Z' });
    expectOk(frozen);
    const released = await api().http.delete('/test-helpers/clock').set(tenant.headers);
    expectOk(released);
    const operator = await runAdminCommand(api().app, ['set-rate-limit', '--organization', String(tenant.organizationId), '--capacity', '99', '--refill-per-second', '9'], { operator: 'alice@ops' });
    expect(operator.exitCode, operator.stdout).to.equal(0);

    const records = await auditLog(tenant.organizationId);
    const find = (action: string) => {
      const found = records.find((r) => r.action === action);
      expect(found, `${action} in ${JSON.stringify(records.map((r) => r.action))}`).to.not.equal(undefined);
      return found!;
    };
    const client = { type: 'client', clientUserId: find('debt.created').actor.clientUserId, clientUsername: tenant.clientUsername, apiKeyPrefix: prefix };
    expect(find('debt.created')).to.deep.include({ source: 'event', resourceType: 'debt', resourceId: debt.debtId, requestId: created.body.requestId, actor: client, companyCode: tenant.companyCodes[0] });
    expect(find('contact.created')).to.deep.include({ source: 'event', requestId: created.body.requestId, actor: client });
    expect(find('sandbox_clock.frozen')).to.deep.include({
      source: 'audit',
      resourceType: 'organization',
      resourceId: String(tenant.organizationId),
      requestId: frozen.body.requestId,
      actor: client,
      details: { frozenNow: '2030-06-01T00:00:00.000Z' },
    });
    expect(find('sandbox_clock.released')).to.deep.include({ requestId: released.body.requestId, actor: client, details: { frozenNow: null } });
    expect(find('rate_limit.set')).to.deep.include({ actor: { type: 'operator', name: 'alice@ops' }, requestId: null });
    // The sandbox clock dates audit entries in real time, not at the frozen instant.
    expect(Date.parse(find('sandbox_clock.released').at)).to.be.closeTo(Date.now(), 60_000);
    expect(records.map((r) => r.action).slice(0, 3)).to.deep.equal(['rate_limit.set', 'sandbox_clock.released', 'sandbox_clock.frozen']);
  });

  it('filters one resource of one organization: another tenant sees none of it', async () => {
    const tenant = await api().newTenant();
    const other = await api().newTenant();
    const created = await api().http.post('/v2/debts').set(tenant.headers).set('Idempotency-Key', 'audit-2').send({
      contactData: { externalClientId: 'audited-2', name: 'Audited Debtor', email: 'audited2@example.com' },
      amount: 10,
      dueDate: '2030-01-01',
    });
    const debt = expectOk(created, 201);
    expect((await auditLog(tenant.organizationId, '--resource', debt.debtId)).map((r) => r.action)).to.deep.equal(['debt.created']);
    expect(await auditLog(other.organizationId, '--resource', debt.debtId)).to.deep.equal([]);
  });
});
