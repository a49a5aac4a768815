import type { ClientSummary, CredentialRepository } from '../../../ports/credential-repository';
import { requireDeps } from '../../shared/use-case-deps';

/** Operator command `list-clients`: users, their organization, companies and key prefixes. */
export class ListClients {
  constructor(private readonly deps: { credentials: CredentialRepository }) {
    requireDeps('ListClients', deps);
  }

  execute(): Promise<ClientSummary[]> {
    return this.deps.credentials.listClients();
  }
}
