import type { Clock } from '../../ports/clock';
import type { IdGenerator } from '../../ports/id-generator';
import type { Repositories, UnitOfWork } from '../../ports/unit-of-work';

/** What most use cases need: transactions, plain reads, time and randomness. */
export interface CoreDeps {
  uow: UnitOfWork;
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

/** Fails at boot, not at the first request, when a composition root forgot a dependency. */
export function requireDeps<T extends object>(useCase: string, deps: T): T {
  for (const [name, value] of Object.entries(deps)) {
    if (value === undefined || value === null) throw new Error(`${useCase}: missing dependency ${name}`);
  }
  return deps;
}
