import type { ClientSummary, TenancyRepository } from '../../../ports/tenancy-repository';
import { requireDeps } from '../../shared/use-case-deps';

/** Operator command `list-clients`: users, their organization, companies and key prefixes. */
export class ListClients {
  constructor(private readonly deps: { tenancy: TenancyRepository }) {
    requireDeps('ListClients', deps);
  }

  execute(): Promise<ClientSummary[]> {
    return this.deps.tenancy.listClients();
  }
}
