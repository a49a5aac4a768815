import crypto from 'node:crypto';
import { FixedClock } from '../../adapters/clock/fixed-clock';
import { jobHandlers } from '../../adapters/queue/job-handlers';
import { type Infrastructure, memoryInfrastructure } from '../../cmd/shared/infrastructure';
import { type Application, buildApplication, type CorePorts } from '../../internal/application';
import type { TenantScope } from '../../internal/shared/tenant-scope';
import type { CompanySettings } from '../../internal/tenancy/company';
import type { JobQueue } from '../../ports/job-queue';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';

export interface MemoryWorld {
  infra: Infrastructure;
  app: Application;
  clock: FixedClock;
  repos: Repositories;
  uow: UnitOfWork;
  ids: { alphanumeric(length: number): string };
  /** A fresh organization (own companies) as a TenantScope per company, on the world clock. */
  newTenant(options?: {
    organization?: string;
    companies?: string[];
    settings?: Partial<CompanySettings>;
  }): Promise<{ scopes: TenantScope[]; scope: TenantScope }>;
}

/**
 * The whole application over memory adapters, with time held at `start` until a test moves it.
 * `ports` replaces adapters (a recording gateway), `wrapQueue` wraps the producer the application
 * enqueues on (a queue that can be made unreachable), as startApiProcess's; jobs run in-process once
 * enqueued (`infra.jobs.inProcess.drain()` waits for them).
 */
export function memoryWorld(start: Date, options: { ports?: Partial<CorePorts>; wrapQueue?: (queue: JobQueue) => JobQueue } = {}): MemoryWorld {
  const clock = new FixedClock(start);
  const infra = memoryInfrastructure({ clock });
  infra.ports = { ...infra.ports, ...options.ports };
  if (options.wrapQueue) infra.ports.queue = options.wrapQueue(infra.ports.queue);
  const app = buildApplication(infra.ports);
  // The in-process consumer binds its handlers before start() returns: jobs run from now on.
  void infra.jobs.consumer.start(jobHandlers(app), []);
  const { repos } = infra.ports;
  return {
    infra,
    app,
    clock,
    repos,
    uow: infra.ports.uow,
    ids: infra.ports.ids,
    async newTenant(options = {}) {
      const suffix = crypto.randomBytes(4).toString('hex');
      const organization = options.organization ?? `Org ${suffix}`;
      const created = await app.commands.createClient.execute({
        organization,
        username: `user_${suffix}`,
        password: `pw-${suffix}-secret`,
        companies: (options.companies ?? []).map((c) => `${c}-${suffix}`.toUpperCase()),
        settings: options.settings ?? {},
      });
      const user = (await repos.credentials.findClientUserByUsername(created.clientUsername))!;
      const scopes: TenantScope[] = [];
      for (const { companyCode } of created.companies) {
        scopes.push({
          organizationId: created.organizationId,
          organizationName: organization,
          clientUserId: user.id,
          company: (await repos.tenancy.findCompanyByCode(companyCode))!,
          clock,
          requestId: null,
        });
      }
      return { scopes, scope: scopes[0]! };
    },
  };
}
