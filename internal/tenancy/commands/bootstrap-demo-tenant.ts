import type { IdGenerator } from '../../../ports/id-generator';
import type { TenancyRepository } from '../../../ports/tenancy-repository';
import { requireDeps } from '../../shared/use-case-deps';
import type { CreateClient, CreatedClient } from './create-client';

export const DEMO_ORGANIZATION = 'Demo Sandbox';
export const DEMO_USERNAME = 'demo';

/** On an empty database, a sandbox tenant a newcomer can call at once; null when not empty. */
export class BootstrapDemoTenant {
  constructor(private readonly deps: { tenancy: TenancyRepository; ids: IdGenerator; createClient: CreateClient }) {
    requireDeps('BootstrapDemoTenant', deps);
  }

  async execute(): Promise<(CreatedClient & { password: string }) | null> {
    if ((await this.deps.tenancy.countOrganizations()) > 0) return null;
    const password = this.deps.ids.alphanumeric(20);
    const client = await this.deps.createClient.execute({
      organization: DEMO_ORGANIZATION,
      username: DEMO_USERNAME,
      password,
      companies: [],
      settings: { defaultCurrency: 'MXN' },
    });
    return { ...client, password };
  }
}
