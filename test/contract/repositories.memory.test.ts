import { MemoryStore } from '../../adapters/persistence/memory/memory-store';
import { MemoryUnitOfWork, memoryRepositories } from '../../adapters/persistence/memory/memory-unit-of-work';
import { testEventWriting } from '../support/event-writing';
import { describeRepositoryContract } from './repositories.contract';

describeRepositoryContract('memory', async () => {
  const store = new MemoryStore();
  const events = testEventWriting();
  return {
    repos: memoryRepositories(store, events),
    uow: new MemoryUnitOfWork(store, events),
    singleWriter: true,
    async dropRefreshTokenFamily(tokenHash) {
      for (const token of store.tables.refreshTokens) if (token.tokenHash === tokenHash) token.familyId = null;
    },
    close: async () => undefined,
  };
});
