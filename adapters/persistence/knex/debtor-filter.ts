import type { Knex } from 'knex';
import type { DebtorKey } from '../../../ports/contact-repository';
import type { ReadValues } from './compiled-reads';

/** A list's debtor filter (DebtorKey) as the flat values of a compiled read; both present or neither. */
export interface DebtorValues extends ReadValues {
  debtorOrganizationId?: number;
  debtorExternalClientId?: string;
}

export function debtorValues(debtor: DebtorKey | undefined): DebtorValues {
  return debtor === undefined ? {} : { debtorOrganizationId: debtor.organizationId, debtorExternalClientId: debtor.externalClientId };
}

/**
 * The id of the contact a debtor filter names, as a subquery of the list's own statement (`column
 * = (SELECT id …)`): one round trip for the page instead of a read of the contact first, and no
 * id (no match) when the organization has no such contact. The (organization_id,
 * external_client_id) key makes it one row at most, and the database compares the text as the
 * contact reads do (MariaDB's PAD SPACE collation ignores trailing spaces).
 */
export function debtorId(db: Knex | Knex.Transaction, v: DebtorValues): Knex.QueryBuilder {
  return db('contacts as debtor').select('debtor.id').where('debtor.organization_id', v.debtorOrganizationId!).where('debtor.external_client_id', v.debtorExternalClientId!);
}
