import { expect } from 'chai';
import type { Knex } from 'knex';
import { KnexPaymentInstructionRepository } from '../../adapters/persistence/knex/knex-payment-instruction-repository';
import type { NewPaymentInstruction } from '../../ports/payment-instruction-repository';
import type { Repositories } from '../../ports/unit-of-work';
import { openMariaDbPlanStore, type PlanStore } from '../support/mariadb-plans';
import { newContact, newDebt, newTenant, T1, T2, type TenantFixture, uid } from './fixtures';

/**
 * A locking read on InnoDB locks every row it reads, matching or not, so it must read along an
 * index that holds only the rows it means to lock, whatever the planner prefers. Read along the
 * primary key (which gives ORDER BY id without a sort), cancelling one debt's PENDING
 * instructions waited for another debt's instruction that a payment held, and two payments of
 * different debts, each holding its own instruction, deadlocked: the reliability suite's
 * notifications delivered twice at once answered 500 once the unit of work's retries ran out.
 * MariaDB took the primary key for a table of two instructions, and under many concurrent payments
 * for one of 80 (179 of 204 EXPLAINs in such a run).
 */
describe('MariaDB locking reads', function () {
  let store: PlanStore | null = null;
  let db: Knex;
  let repos: Repositories;
  let tenant: TenantFixture;

  before(async function () {
    store = await openMariaDbPlanStore(this);
    ({ db, repos } = store);
    tenant = await newTenant(repos);
  });

  after(async () => {
    await store?.close();
  });

  function instruction(debtId: number): NewPaymentInstruction {
    const account = `646${uid()}${uid()}`.slice(0, 27);
    return {
      organizationId: tenant.organization.id, companyId: tenant.company.id, debtId, code: `I${uid()}${uid()}`, method: 'TRANSFER', status: 'PENDING',
      amountCents: 10_050, amountReceivedCents: 0, amountAppliedCents: 0, currency: 'MXN', reference: '1234567', provider: 'sandbox', providerReference: account,
      transfer: { accountType: 'CLABE', accountNumber: account, bankName: 'STP (sandbox)', beneficiary: 'Acme' }, cash: null, expiresAt: T2, createdAt: T1,
      paidAt: null, updatedAt: T1,
    };
  }

  it("a payment cancelling its debt's other PENDING instructions does not wait for another debt's that a payment holds", async () => {
    // Two instructions in the table, as on a young installation: a payment of one debt holds its
    // instruction; a payment of the other marks its own PAID, then cancels what else of its debt
    // is PENDING (receive-provider-notification.ts, apply-debt-payment.ts). Read along the primary
    // key, which MariaDB's planner took here, the second waited for the first's row.
    const contact = await repos.contacts.insert(newContact(tenant.organization.id));
    const debt = async () => (await repos.debts.insert(newDebt({ ...tenant, contact }))).id;
    const held = await repos.paymentInstructions.insert(instruction(await debt()));
    const ownDebt = await debt();
    const own = await repos.paymentInstructions.insert(instruction(ownDebt));
    const holder = await db.transaction();
    const payer = await db.transaction();
    try {
      await holder('payment_instructions').where({ id: held.id }).forUpdate().select('id');
      // Waiting fails in a second instead of InnoDB's 50.
      await payer.raw('SET SESSION innodb_lock_wait_timeout = 1');
      const instructions = new KnexPaymentInstructionRepository(payer);
      await instructions.update(own.id, { status: 'PAID', amountReceivedCents: own.amountCents, paidAt: T2, updatedAt: T2 });
      expect(await instructions.cancelPendingOfDebts([ownDebt], T2)).to.deep.equal([]);
    } finally {
      await payer.raw('SET SESSION innodb_lock_wait_timeout = DEFAULT').catch(() => undefined);
      await payer.rollback();
      await holder.rollback();
    }
  });
});
