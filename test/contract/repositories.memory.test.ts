import { MemoryStore } from '../../adapters/persistence/memory/memory-store';
import { MemoryUnitOfWork, memoryRepositories } from '../../adapters/persistence/memory/memory-unit-of-work';
import { describeRepositoryContract } from './repositories.contract';

describeRepositoryContract('memory', async () => {
  const store = new MemoryStore();
  return { repos: memoryRepositories(store), uow: new MemoryUnitOfWork(store), close: async () => undefined };
});
