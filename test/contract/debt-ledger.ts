import type { Knex } from 'knex';
import type { DebtFilter } from '../../ports/debt-repository';
import type { Repositories } from '../../ports/unit-of-work';
import { newContact, newDebt, newTenant, type TenantFixture } from './fixtures';

/** A list of the ledger's debts: its filter, and what its first page of two and its total must be. */
export interface LedgerList {
  filter: DebtFilter;
  newestTwo: string[];
  total: number;
}

/**
 * A company of its own whose debts two debtors share in turn, one in three in one batch and one in
 * ten CANCELLED, inserted as rows (a repository insert each would take minutes): the pages of one
 * debtor's and of the batch's debts, which the plan tests read. The caller analyzes the table.
 */
export async function seedDebtLedger(db: Knex, repos: Repositories, count = 1200): Promise<{ tenant: TenantFixture; debtor: LedgerList; batch: LedgerList }> {
  const tenant = await newTenant(repos);
  const debtors = [await repos.contacts.insert(newContact(tenant.organization.id)), await repos.contacts.insert(newContact(tenant.organization.id))];
  const batchId = `bat_ledger${tenant.company.id}`;
  const template = await repos.debts.insert(newDebt({ ...tenant, contact: debtors[1]! }));
  const { id: _id, ...row } = (await db('debts').where({ id: template.id }).first()) as Record<string, unknown>;
  const rows = Array.from({ length: count }, (_, i) => ({
    ...row,
    external_request_id: `ledger-${i}`,
    contact_id: debtors[i % 2]!.id,
    batch_id: i % 3 === 0 ? batchId : null,
    status: i % 10 === 1 || i % 10 === 6 ? 'CANCELLED' : 'PENDING',
  }));
  await db.batchInsert('debts', rows, 500);
  const listed = (matches: (r: (typeof rows)[number]) => boolean) => {
    const keys = rows.filter((r) => matches(r) && r.status !== 'CANCELLED').map((r) => r.external_request_id);
    return { newestTwo: keys.slice(-2).reverse(), total: keys.length };
  };
  const today = '2026-01-01';
  return {
    tenant,
    debtor: { filter: { today, debtor: { organizationId: tenant.organization.id, externalClientId: debtors[0]!.externalClientId } }, ...listed((r) => r.contact_id === debtors[0]!.id) },
    batch: { filter: { today, batchId }, ...listed((r) => r.batch_id === batchId) },
  };
}
