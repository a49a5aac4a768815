import type { TenancyRepository } from '../../ports/tenancy-repository';
import { NotFoundError } from '../shared/errors';
import type { Organization } from './organization';

/** An operator names an organization by its id (all digits) or its exact name. */
export async function findOrganizationByIdOrName(tenancy: TenancyRepository, idOrName: string): Promise<Organization> {
  const organization = /^\d+$/.test(idOrName)
    ? ((await tenancy.findOrganization(Number(idOrName))) ?? (await tenancy.findOrganizationByName(idOrName)))
    : await tenancy.findOrganizationByName(idOrName);
  if (!organization) throw new NotFoundError(`Organization ${idOrName}`);
  return organization;
}
